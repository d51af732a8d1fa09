// The exported layer of a built library, in IR: each entry point is one call
// into the runtime with the kernel, the model's sizes and the caller's
// arguments; the model description is constant data.
#include "jit/LibraryModule.h"

#include "jit/KernelModule.h"
#include "jit/SwitchKernels.h"
#include "jit/TargetCode.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace mech::jit {

namespace {

class LibraryEmitter {
public:
  LibraryEmitter(llvm::Module &module, const LibraryDescription &library,
                 const mechanics::SwitchPrograms &switches)
      : module_(module), context_(module.getContext()), library_(library), switches_(switches),
        b_(context_) {}

  void emit(size_t nq, size_t np, size_t nc, size_t nout) {
    for (const char *name : {"mass_matrix", "forcing", "rhs", "multipliers", "constraints",
                             "energy", "outputs", "jacobian_parts", "contacts", "events_at",
                             "outputs_at", "resets", "frictions", "switch_values"}) {
      llvm::Function *kernel = module_.getFunction(std::string("mech_") + name);
      if (!kernel)
        continue; // a switching kernel of a model without switches
      kernel->setName(std::string("kernel_") + name);
      kernel->setLinkage(llvm::Function::InternalLinkage);
    }
    llvm::Constant *model = modelForRuntime(nq, np, nc, nout);
    llvm::Type *f64 = b_.getDoubleTy(), *ptr = b_.getPtrTy(), *i64 = b_.getInt64Ty();
    llvm::Function *call = runtime("mechrt_call", {ptr, ptr, f64, ptr, i64, ptr, ptr, i64});
    // `inputs`: the values of the second argument (q for the mass matrix, else x).
    auto checkedKernel = [&](const char *name, size_t count, size_t inputs) {
      llvm::Function *f = entryPoint(name, {f64, ptr, ptr, ptr});
      llvm::Function *kernel = module_.getFunction(std::string("kernel_") + name);
      returnCall(call, {model, kernel, f->getArg(0), f->getArg(1), b_.getInt64(inputs),
                        f->getArg(2), f->getArg(3), b_.getInt64(count)});
    };
    checkedKernel("rhs", 2 * nq, 2 * nq);
    checkedKernel("mass_matrix", nq * nq, nq);
    checkedKernel("forcing", nq, 2 * nq);
    checkedKernel("energy", 2, 2 * nq);
    checkedKernel("outputs", nout, 2 * nq);
    checkedKernel("multipliers", nc, 2 * nq);
    {
      llvm::Function *f = entryPoint("constraints", {f64, ptr, ptr, ptr, ptr});
      llvm::Function *target = runtime("mechrt_constraints", {ptr, f64, ptr, ptr, ptr, ptr});
      std::vector<llvm::Value *> args{model};
      for (llvm::Argument &arg : f->args())
        args.push_back(&arg);
      returnCall(target, args);
    }
    // jacobian(t, x, p, out): dF/dx, assembled by the runtime from the parts.
    forward("jacobian", "mechrt_jacobian", {f64, ptr, ptr, ptr}, model);
    // simulate(x0, p, t_end, dt, rtol, atol, out, max_rows, rows) and
    // simulate_with(..., atol, options, out, max_rows, rows).
    forward("simulate", "mechrt_simulate", {ptr, ptr, f64, f64, f64, f64, ptr, i64, ptr}, model);
    forward("simulate_with", "mechrt_simulate_with",
            {ptr, ptr, f64, f64, f64, f64, ptr, ptr, i64, ptr}, model);
    llvm::Constant *info = modelInfo(nq, np, nc, nout);
    {
      llvm::Function *f = entryPoint("model", {}, ptr);
      b_.CreateRet(info);
      (void)f;
    }
    entryPoint("abi_version", {});
    b_.CreateRet(b_.getInt32(kLibraryAbiVersion));
    // What an FMU's functions (runtime/library/Fmi2*.c) read: the model
    // and its description, without the prefix, hidden from the exports.
    hiddenAccessor("mechrt_library_model", model);
    hiddenAccessor("mechrt_library_description", info);
    hiddenAccessor("mechrt_library_guid", string(library_.fmuGuid));
  }

private:
  // An exported function PREFIX_name, with the builder at its entry.
  llvm::Function *entryPoint(const std::string &name, std::vector<llvm::Type *> params,
                             llvm::Type *result = nullptr) {
    auto *type = llvm::FunctionType::get(result ? result : b_.getInt32Ty(), params, false);
    auto *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                     library_.prefix + "_" + name, module_);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    b_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", f));
    return f;
  }

