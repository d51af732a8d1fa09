// Large programs as a chain of functions of a bounded size. LLVM's
// instruction selection, scheduling and register allocation take time
// superlinear in the size of a function, so a program of 100,000
// instructions in one function compiles for minutes where the same program
// cut into functions of a few thousand compiles in seconds. Each function
// ("segment") takes a scratch array in the caller's frame: the values a
// segment needs from earlier ones (and the program's inputs, which the
// caller stores) are loaded from it, the values later segments or the
// caller need are stored to it. A slot is reused once its value's last
// reader has run, so the array holds the values live across a boundary
// rather than all of them. Loads and stores of doubles are exact, and
// nothing is contracted: the results are those of the program emitted in
// one function, and the interpreter's, bit for bit.
#include "jit/Emitter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

#include <algorithm>
#include <map>
#include <optional>

namespace mech::jit {

using sym::Instruction;

namespace {

constexpr int kNowhere = -2; // not defined (a constant) or not read
constexpr int kCaller = -1;  // defined by the caller (an input)
// The most loads from the scratch array and stores of outputs in a
// function. The machine scheduler compares each memory access with those
// before it: a function of 2000 stores takes 1.3 s to compile, one of 500
// stores 0.06 s.
constexpr size_t kSegmentMemory = 500;
// A value stored in this many places or more is stored by a loop.
constexpr size_t kTableStores = 16;
// Sums of this many operands or more are loops (isWideSum).
constexpr uint32_t kWideSum = 256;

bool isMatrixFunction(const Instruction &instr) {
  return instr.op == Instruction::Op::Function && sym::isMatrixFn(instr.fn);
}

// Where each needed value is defined and last read, and its slot in the
// scratch array.
struct SegmentPlan {
  std::vector<int> defined, lastRead;
  std::vector<size_t> slot;
  size_t slots = 0;
  int segments = 0;

