// ORC LLJIT with the host's target machine and the process's symbols (libm).
#include "jit/Jit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace mech::jit {

struct Jit::State {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;
};

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

void initializeLlvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

} // namespace

Jit::Jit(std::unique_ptr<State> state) : state_(std::move(state)) {}
Jit::~Jit() = default;

std::unique_ptr<Jit> Jit::create(std::string &error) {
  initializeLlvm();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = message(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    error = message(machine.takeError());
    return nullptr;
  }
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*builder).create();
  if (!jit) {
    error = message(jit.takeError());
    return nullptr;
  }
  // Kernels call libm (sin, sincos, atan2, ...): resolve from this process.
  auto generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator) {
    error = message(generator.takeError());
    return nullptr;
  }
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  auto state = std::make_unique<State>();
  state->jit = std::move(*jit);
  state->machine = std::move(*machine);
  return std::unique_ptr<Jit>(new Jit(std::move(state)));
}

void Jit::prepare(llvm::Module &module) {
  module.setDataLayout(state_->jit->getDataLayout());
  module.setTargetTriple(state_->jit->getTargetTriple().str());
}

void Jit::optimize(llvm::Module &module) {
  prepare(module);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder passes(state_->machine.get());
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager pipeline =
      passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  pipeline.run(module, modules);
}

bool Jit::add(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
              std::string &error) {
  optimize(*module);
  llvm::orc::ThreadSafeModule safe(std::move(module), std::move(context));
  if (llvm::Error e = state_->jit->addIRModule(std::move(safe))) {
    error = message(std::move(e));
    return false;
  }
  return true;
}

void *Jit::lookup(const std::string &name, std::string &error) {
  auto address = state_->jit->lookup(name);
  if (!address) {
    error = message(address.takeError());
    return nullptr;
  }
  return address->toPtr<void *>();
}

} // namespace mech::jit
