// LLVM's new pass manager for the optimization, the legacy one for code
// generation (as LLVM 19's own tools still do).
#include "jit/TargetCode.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/SubtargetFeature.h>

#include <mutex>

namespace mech::jit {

bool verifyModule(llvm::Module &module, std::string &error) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  if (llvm::verifyModule(module, &stream)) {
    error = "internal compiler error: invalid LLVM IR: " + stream.str();
    return false;
  }
  return true;
}

namespace {

// The module's LLVM instructions.
size_t instructionCount(const llvm::Module &module) {
  size_t count = 0;
  for (const llvm::Function &f : module)
    count += f.getInstructionCount();
  return count;
}

} // namespace

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  // The SLP vectorizer is the costliest pass on large straight-line
  // kernels (40 % of the optimizer's time on the 60-link chain, half the
  // compile of the 20-link chain) and gains nothing measurable there
  // (bench/README.md, "Compile time").
  llvm::PipelineTuningOptions tuning;
  tuning.SLPVectorization = instructionCount(module) <= kSlpVectorizerLimit;
  llvm::PassBuilder passes(&machine, tuning);
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager pipeline =
      passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  pipeline.run(module, modules);
}

std::string emitObjectCode(llvm::Module &module, llvm::TargetMachine &machine, std::string &error) {
  optimizeModule(module, machine);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, stream, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    error = "LLVM cannot emit object code for " + machine.getTargetTriple().str();
    return "";
  }
  codegen.run(module);
  return std::string(buffer.begin(), buffer.end());
}

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine> libraryTargetMachine(bool native, std::string &error) {
  initializeNativeTarget();
  std::string triple = llvm::sys::getDefaultTargetTriple();
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (target == nullptr)
    return nullptr;
  std::string cpu = "generic", features;
  if (llvm::Triple(triple).getArch() == llvm::Triple::x86_64)
    cpu = "x86-64";
  if (native) {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures list;
    for (const auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      list.AddFeature(name, enabled);
    features = list.getString();
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
                                  llvm::CodeGenOptLevel::Default));
  if (!machine)
    error = "LLVM cannot create a target machine for " + triple + " (" + cpu + ")";
  return machine;
}

} // namespace mech::jit
