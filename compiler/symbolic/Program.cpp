// Linearisation of the DAG and the interpreter loop.
#include "symbolic/Program.h"

#include "support/Diagnostics.h"
#include "symbolic/MatrixFunctions.h"

#include <cmath>
#include <cstdint>
#include <unordered_set>

namespace mech::sym {

namespace {

double integerPower(double x, int32_t k) {
  bool invert = k < 0;
  uint32_t n = static_cast<uint32_t>(invert ? -static_cast<int64_t>(k) : k);
  double result = 1, base = x;
  while (n) {
    if (n & 1)
      result *= base;
    base *= base;
    n >>= 1;
  }
  return invert ? 1 / result : result;
}

// The instruction of each node emitted so far: open addressing in one flat
// table. A node-based std::unordered_map spent most of the time to build
// the programs of a 200-link chain (half a million nodes, about a second
// before the first step) in allocations and cache misses.
class Slots {
public:
  bool contains(const Node *n) const { return keys_[find(n)] == n; }
  uint32_t at(const Node *n) const {
    size_t i = find(n);
    if (keys_[i] != n)
      internalError("program: an operand was not emitted before its use");
    return values_[i];
  }
  void insert(const Node *n, uint32_t value) {
    if (2 * (size_ + 1) > keys_.size())
      grow();
    size_t i = find(n);
    if (keys_[i] != n)
      ++size_;
    keys_[i] = n;
    values_[i] = value;
  }

private:
  // The slot of n, or the empty slot where it would go.
  size_t find(const Node *n) const {
    size_t mask = keys_.size() - 1;
    uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(n)) * 0x9e3779b97f4a7c15ull;
    size_t i = static_cast<size_t>(h ^ (h >> 32)) & mask;
    while (keys_[i] != nullptr && keys_[i] != n)
      i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<const Node *> keys(2 * keys_.size(), nullptr);
    std::vector<uint32_t> values(keys.size());
    keys.swap(keys_);
    values.swap(values_);
    for (size_t k = 0; k < keys.size(); ++k)
      if (keys[k] != nullptr) {
        size_t i = find(keys[k]);
        keys_[i] = keys[k];
        values_[i] = values[k];
      }
  }

  std::vector<const Node *> keys_ = std::vector<const Node *>(64, nullptr);
  std::vector<uint32_t> values_ = std::vector<uint32_t>(64);
  size_t size_ = 0;
};

// Factors a packed matrix: its determinant is returned, its inverse goes
// to its place in the scratch.
double evaluateMatrix(const Instruction &instr, const Operand *ops, std::vector<double> &v) {
  size_t entries = instr.count, n = packedSide(entries);
  double a[kMaxPackedSize * kMaxPackedSize];
  for (size_t k = 0; k < entries; ++k)
    a[k] = v[ops[k].value];
  return invertDense(n, a, v.data() + instr.scratch);
}

} // namespace

