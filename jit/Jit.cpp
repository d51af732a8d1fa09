// ORC LLJIT with the host's target machine and the process's symbols (libm).
#include "jit/Jit.h"

#include "jit/TargetCode.h"
#include "runtime/AugmentedSolve.h"
#include "runtime/EnvelopeSolve.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <atomic>
#include <mutex>

namespace mech::jit {

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// One LLJIT for the process: creating one (its target machines, the
// session, the process's symbols) costs about a millisecond, as much as
// linking a cached object, and a run with contacts or friction loads a
// kernel set per mode. Each Jit is a JITDylib of its own in it (the kernel
// sets define the same names), removed with the Jit.
struct Session {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::mutex codegen;             // the target machine is not reentrant
  std::atomic<unsigned> next = 0; // names the JITDylibs
};

std::shared_ptr<Session> createSession(std::string &error) {
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
  // The runtime functions generated code calls (jit/KernelModule.cpp), by
  // address: the executable does not export its symbols.
  llvm::orc::SymbolMap runtime;
  runtime[(*jit)->mangleAndIntern("mech_solve_constrained_envelope")] = {
      llvm::orc::ExecutorAddr::fromPtr(&mech_solve_constrained_envelope),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  runtime[(*jit)->mangleAndIntern("mech_solve_constrained_augmented")] = {
      llvm::orc::ExecutorAddr::fromPtr(&mech_solve_constrained_augmented),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (llvm::Error failure =
          (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(runtime)))) {
    error = message(std::move(failure));
    return nullptr;
  }
  auto session = std::make_shared<Session>();
  session->jit = std::move(*jit);
  session->machine = std::move(*machine);
  return session;
}

// The process's session, made at the first use (a failure is not kept:
// the next use tries again and says why).
std::shared_ptr<Session> sharedSession(std::string &error) {
  static std::mutex guard;
  static std::shared_ptr<Session> session;
  std::lock_guard lock(guard);
  if (!session)
    session = createSession(error);
  return session;
}

} // namespace

struct Jit::State {
  std::shared_ptr<Session> session;
  llvm::orc::JITDylib *library = nullptr;
};

Jit::Jit(std::unique_ptr<State> state) : state_(std::move(state)) {}

Jit::~Jit() {
  if (state_->library)
    llvm::consumeError(
        state_->session->jit->getExecutionSession().removeJITDylib(*state_->library));
}

std::unique_ptr<Jit> Jit::create(std::string &error) {
  std::shared_ptr<Session> session = sharedSession(error);
  if (!session)
    return nullptr;
  auto library = session->jit->getExecutionSession().createJITDylib(
      "mech_kernels_" + std::to_string(session->next++));
  if (!library) {
    error = message(library.takeError());
    return nullptr;
  }
  // Its objects resolve libm and the like through the main JITDylib.
  library->addToLinkOrder(session->jit->getMainJITDylib());
  auto state = std::make_unique<State>();
  state->session = std::move(session);
  state->library = &*library;
  return std::unique_ptr<Jit>(new Jit(std::move(state)));
}

void Jit::prepare(llvm::Module &module) {
  module.setDataLayout(state_->session->jit->getDataLayout());
  module.setTargetTriple(state_->session->jit->getTargetTriple().str());
}

void Jit::optimize(llvm::Module &module) {
  prepare(module);
  std::lock_guard lock(state_->session->codegen);
  optimizeModule(module, *state_->session->machine);
}

std::string Jit::emitObject(llvm::Module &module, std::string &error) {
  prepare(module);
  std::lock_guard lock(state_->session->codegen);
  return emitObjectCode(module, *state_->session->machine, error);
}

bool Jit::addObject(const std::string &object, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, "mech_model.o");
  if (llvm::Error e = state_->session->jit->addObjectFile(*state_->library, std::move(buffer))) {
    error = message(std::move(e));
    return false;
  }
  return true;
}

std::string Jit::targetDescription() const {
  const llvm::TargetMachine &machine = *state_->session->machine;
  return std::string("LLVM ") + LLVM_VERSION_STRING + "; " + machine.getTargetTriple().str() +
         "; " + machine.getTargetCPU().str() + "; " + machine.getTargetFeatureString().str();
}

void *Jit::lookup(const std::string &name, std::string &error) {
  auto address = state_->session->jit->lookup(*state_->library, name);
  if (!address) {
    error = message(address.takeError());
    return nullptr;
  }
  return address->toPtr<void *>();
}

} // namespace mech::jit
