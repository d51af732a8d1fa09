// Compiling the kernel module: verify, look the object code up in the cache
// or generate it, link it into a JIT, and wrap the kernels' addresses.
#include "jit/CompiledModel.h"

#include "jit/HostInfo.h"
#include "jit/Jit.h"
#include "jit/KernelModule.h"
#include "jit/ObjectCache.h"
#include "jit/TargetCode.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstring>
#include <sys/stat.h>

namespace mech::jit {

using mechanics::KernelPrograms;

namespace {

class CompiledKernels : public mechanics::Kernels {
public:
  using Fn = int (*)(double, const double *, const double *, double *);
  std::unique_ptr<Jit> jit;
  Fn massMatrix_ = nullptr, forcing_ = nullptr, rhs_ = nullptr, energy_ = nullptr,
     outputs_ = nullptr, momentumForce_ = nullptr, multipliers_ = nullptr, constraints_ = nullptr,
     jacobianParts_ = nullptr;

  int massMatrix(double t, const double *q, const double *p, double *M) override {
    return massMatrix_(t, q, p, M);
  }
  int forcing(double t, const double *x, const double *p, double *f) override {
    return forcing_(t, x, p, f);
  }
  int rhs(double t, const double *x, const double *p, double *xdot) override {
    return rhs_(t, x, p, xdot);
  }
  int energy(double t, const double *x, const double *p, double *TV) override {
    return energy_(t, x, p, TV);
  }
  int outputs(double t, const double *x, const double *p, double *out) override {
    return outputs_(t, x, p, out);
  }
  int momentumForce(double t, const double *x, const double *p, double *out) override {
    return momentumForce_ ? momentumForce_(t, x, p, out) : mechanics::kStatusKernelNotCompiled;
  }
  int multipliers(double t, const double *x, const double *p, double *lambda) override {
    return multipliers_(t, x, p, lambda);
  }
  int constraints(double t, const double *x, const double *p, double *out) override {
    return constraints_(t, x, p, out);
  }
  int jacobianParts(double t, const double *x, const double *p, double *out) override {
    return jacobianParts_ ? jacobianParts_(t, x, p, out) : mechanics::kStatusKernelNotCompiled;
  }
};

std::string irText(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return stream.str();
}

constexpr const char *kSignatureSymbol = "mech_kernel_signature";

void embedSignature(llvm::Module &module, const std::string &signature) {
  auto *text = llvm::ConstantDataArray::getString(module.getContext(), signature, true);
  new llvm::GlobalVariable(module, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text, kSignatureSymbol);
}

// Links object code into `jit` and looks up the kernels, after checking that
// the code carries `signature`: nothing in it runs before that. Null with
// `error` set when it does not link or is not the model's.
std::unique_ptr<CompiledKernels> linkKernels(std::unique_ptr<Jit> jit, const std::string &object,
                                             const std::string &signature,
                                             KernelSelection selection, std::string &error) {
  if (object.empty() || !jit->addObject(object, error))
    return nullptr;
  auto *embedded = static_cast<const char *>(jit->lookup(kSignatureSymbol, error));
  if (embedded == nullptr)
    return nullptr;
  if (std::memcmp(embedded, signature.c_str(), signature.size() + 1) != 0) {
    error = "the object code was compiled for another model (its kernel signature differs)";
    return nullptr;
  }
  auto kernels = std::make_unique<CompiledKernels>();
  auto lookup = [&](const char *name) {
    return reinterpret_cast<CompiledKernels::Fn>(jit->lookup(name, error));
  };
  kernels->massMatrix_ = lookup("mech_mass_matrix");
  kernels->forcing_ = lookup("mech_forcing");
  kernels->rhs_ = lookup("mech_rhs");
  kernels->energy_ = lookup("mech_energy");
  kernels->outputs_ = lookup("mech_outputs");
  kernels->multipliers_ = lookup("mech_multipliers");
  kernels->constraints_ = lookup("mech_constraints");
  if (selection.momentumForce && !(kernels->momentumForce_ = lookup("mech_momentum_force")))
    return nullptr;
  if (selection.jacobian && !(kernels->jacobianParts_ = lookup("mech_jacobian_parts")))
    return nullptr;
  if (!kernels->massMatrix_ || !kernels->forcing_ || !kernels->rhs_ || !kernels->energy_ ||
      !kernels->outputs_ || !kernels->multipliers_ || !kernels->constraints_)
    return nullptr;
  kernels->jit = std::move(jit);
  return kernels;
}

// The kernels from the cache entry under the module's key, or compiled and
// stored there; `report` says which, and what was wrong with a bad entry.
// `key` is set to the entry's key.
std::unique_ptr<CompiledKernels> cachedKernels(std::unique_ptr<Jit> jit, llvm::Module &module,
                                               const ObjectCache &cache,
                                               const std::string &signature,
                                               KernelSelection selection, CacheReport &report,
                                               std::string &key, std::string &error) {
  jit->prepare(module);
  key = sha256Hex(buildIdentity() + "\n" + jit->targetDescription() + "\n" + irText(module));
  CacheEntry entry = cache.load(key, signature);
  if (entry.state == CacheEntry::State::Valid) {
    std::string linkError;
    if (auto kernels = linkKernels(std::move(jit), entry.object, signature, selection, linkError)) {
      report.outcome = "hit";
      return kernels;
    }
    entry.why =
        "'" + cache.entryPath(key) + "' does not load as this model's kernels (" + linkError + ")";
    cache.evict(key);
    // The failed link may have left symbols behind: start from a new JIT.
    if (!(jit = Jit::create(error)))
      return nullptr;
    jit->prepare(module);
  }
  bool replacing = entry.state != CacheEntry::State::Absent;
  report.warning = entry.why;
  std::string object = jit->emitObject(module, error);
  if (object.empty())
    return nullptr;
  std::string storeError;
  if (!cache.store(key, signature, object, storeError)) {
    report.outcome = "miss, not stored";
    report.warning += (report.warning.empty() ? "" : "; ") + storeError;
  } else {
    report.outcome = replacing ? "miss, entry replaced" : "miss";
  }
  return linkKernels(std::move(jit), object, signature, selection, error);
}

// The kernels whose key the index holds under `indexKey`, loaded from the
// cache with its checks, without generating IR; null when there is no
// index entry or its code does not load (then the compilation by IR
// reports and replaces it). `jit` is used when the code links, and is a
// new one after a failed link (which may leave symbols behind).
std::unique_ptr<CompiledKernels> indexedKernels(std::unique_ptr<Jit> &jit, const ObjectCache &index,
                                                const ObjectCache &cache,
                                                const std::string &indexKey,
                                                const std::string &signature,
                                                KernelSelection selection, std::string &error) {
  CacheEntry pointer = index.load(indexKey, signature);
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  if (pointer.state != CacheEntry::State::Valid || pointer.object.size() != 64 ||
      !std::all_of(pointer.object.begin(), pointer.object.end(), hex))
    return nullptr;
  CacheEntry entry = cache.load(pointer.object, signature);
  if (entry.state != CacheEntry::State::Valid)
    return nullptr;
  std::string linkError;
  if (auto kernels = linkKernels(std::move(jit), entry.object, signature, selection, linkError))
    return kernels;
  jit = Jit::create(error);
  return nullptr;
}

// The kernels compiled from the programs' IR: through the cache (found or
// stored under the IR's key, which the index then names under
// `indexKey`), or without it.
std::unique_ptr<CompiledKernels>
kernelsFromIr(std::unique_ptr<Jit> jit, const KernelPrograms &programs,
              const CompileOptions &options, const std::string &signature,
              KernelSelection selection, const std::string &indexKey, CacheReport &report,
              std::string &error) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, selection, options.segmentSize);
  embedSignature(*module, signature);
  if (!verifyModule(*module, error))
    return nullptr;
  if (options.cache == nullptr) {
    std::string object = jit->emitObject(*module, error);
    return linkKernels(std::move(jit), object, signature, selection, error);
  }
  std::string key, storeError;
  auto kernels = cachedKernels(std::move(jit), *module, *options.cache, signature, selection,
                               report, key, error);
  // The index holds only a key: the code it names is checked on load.
  if (kernels && !indexKey.empty())
    options.index->store(indexKey, signature, key, storeError);
  return kernels;
}