Program::Program(const std::vector<Expr> &outputs, const InputMap &inputs) {
  Slots visited;
  uint32_t inverses = 0; // scratch for the matrices' inverses
  // Iterative post-order, so deep expressions cannot exhaust the stack.
  std::vector<std::pair<const Node *, bool>> stack;
  for (const Expr &output : outputs) {
    treeSize_ += output->treeSize;
    stack.assign(1, {output.node(), false});
    while (!stack.empty()) {
      auto [n, expanded] = stack.back();
      stack.pop_back();
      if (visited.contains(n))
        continue;
      if (!expanded) {
        stack.push_back({n, true});
        for (const Node *op : n->ops)
          if (!visited.contains(op))
            stack.push_back({op, false});
        continue;
      }
      Instruction instr{};
      auto slot = [&](const Node *op) { return visited.at(op); };
      switch (n->kind) {
      case Kind::Number:
        instr.op = Instruction::Op::Constant;
        instr.constant = n->num.toDouble();
        break;
      case Kind::Symbol: {
        const SymbolInfo &s = n->context->symbolInfo(n);
        if (s.kind == SymbolKind::Constant) {
          instr.op = Instruction::Op::Constant;
          instr.constant = s.value;
          break;
        }
        int index = inputs(s);
        if (index < 0)
          internalError("no value for symbol '" + s.name + "'");
        instr.op = Instruction::Op::Input;
        instr.first = static_cast<uint32_t>(index);
        break;
      }
      case Kind::Add:
        instr.op = Instruction::Op::Sum;
        instr.constant = n->num.toDouble();
        instr.first = static_cast<uint32_t>(operands_.size());
        for (size_t i = 0; i < n->ops.size(); i += 2) {
          Operand o{Operand::Mode::Scaled, slot(n->ops[i])};
          o.scale = n->ops[i + 1]->num.toDouble();
          operands_.push_back(o);
        }
        instr.count = static_cast<uint32_t>(n->ops.size() / 2);
        break;
      case Kind::Mul:
      case Kind::Pow: {
        instr.op = Instruction::Op::Product;
        instr.constant = n->kind == Kind::Mul ? n->num.toDouble() : 1.0;
        instr.first = static_cast<uint32_t>(operands_.size());
        for (size_t i = 0; i < n->ops.size(); i += 2) {
          const Node *exponent = n->ops[i + 1];
          Operand o{Operand::Mode::GeneralPower, slot(n->ops[i])};
          if (exponent->kind == Kind::Number && exponent->num.exact()) {
            const Rational &q = exponent->num.rational();
            if (q.isInteger() && q.num() >= INT32_MIN && q.num() <= INT32_MAX) {
              o.mode = Operand::Mode::IntegerPower;
              o.power = static_cast<int32_t>(q.num());
            } else if (q == *Rational::make(1, 2)) {
              o.mode = Operand::Mode::Sqrt;
            } else if (q == *Rational::make(-1, 2)) {
              o.mode = Operand::Mode::InverseSqrt;
            }
          }
          if (o.mode == Operand::Mode::GeneralPower)
            o.exponent = slot(exponent);
          operands_.push_back(o);
        }
        instr.count = static_cast<uint32_t>(n->ops.size() / 2);
        break;
      }
      case Kind::Func:
        instr.op = Instruction::Op::Function;
        instr.fn = n->fn;
        instr.first = static_cast<uint32_t>(operands_.size());
        for (const Node *arg : n->ops)
          operands_.push_back({Operand::Mode::Scaled, slot(arg)});
        instr.count = static_cast<uint32_t>(n->ops.size());
        if (n->fn == Fn::Matrix) {
          instr.scratch = inverses;
          inverses += static_cast<uint32_t>(n->ops.size());
        } else if (n->fn == Fn::InvEntry) {
          auto [i, j] = inverseEntryIndex(n);
          instr.scratch = instructions_[slot(n->ops[2])].scratch +
                          static_cast<uint32_t>(i * packedSize(n->ops[2]) + j);
        }
        break;
      }
      visited.insert(n, static_cast<uint32_t>(instructions_.size()));
      instructions_.push_back(instr);
    }
    outputs_.push_back(visited.at(output.node()));
  }
  // The inverses go past the values: their places become absolute.
  scratchSize_ = static_cast<uint32_t>(instructions_.size()) + inverses;
  for (Instruction &instr : instructions_)
    if (instr.op == Instruction::Op::Function &&
        (instr.fn == Fn::Matrix || instr.fn == Fn::InvEntry))
      instr.scratch += static_cast<uint32_t>(instructions_.size());
}

void Program::evaluate(const double *inputs, double *outputs, std::vector<double> &v) const {
  v.resize(scratchSize_);
  for (size_t i = 0; i < instructions_.size(); ++i) {
    const Instruction &instr = instructions_[i];
    // `first` indexes the operands of sums, products and functions only (an
    // input's is the input's index): no pointer is formed from it otherwise.
    bool hasOperands = instr.op != Instruction::Op::Constant && instr.op != Instruction::Op::Input;
    const Operand *ops = hasOperands ? operands_.data() + instr.first : nullptr;
    switch (instr.op) {
    case Instruction::Op::Constant:
      v[i] = instr.constant;
      break;
    case Instruction::Op::Input:
      v[i] = inputs[instr.first];
      break;
    case Instruction::Op::Sum: {
      // Without a constant the first term starts the sum (0 + -0 would be
      // +0): the generated code's order (jit::Emitter::emitSum).
      bool fromFirst = instr.constant == 0 && instr.count > 0;
      double s = fromFirst ? ops[0].scale * v[ops[0].value] : instr.constant;
      for (uint32_t k = fromFirst ? 1 : 0; k < instr.count; ++k)
        s += ops[k].scale * v[ops[k].value];
      v[i] = s;
      break;
    }
    case Instruction::Op::Product: {
      double p = instr.constant;
      for (uint32_t k = 0; k < instr.count; ++k) {
        double x = v[ops[k].value];
        switch (ops[k].mode) {
        case Operand::Mode::IntegerPower:
          p *= ops[k].power == 1 ? x : integerPower(x, ops[k].power);
          break;
        case Operand::Mode::Sqrt:
          p *= std::sqrt(x);
          break;
        case Operand::Mode::InverseSqrt:
          p /= std::sqrt(x);
          break;
        case Operand::Mode::GeneralPower:
          p *= std::pow(x, v[ops[k].exponent]);
          break;
        case Operand::Mode::Scaled:
          p *= x;
          break;
        }
      }
      v[i] = p;
      break;
    }
    case Instruction::Op::Function:
      if (instr.fn == Fn::Select)
        v[i] = v[ops[0].value] > 0 ? v[ops[1].value] : v[ops[2].value];
      else if (instr.fn == Fn::Smooth)
        v[i] = v[ops[0].value];
      else if (instr.fn == Fn::Matrix)
        v[i] = evaluateMatrix(instr, ops, v);
      else if (instr.fn == Fn::Det)
        v[i] = v[ops[0].value];
      else if (instr.fn == Fn::InvEntry)
        v[i] = v[instr.scratch];
      else
        v[i] = evaluateFn(instr.fn, v[ops[0].value], instr.count > 1 ? v[ops[1].value] : 0.0);
      break;
    }
  }
  for (size_t k = 0; k < outputs_.size(); ++k)
    outputs[k] = v[outputs_[k]];
}

