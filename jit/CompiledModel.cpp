// Compiling the kernel module: verify, look the object code up in the cache
// or generate it, link it into a JIT, and wrap the kernels' addresses.
#include "jit/CompiledModel.h"

#include "jit/Jit.h"
#include "jit/KernelModule.h"
#include "jit/ObjectCache.h"
#include "jit/TargetCode.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/stat.h>

namespace mech::jit {

using mechanics::KernelPrograms;

namespace {

class CompiledKernels : public mechanics::Kernels {
public:
  using Fn = int (*)(double, const double *, const double *, double *);
  std::unique_ptr<Jit> jit;
  Fn massMatrix_ = nullptr, forcing_ = nullptr, rhs_ = nullptr, energy_ = nullptr,
     outputs_ = nullptr, momentumForce_ = nullptr, multipliers_ = nullptr, constraints_ = nullptr;

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
};

// This build of mech: its version and the size and time of its executable,
// so that a rebuilt code generator never reuses another build's objects.
std::string buildIdentity() {
  std::string identity = "mech " MECH_VERSION;
  struct stat info;
  if (stat("/proc/self/exe", &info) == 0)
    identity += "; " + std::to_string(info.st_size) + " bytes; modified " +
                std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
  return identity;
}

std::string irText(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return stream.str();
}

// Object code for the module, from the cache when it holds it.
std::string objectCode(Jit &jit, llvm::Module &module, const ObjectCache *cache, bool &hit,
                       std::string &error) {
  hit = false;
  std::string key;
  if (cache != nullptr) {
    jit.prepare(module);
    key = sha256Hex(buildIdentity() + "\n" + jit.targetDescription() + "\n" + irText(module));
    if (std::optional<std::string> object = cache->load(key)) {
      hit = true;
      return *object;
    }
  }
  std::string object = jit.emitObject(module, error);
  if (cache != nullptr && !object.empty())
    cache->store(key, object);
  return object;
}

} // namespace

std::unique_ptr<mechanics::Kernels> compileKernels(const KernelPrograms &programs,
                                                   std::string &error,
                                                   const CompileOptions &options, bool *cacheHit) {
  auto kernels = std::make_unique<CompiledKernels>();
  kernels->jit = Jit::create(error);
  if (!kernels->jit)
    return nullptr;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, KernelSelection{options.momentumForce});
  if (!verifyModule(*module, error))
    return nullptr;
  bool hit = false;
  std::string object = objectCode(*kernels->jit, *module, options.cache, hit, error);
  if (cacheHit != nullptr)
    *cacheHit = hit;
  if (object.empty() || !kernels->jit->addObject(object, error))
    return nullptr;
  auto lookup = [&](const char *name) {
    return reinterpret_cast<CompiledKernels::Fn>(kernels->jit->lookup(name, error));
  };
  kernels->massMatrix_ = lookup("mech_mass_matrix");
  kernels->forcing_ = lookup("mech_forcing");
  kernels->rhs_ = lookup("mech_rhs");
  kernels->energy_ = lookup("mech_energy");
  kernels->outputs_ = lookup("mech_outputs");
  kernels->multipliers_ = lookup("mech_multipliers");
  kernels->constraints_ = lookup("mech_constraints");
  if (options.momentumForce && !(kernels->momentumForce_ = lookup("mech_momentum_force")))
    return nullptr;
  if (!kernels->massMatrix_ || !kernels->forcing_ || !kernels->rhs_ || !kernels->energy_ ||
      !kernels->outputs_ || !kernels->multipliers_ || !kernels->constraints_)
    return nullptr;
  kernels->coordinates = programs.coordinates;
  kernels->constraintCount = programs.constraints;
  kernels->params = programs.params;
  kernels->outputCount = programs.outputs.outputs().size();
  return kernels;
}

std::string kernelsIr(const KernelPrograms &programs, std::string &error) {
  std::unique_ptr<Jit> jit = Jit::create(error);
  if (!jit)
    return "";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, KernelSelection{/*momentumForce=*/true});
  if (!verifyModule(*module, error))
    return "";
  jit->optimize(*module);
  std::string text;
  llvm::raw_string_ostream stream(text);
  module->print(stream, nullptr);
  return stream.str();
}

} // namespace mech::jit
