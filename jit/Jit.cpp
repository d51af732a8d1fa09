// ORC LLJIT with the host's target machine and the process's symbols (libm).
#include "jit/Jit.h"

#include "jit/TargetCode.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace mech::jit {

struct Jit::State {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;
};

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

} // namespace

Jit::Jit(std::unique_ptr<State> state) : state_(std::move(state)) {}
Jit::~Jit() = default;

std::unique_ptr<Jit> Jit::create(std::string &error) {
  initializeNativeTarget();
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
  optimizeModule(module, *state_->machine);
}

std::string Jit::emitObject(llvm::Module &module, std::string &error) {
  prepare(module);
  return emitObjectCode(module, *state_->machine, error);
}

bool Jit::addObject(const std::string &object, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, "mech_model.o");
  if (llvm::Error e = state_->jit->addObjectFile(std::move(buffer))) {
    error = message(std::move(e));
    return false;
  }
  return true;
}

std::string Jit::targetDescription() const {
  const llvm::TargetMachine &machine = *state_->machine;
  return std::string("LLVM ") + LLVM_VERSION_STRING + "; " + machine.getTargetTriple().str() +
         "; " + machine.getTargetCPU().str() + "; " + machine.getTargetFeatureString().str();
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