  bool crosses(size_t i) const { return lastRead[i] > defined[i]; }
};

// The operands an instruction reads (a general power's exponent too).
template <class Visit>
void forEachOperand(const sym::Program &program, const Instruction &instr, Visit visit) {
  const auto &ops = program.operands();
  for (uint32_t k = 0; k < instr.count; ++k) {
    visit(ops[instr.first + k].value);
    if (ops[instr.first + k].mode == sym::Operand::Mode::GeneralPower)
      visit(ops[instr.first + k].exponent);
  }
}

// The other half of instruction i's sincos pair, when both are needed.
std::optional<size_t> sincosPartner(const sym::Program &program,
                                    const std::map<uint32_t, std::pair<long, long>> &trig,
                                    size_t i) {
  const Instruction &instr = program.instructions()[i];
  if (instr.op != Instruction::Op::Function ||
      (instr.fn != sym::Fn::Sin && instr.fn != sym::Fn::Cos))
    return std::nullopt;
  auto pair = trig.find(program.operands()[instr.first].value);
  if (pair == trig.end() || pair->second.first < 0 || pair->second.second < 0)
    return std::nullopt;
  long other = instr.fn == sym::Fn::Sin ? pair->second.second : pair->second.first;
  return static_cast<size_t>(other);
}

bool hasOperands(const Instruction &instr) {
  return instr.op != Instruction::Op::Constant && instr.op != Instruction::Op::Input;
}

// A sum of so many operands, none a constant, that it is evaluated by a
// loop over a table of its operands' slots and scales: as straight-line
// code its thousands of loads make instruction selection quadratic (a
// potential of 6000 terms took 34 s to compile). The loop does the same
// additions in the same order.
bool isWideSum(const sym::Program &program, const Instruction &instr) {
  if (instr.op != Instruction::Op::Sum || instr.count < kWideSum)
    return false;
  for (uint32_t k = 0; k < instr.count; ++k)
    if (program.instructions()[program.operands()[instr.first + k].value].op ==
        Instruction::Op::Constant)
      return false;
  return true;
}

// About the number of LLVM instructions an instruction becomes: one per
// operand, and the result.
size_t instructionWeight(const Instruction &instr) {
  return hasOperands(instr) ? 1 + instr.count : 0;
}

// Cuts the needed instructions, in order, into segments of about `size`
// LLVM instructions and at most kSegmentMemory memory accesses; sin and
// cos of one argument go together (one sincos call defines both).
void assignSegments(const sym::Program &program, const std::vector<bool> &needed,
                    const std::map<uint32_t, std::pair<long, long>> &trig, size_t size,
                    SegmentPlan &plan) {
  const auto &code = program.instructions();
  plan.defined.assign(code.size(), kNowhere);
  std::vector<size_t> stores(code.size(), 0); // as outputs, and to the scratch array
  for (uint32_t j : program.outputs())
    ++stores[j];
  // Operands of wide sums are stored to the scratch array (the sum has a
  // segment of its own): memory accesses where they are computed.
  for (size_t i = 0; i < code.size(); ++i)
    if (needed[i] && isWideSum(program, code[i]))
      forEachOperand(program, code[i], [&](uint32_t j) { ++stores[j]; });
  std::vector<int> loadedIn(code.size(), kNowhere);
  int current = 0;
  size_t filled = 0, accesses = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    if (!needed[i] || code[i].op == Instruction::Op::Constant || plan.defined[i] != kNowhere)
      continue;
    if (code[i].op == Instruction::Op::Input) {
      plan.defined[i] = kCaller;
      continue;
    }
    if (isWideSum(program, code[i])) { // in a segment of its own, after its operands
      if (filled > 0)
        ++current;
      plan.defined[i] = current++;
      filled = 0;
      continue;
    }
    plan.defined[i] = current;
    if (auto half = sincosPartner(program, trig, i))
      plan.defined[*half] = current;
    filled += instructionWeight(code[i]);
    accesses += stores[i];
    forEachOperand(program, code[i], [&](uint32_t j) {
      if (code[j].op != Instruction::Op::Constant && plan.defined[j] != current &&
          loadedIn[j] != current) {
        loadedIn[j] = current; // a load from the scratch array, once per segment
        ++accesses;
      }
    });
    if (filled >= size || accesses >= kSegmentMemory) {
      ++current;
      filled = accesses = 0;
    }
  }
  plan.segments = filled > 0 ? current + 1 : current;
}

// The last segment reading each value, and slots by a linear scan over the segments: a slot is
// freed before the first segment after its value's last reader.
void assignSlots(const sym::Program &program, const std::vector<bool> &needed, SegmentPlan &plan) {
  const auto &code = program.instructions();
  plan.lastRead.assign(code.size(), kNowhere);
  for (size_t i = 0; i < code.size(); ++i)
    if (needed[i] && hasOperands(code[i]))
      forEachOperand(program, code[i], [&](uint32_t j) {
        if (code[j].op != Instruction::Op::Constant)
          plan.lastRead[j] = std::max(plan.lastRead[j], plan.defined[i]);
      });
  // Inputs that are outputs are stored after the last segment.
  for (uint32_t j : program.outputs())
    if (code[j].op == Instruction::Op::Input)
      plan.lastRead[j] = plan.segments;
  // By segment (kCaller first): the crossing values defined there, and
  // those last read there.
  size_t boundaries = static_cast<size_t>(plan.segments) + 2;
  std::vector<std::vector<size_t>> definedAt(boundaries), lastReadAt(boundaries);
  for (size_t i = 0; i < code.size(); ++i)
    if (plan.defined[i] != kNowhere && plan.crosses(i)) {
      definedAt[static_cast<size_t>(plan.defined[i] + 1)].push_back(i);
      lastReadAt[static_cast<size_t>(plan.lastRead[i] + 1)].push_back(i);
    }
  plan.slot.assign(code.size(), 0);
  std::vector<size_t> free;
  for (size_t s = 0; s + 1 < boundaries; ++s) {
    if (s > 0)
      for (size_t i : lastReadAt[s - 1])
        free.push_back(plan.slot[i]);
    for (size_t i : definedAt[s]) {
      if (free.empty()) {
        plan.slot[i] = plan.slots++;
      } else {
        plan.slot[i] = free.back();
        free.pop_back();
      }
    }
  }
}

} // namespace

bool Emitter::segmentable(const sym::Program &program, const std::vector<bool> &needed) const {
  const auto &code = program.instructions();
  size_t weight = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    if (!needed[i])
      continue;
    if (isMatrixFunction(code[i]))
      return false;
    weight += instructionWeight(code[i]);
  }
  return weight > segmentSize_ || program.outputs().size() > kSegmentMemory;
}