namespace {

// Multiplications (and a division when negative) of x^k by squaring.
double powerCost(int32_t k) {
  if (k == 0 || k == 1)
    return 0;
  int64_t m = k < 0 ? -int64_t(k) : k;
  double cost = 0;
  for (; m > 1; m >>= 1)
    cost += (m & 1) ? 2 : 1;
  return cost + (k < 0 ? kCostDivide : 0);
}

double functionCost(Fn fn, uint32_t operands) {
  if (fn == Fn::Matrix) // Gauss-Jordan: about 2 n^3 multiply-adds
    return 2 * std::pow(static_cast<double>(operands), 1.5) + kCostDivide * std::sqrt(operands);
  switch (fn) {
  case Fn::Abs:
  case Fn::Sign:
  case Fn::Select:
  case Fn::Smooth:
    return 1;
  case Fn::Det: // the matrix's value
  case Fn::InvEntry:
    return 0;
  case Fn::Atan2:
    return 2 * kCostFunction;
  default:
    return kCostFunction;
  }
}

} // namespace

double Program::cost() const {
  double total = 0;
  // The back ends take sin and cos of one argument from one sincos call.
  std::unordered_set<uint32_t> sincosArguments;
  for (const Instruction &instr : instructions_) {
    // As in evaluate(): `first` indexes operands only where there are any.
    bool hasOperands = instr.op != Instruction::Op::Constant && instr.op != Instruction::Op::Input;
    const Operand *ops = hasOperands ? operands_.data() + instr.first : nullptr;
    switch (instr.op) {
    case Instruction::Op::Constant:
    case Instruction::Op::Input:
      break;
    case Instruction::Op::Sum:
      total += instr.count - 1 + (instr.constant != 0 ? 1 : 0);
      for (uint32_t k = 0; k < instr.count; ++k)
        total += ops[k].scale == 1 || ops[k].scale == -1 ? 0 : 1;
      break;
    case Instruction::Op::Product:
      total += instr.count - 1 + (instr.constant == 1 || instr.constant == -1 ? 0 : 1);
      for (uint32_t k = 0; k < instr.count; ++k)
        switch (ops[k].mode) {
        case Operand::Mode::IntegerPower:
          total += powerCost(ops[k].power);
          break;
        case Operand::Mode::Sqrt:
          total += kCostSqrt;
          break;
        case Operand::Mode::InverseSqrt:
          total += kCostSqrt + kCostDivide;
          break;
        case Operand::Mode::GeneralPower:
          total += kCostPow;
          break;
        case Operand::Mode::Scaled:
          break;
        }
      break;
    case Instruction::Op::Function:
      if ((instr.fn == Fn::Sin || instr.fn == Fn::Cos) &&
          !sincosArguments.insert(ops[0].value).second)
        break;
      total += functionCost(instr.fn, instr.count);
      break;
    }
  }
  return total;
}

std::vector<double> Program::evaluate(const std::vector<double> &inputs) const {
  std::vector<double> out(outputs_.size()), scratch;
  evaluate(inputs.data(), out.data(), scratch);
  return out;
}

} // namespace mech::sym