void appendNames(std::string &text, const char *label, size_t count,
                 const std::vector<std::string> &names) {
  text += std::string(label) + " " + std::to_string(count) + ":";
  for (const std::string &name : names)
    text += " " + name;
  text += "\n";
}

} // namespace

std::string signatureText(const KernelSignature &signature, const KernelPrograms &programs,
                          KernelSelection selection, std::string &error) {
  auto named = [](const std::vector<std::string> &names, size_t count) {
    return names.empty() || names.size() == count;
  };
  size_t outputs = programs.outputs.outputs().size();
  if (!named(signature.coordinates, programs.coordinates) ||
      !named(signature.params, programs.params) ||
      !named(signature.constraints, programs.constraints) || !named(signature.outputs, outputs)) {
    error = "internal error: the kernel signature's counts are not the equations'";
    return "";
  }
  std::string text = "mech kernels, layout 1\nmodel " + signature.model + "\n";
  appendNames(text, "coordinates", programs.coordinates, signature.coordinates);
  appendNames(text, "params", programs.params, signature.params);
  appendNames(text, "constraints", programs.constraints, signature.constraints);
  appendNames(text, "outputs", outputs, signature.outputs);
  text += std::string("kernels: mass_matrix forcing rhs energy outputs multipliers constraints") +
          (selection.momentumForce ? " momentum_force" : "") +
          (selection.jacobian ? " jacobian_parts" : "") + "\n";
  if (programs.augmentedSolve)
    text += "solve: augmented Lagrangian\n";
  return text;
}