// The segments of one program: the functions that compute its instructions,
// then those that store the outputs no instruction computes (constants and
// inputs: a dense mass matrix has tens of thousands of such entries).
class SegmentedProgram {
public:
  SegmentedProgram(Emitter &e, const sym::Program &program, const std::vector<bool> &needed,
                   size_t size, size_t offset)
      : e_(e), b_(e.builder()), program_(program), code_(program.instructions()), size_(size),
        trig_(Emitter::sincosPairs(program, needed)) {
    assignSegments(program, needed, trig_, size, plan_);
    assignSlots(program, needed, plan_);
    for (size_t w = 0; w < program.outputs().size(); ++w)
      positions_.emplace(program.outputs()[w], offset + w);
  }

  void emit(const std::function<llvm::Value *(uint32_t)> &input, llvm::Value *out) {
    llvm::Value *scratch = e_.stackSlot(e_.f64(), std::max<size_t>(plan_.slots, 1));
    for (size_t i = 0; i < code_.size(); ++i)
      if (plan_.defined[i] == kCaller && plan_.crosses(i))
        e_.store(input(code_[i].first), scratch, plan_.slot[i]);
    v_.assign(code_.size(), nullptr);
    valid_.assign(code_.size(), kNowhere);
    for (int s = 0; s < plan_.segments; ++s)
      inSegment(scratch, out, [&](llvm::Value *local, llvm::Value *target) {
        computeSegment(s, local, target, input);
      });
    storeUncomputedOutputs(scratch, out);
  }

private:
  // Emits body(scratch, out) as a new function and calls it from here.
  void inSegment(llvm::Value *scratch, llvm::Value *out,
                 const std::function<void(llvm::Value *, llvm::Value *)> &body) {
    llvm::Module &module = *b_.GetInsertBlock()->getModule();
    auto *type = llvm::FunctionType::get(b_.getVoidTy(), {b_.getPtrTy(), b_.getPtrTy()}, false);
    auto *f = llvm::Function::Create(type, llvm::Function::InternalLinkage, "mech_segment", module);
    f->addParamAttr(0, llvm::Attribute::NoAlias);
    f->addParamAttr(1, llvm::Attribute::NoAlias);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::NoInline); // inlined back, the whole point is lost
    llvm::IRBuilderBase::InsertPoint caller = b_.saveIP();
    b_.SetInsertPoint(llvm::BasicBlock::Create(b_.getContext(), "entry", f));
    body(f->getArg(0), f->getArg(1));
    b_.CreateRetVoid();
    b_.restoreIP(caller);
    b_.CreateCall(f, {scratch, out});
  }

  // The instructions of segment s, each crossing value and output stored
  // as soon as it is computed (no long live ranges in the function).
  void computeSegment(int s, llvm::Value *local, llvm::Value *target,
                      const std::function<llvm::Value *(uint32_t)> &input) {
    auto operand = [&](uint32_t j) {
      if (valid_[j] == s)
        return;
      v_[j] = code_[j].op == Instruction::Op::Constant ? e_.constant(code_[j].constant)
                                                       : e_.load(local, plan_.slot[j]);
      valid_[j] = s;
    };
    std::map<size_t, llvm::Value *> noInverses; // segmentable: no matrix functions
    for (size_t i = 0; i < code_.size(); ++i) {
      if (plan_.defined[i] != s || valid_[i] == s)
        continue; // elsewhere, or the other half of a sincos pair
      if (isWideSum(program_, code_[i])) {
        v_[i] = wideSum(code_[i], s, local);
      } else {
        forEachOperand(program_, code_[i], operand);
        v_[i] = nullptr;
        e_.emitInstruction(program_, i, trig_, v_, noInverses, input);
      }
      // A sincos call defines the other half of the pair too.
      std::vector<size_t> defined{i};
      if (auto half = sincosPartner(program_, trig_, i))
        defined.push_back(*half);
      for (size_t k : defined) {
        valid_[k] = s;
        if (plan_.crosses(k))
          e_.store(v_[k], local, plan_.slot[k]);
        for (auto [at, end] = positions_.equal_range(k); at != end; ++at)
          e_.store(v_[k], target, at->second);
      }
    }
  }

  // The outputs that are constants or inputs: a value stored in many places
  // (a dense mass matrix's entries, tens of thousands of them) by a loop
  // over a constant table of its places, the others in functions of `size_`.
  void storeUncomputedOutputs(llvm::Value *scratch, llvm::Value *out) {
    std::map<size_t, std::vector<uint64_t>> places; // instruction -> its places
    for (auto [i, position] : positions_)
      if (plan_.defined[i] == kNowhere || plan_.defined[i] == kCaller)
        places[i].push_back(position);
    std::vector<std::pair<size_t, size_t>> stores; // (instruction, position), one by one
    for (const auto &[i, list] : places) {
      if (list.size() < kTableStores) {
        for (uint64_t position : list)
          stores.emplace_back(i, position);
        continue;
      }
      llvm::Value *value = uncomputed(i, scratch);
      llvm::Constant *table = constantTable(list);
      e_.loop(b_.getInt64(0), b_.getInt64(list.size()),
              [&](llvm::Value *k) { b_.CreateStore(value, e_.at(out, placeAt(table, k))); });
    }
    const size_t perFunction = std::min(size_, kSegmentMemory);
    for (size_t first = 0; first < stores.size(); first += perFunction)
      inSegment(scratch, out, [&](llvm::Value *local, llvm::Value *target) {
        std::map<size_t, llvm::Value *> values;
        for (size_t k = first; k < std::min(stores.size(), first + perFunction); ++k) {
          auto [i, position] = stores[k];
          llvm::Value *&value = values[i];
          if (value == nullptr)
            value = uncomputed(i, local);
          e_.store(value, target, position);
        }
      });
  }

  // A wide sum (every operand in the scratch array, as its segment is its
  // own): the first term as Emitter::emitSum takes it, then s += scale * x
  // over a table, which rounds as emitSum's s + x and s - x do for scales
  // of 1 and -1 (the product is exact).
  llvm::Value *wideSum(const Instruction &instr, int s, llvm::Value *local) {
    const sym::Operand *o = program_.operands().data() + instr.first;
    if (valid_[o[0].value] != s) {
      v_[o[0].value] = e_.load(local, plan_.slot[o[0].value]);
      valid_[o[0].value] = s;
    }
    Instruction head = instr;
    head.count = 1;
    llvm::Value *sum = e_.stackSlot(e_.f64());
    b_.CreateStore(e_.emitSum(head, o, v_), sum);
    std::vector<uint64_t> slots;
    std::vector<double> scales;
    for (uint32_t k = 1; k < instr.count; ++k) {
      slots.push_back(plan_.slot[o[k].value]);
      scales.push_back(o[k].scale);
    }
    llvm::Constant *slotTable = constantTable(slots), *scaleTable = constantTable(scales);
    e_.loop(b_.getInt64(0), b_.getInt64(slots.size()), [&](llvm::Value *k) {
      llvm::Value *scale = b_.CreateLoad(e_.f64(), e_.at(scaleTable, k));
      llvm::Value *x = b_.CreateLoad(e_.f64(), e_.at(local, placeAt(slotTable, k)));
      llvm::Value *s = b_.CreateLoad(e_.f64(), sum);
      b_.CreateStore(b_.CreateFAdd(s, b_.CreateFMul(scale, x)), sum);
    });
    return b_.CreateLoad(e_.f64(), sum);
  }

  // Entry k of a constant table of places (constantTable of uint64_t).
  llvm::Value *placeAt(llvm::Constant *table, llvm::Value *k) {
    return b_.CreateLoad(b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), table, k));
  }

  // A constant's value, or an input's from the scratch array.
  llvm::Value *uncomputed(size_t i, llvm::Value *scratch) {
    return code_[i].op == Instruction::Op::Constant ? e_.constant(code_[i].constant)
                                                    : e_.load(scratch, plan_.slot[i]);
  }

  // A constant global array of the values.
  template <class T> llvm::Constant *constantTable(const std::vector<T> &values) {
    llvm::Module &module = *b_.GetInsertBlock()->getModule();
    llvm::Constant *data = llvm::ConstantDataArray::get(b_.getContext(), values);
    return new llvm::GlobalVariable(module, data->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, data, "mech_table");
  }

  Emitter &e_;
  llvm::IRBuilder<> &b_;
  const sym::Program &program_;
  const std::vector<Instruction> &code_;
  size_t size_;
  Emitter::SincosPairs trig_;
  SegmentPlan plan_;
  std::multimap<size_t, size_t> positions_; // instruction -> where it is stored
  // v_[j] is the value of instruction j in segment valid_[j].
  std::vector<llvm::Value *> v_;
  std::vector<int> valid_;
};

void Emitter::emitSegmented(const sym::Program &program, const std::vector<bool> &needed,
                            const std::function<llvm::Value *(uint32_t)> &input, llvm::Value *out,
                            size_t offset) {
  SegmentedProgram(*this, program, needed, segmentSize_, offset).emit(input, out);
}

} // namespace mech::jit