  // A hidden function `name(void)` returning the constant `value`.
  void hiddenAccessor(const char *name, llvm::Constant *value) {
    auto *type = llvm::FunctionType::get(b_.getPtrTy(), {}, false);
    auto *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
    f->setVisibility(llvm::GlobalValue::HiddenVisibility);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    b_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", f));
    b_.CreateRet(value);
  }

  // A function of the runtime object, hidden: resolved inside the library.
  llvm::Function *runtime(const std::string &name, std::vector<llvm::Type *> params) {
    auto *type = llvm::FunctionType::get(b_.getInt32Ty(), params, false);
    auto *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
    f->setVisibility(llvm::GlobalValue::HiddenVisibility);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    return f;
  }

  void returnCall(llvm::Function *target, llvm::ArrayRef<llvm::Value *> args) {
    b_.CreateRet(b_.CreateCall(target, args));
  }

  // PREFIX_name(args...) returning runtimeName(model, args...).
  void forward(const char *name, const char *runtimeName, std::vector<llvm::Type *> types,
               llvm::Constant *model) {
    llvm::Function *f = entryPoint(name, types);
    types.insert(types.begin(), b_.getPtrTy());
    llvm::Function *target = runtime(runtimeName, types);
    std::vector<llvm::Value *> args{model};
    for (llvm::Argument &arg : f->args())
      args.push_back(&arg);
    returnCall(target, args);
  }

  llvm::Constant *constantGlobal(llvm::Constant *value, const std::string &name) {
    return new llvm::GlobalVariable(module_, value->getType(), /*isConstant=*/true,
                                    llvm::GlobalValue::PrivateLinkage, value, name);
  }

  llvm::Constant *string(const std::string &text) {
    return constantGlobal(llvm::ConstantDataArray::getString(context_, text), "name");
  }

  // A constant array of C strings; null when empty.
  llvm::Constant *strings(const std::vector<std::string> &texts) {
    if (texts.empty())
      return llvm::ConstantPointerNull::get(b_.getPtrTy());
    std::vector<llvm::Constant *> pointers;
    for (const std::string &text : texts)
      pointers.push_back(string(text));
    auto *type = llvm::ArrayType::get(b_.getPtrTy(), pointers.size());
    return constantGlobal(llvm::ConstantArray::get(type, pointers), "names");
  }

  // A constant array of 64-bit or 32-bit integers, or bytes; null when empty.
  template <class T> llvm::Constant *integers(const std::vector<T> &values) {
    if (values.empty())
      return llvm::ConstantPointerNull::get(b_.getPtrTy());
    return constantGlobal(llvm::ConstantDataArray::get(context_, values), "integers");
  }

  llvm::Constant *doubles(const std::vector<double> &values) {
    if (values.empty())
      return llvm::ConstantPointerNull::get(b_.getPtrTy());
    return constantGlobal(llvm::ConstantDataArray::get(context_, values), "values");
  }