std::unique_ptr<mechanics::Kernels> compileKernels(const KernelPrograms &programs,
                                                   std::string &error,
                                                   const CompileOptions &options,
                                                   CacheReport *report) {
  CacheReport ignored;
  CacheReport &cacheReport = report != nullptr ? *report : ignored;
  cacheReport = CacheReport{};
  KernelSelection selection{options.momentumForce, options.jacobian && programs.hasJacobian};
  std::string signature = signatureText(options.signature, programs, selection, error);
  if (signature.empty())
    return nullptr;
  std::unique_ptr<Jit> jit = Jit::create(error);
  if (!jit)
    return nullptr;
  std::unique_ptr<CompiledKernels> kernels;
  std::string indexKey;
  if (options.cache != nullptr && options.index != nullptr && !options.sourceKey.empty()) {
    indexKey = sha256Hex(buildIdentity() + "\n" + jit->targetDescription() + "\nsources " +
                         options.sourceKey + "\nsegments " + std::to_string(options.segmentSize) +
                         "\n" + signature);
    kernels =
        indexedKernels(jit, *options.index, *options.cache, indexKey, signature, selection, error);
    if (kernels)
      cacheReport.outcome = "hit";
    else if (!jit)
      return nullptr;
  }
  if (!kernels && options.indexOnly) {
    error.clear();
    return nullptr;
  }
  if (!kernels)
    kernels = kernelsFromIr(std::move(jit), programs, options, signature, selection, indexKey,
                            cacheReport, error);
  if (!kernels)
    return nullptr;
  kernels->coordinates = programs.coordinates;
  kernels->constraintCount = programs.constraints;
  kernels->params = programs.params;
  kernels->outputCount = programs.outputs.outputs().size();
  return kernels;
}

size_t estimatedOperations(const KernelPrograms &programs, KernelSelection selection) {
  std::vector<const sym::Program *> compiled = {&programs.dynamics, &programs.energy,
                                                &programs.outputs, &programs.residuals};
  if (selection.momentumForce)
    compiled.push_back(&programs.momentumForce);
  if (selection.jacobian)
    compiled.push_back(&programs.jacobian);
  size_t count = 0;
  for (const sym::Program *program : compiled)
    count += program->instructions().size() + program->outputs().size();
  size_t n = programs.coordinates;
  if (n <= kUnrolledSolveLimit)
    count += n * n * n / 6 + n * n;
  return count;
}

std::string kernelsIr(const KernelPrograms &programs, std::string &error, size_t segmentSize) {
  std::unique_ptr<Jit> jit = Jit::create(error);
  if (!jit)
    return "";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, KernelSelection{true, programs.hasJacobian}, segmentSize);
  if (!verifyModule(*module, error))
    return "";
  jit->optimize(*module);
  std::string text;
  llvm::raw_string_ostream stream(text);
  module->print(stream, nullptr);
  return stream.str();
}

} // namespace mech::jit