  // mechrt_model (runtime/library/LibraryRuntime.h).
  llvm::Constant *modelForRuntime(size_t nq, size_t np, size_t nc, size_t nout) {
    llvm::Type *i64 = b_.getInt64Ty(), *ptr = b_.getPtrTy();
    auto *type = llvm::StructType::get(context_, {i64, i64, i64, i64, ptr, ptr, ptr, ptr, ptr, ptr,
                                                  i64, ptr, ptr, i64, i64, ptr, ptr, ptr, ptr, ptr,
                                                  ptr, ptr, ptr, i64, i64, ptr, ptr, i64, ptr});
    std::vector<uint8_t> flags;
    for (bool holonomic : library_.holonomic)
      flags.push_back(holonomic ? 1 : 0);
    std::vector<int64_t> offsets(switches_.resetOffsets.begin(), switches_.resetOffsets.end()),
        targets(switches_.resetTargets.begin(), switches_.resetTargets.end());
    std::vector<int32_t> directions(switches_.directions.begin(), switches_.directions.end());
    std::vector<int32_t> frictionContacts(switches_.frictionContacts.begin(),
                                          switches_.frictionContacts.end());
    std::vector<uint8_t> stops(switches_.stops.begin(), switches_.stops.end());
    // A kernel, or null where the model has none (the switching ones).
    auto kernel = [&](const char *name) -> llvm::Constant * {
      if (llvm::Function *f = module_.getFunction(std::string("kernel_") + name))
        return f;
      return llvm::ConstantPointerNull::get(b_.getPtrTy());
    };
    auto *value =
        llvm::ConstantStruct::get(type, {b_.getInt64(nq),
                                         b_.getInt64(np),
                                         b_.getInt64(nc),
                                         b_.getInt64(nout),
                                         kernel("rhs"),
                                         kernel("constraints"),
                                         kernel("multipliers"),
                                         kernel("outputs"),
                                         integers(flags),
                                         kernel("mass_matrix"),
                                         b_.getInt64(library_.inputs),
                                         kernel("jacobian_parts"),
                                         kernel("energy"),
                                         b_.getInt64(switches_.contacts),
                                         b_.getInt64(switches_.events),
                                         kernel("contacts"),
                                         kernel("events_at"),
                                         kernel("outputs_at"),
                                         kernel("resets"),
                                         integers(offsets),
                                         integers(targets),
                                         integers(directions),
                                         integers(stops),
                                         b_.getInt64(switches_.eventsReadSolution ? 1 : 0),
                                         b_.getInt64(switches_.frictions),
                                         kernel("frictions"),
                                         integers(frictionContacts),
                                         b_.getInt64(switches_.switches),
                                         kernel("switch_values")});
    return constantGlobal(value, "model");
  }

  // PREFIX_model_info, as the generated header declares it.
  llvm::Constant *modelInfo(size_t nq, size_t np, size_t nc, size_t nout) {
    llvm::Type *i32 = b_.getInt32Ty(), *ptr = b_.getPtrTy();
    auto *type = llvm::StructType::get(context_, {i32, ptr, i32, i32, i32, i32, ptr, ptr, ptr, ptr,
                                                  ptr, ptr, i32, i32, i32, ptr, ptr, i32, ptr});
    auto count = [&](size_t k) { return b_.getInt32(static_cast<uint32_t>(k)); };
    auto *value = llvm::ConstantStruct::get(
        type,
        {b_.getInt32(kLibraryAbiVersion), string(library_.name), count(nq), count(np), count(nc),
         count(nout), strings(library_.coordinates), strings(library_.params),
         strings(library_.constraints), strings(library_.outputs), doubles(library_.paramDefaults),
         doubles(library_.initialState), count(library_.inputs), count(library_.events.size()),
         count(library_.contacts.size()), strings(library_.events), strings(library_.contacts),
         count(library_.frictions.size()), strings(library_.frictions)});
    return constantGlobal(value, "info");
  }

  llvm::Module &module_;
  llvm::LLVMContext &context_;
  const LibraryDescription &library_;
  const mechanics::SwitchPrograms &switches_;
  llvm::IRBuilder<> b_;
};

} // namespace

std::string compileLibraryObject(const mechanics::KernelPrograms &programs,
                                 const mechanics::SwitchPrograms &switches,
                                 const LibraryDescription &library, bool nativeCpu,
                                 std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine = libraryTargetMachine(nativeCpu, error);
  if (!machine)
    return "";
  llvm::LLVMContext context;
  // The Jacobian's parts: PREFIX_jacobian and simulate's Radau use them.
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context,
                 KernelSelection{.momentumForce = false, .jacobian = true, .hostSolves = false});
  // The switching kernels only where the runtime calls them: a model
  // without events, contacts and frictions would compile them for nothing.
  if (switches.events + switches.contacts + switches.frictions + switches.switches > 0)
    emitSwitchKernels(programs, switches, *module);
  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(machine->getTargetTriple().str());
  // The kernels read the branches of the piecewise laws after the params.
  LibraryEmitter(*module, library, switches)
      .emit(programs.coordinates, library.params.size(), programs.constraints,
            programs.outputs.outputs().size());
  if (!verifyModule(*module, error))
    return "";
  return emitObjectCode(*module, *machine, error);
}

} // namespace mech::jit
