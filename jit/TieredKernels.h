// Tiered execution: kernels that start on the interpreter at once and
// switch to native code when a compile running on another thread finishes.
// The two back ends give the same bits (jit/Emitter.h; BackendTest), so the
// switch, at whichever call it falls, changes no result. The compile owns
// everything it reads, so a run may end, and its model go, before it does:
// the kernels then let the compile finish on its own and the process may
// exit without waiting for it (backgroundCompilesRunning).
#pragma once

#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mech::jit {

// The compiled kernels, or null with the reason; and what the cache did.
struct BackgroundResult {
  std::unique_ptr<mechanics::Kernels> kernels;
  std::string error;
  CacheReport cache;
};

class TieredKernels final : public mechanics::Kernels {
public:
  using Compile = std::function<BackgroundResult()>;
  // Starts `compile` on a thread of its own; `interpreter` runs until it
  // has finished.
  TieredKernels(std::unique_ptr<mechanics::Kernels> interpreter, Compile compile);
  ~TieredKernels() override;
  TieredKernels(const TieredKernels &) = delete;
  TieredKernels &operator=(const TieredKernels &) = delete;

  int massMatrix(double t, const double *q, const double *p, double *M) override {
    return active(t).massMatrix(t, q, p, M);
  }
  int forcing(double t, const double *x, const double *p, double *f) override {
    return active(t).forcing(t, x, p, f);
  }
  int rhs(double t, const double *x, const double *p, double *xdot) override {
    return active(t).rhs(t, x, p, xdot);
  }
  int energy(double t, const double *x, const double *p, double *TV) override {
    return active(t).energy(t, x, p, TV);
  }
  int outputs(double t, const double *x, const double *p, double *out) override {
    return active(t).outputs(t, x, p, out);
  }
  int momentumForce(double t, const double *x, const double *p, double *out) override {
    return active(t).momentumForce(t, x, p, out);
  }
  int multipliers(double t, const double *x, const double *p, double *lambda) override {
    return active(t).multipliers(t, x, p, lambda);
  }
  int constraints(double t, const double *x, const double *p, double *out) override {
    return active(t).constraints(t, x, p, out);
  }
  int jacobianParts(double t, const double *x, const double *p, double *out) override {
    return active(t).jacobianParts(t, x, p, out);
  }

  // When native code took over: the t of its first call and the seconds
  // from the construction; nullopt while the interpreter runs.
  struct Switch {
    double t;
    double seconds;
  };
  std::optional<Switch> switched() const;
  // After the compile: whether it failed and why, and what the cache did
  // (nullopt while it runs).
  std::optional<BackgroundResult> outcome() const;

private:
  struct Shared; // what the compile thread and the kernels both hold
  mechanics::Kernels &active(double t) {
    if (native_ != nullptr)
      return *native_;
    if (mechanics::Kernels *ready = takeOver(t))
      return *ready;
    return *interpreter_;
  }
  mechanics::Kernels *takeOver(double t);

  std::unique_ptr<mechanics::Kernels> interpreter_;
  std::shared_ptr<Shared> shared_;
  mechanics::Kernels *native_ = nullptr; // once taken over
  std::optional<Switch> switch_;
  std::chrono::steady_clock::time_point start_;
};

// How many compiles started by TieredKernels are still running: a process
// that exits while one is must leave by std::_Exit (LLVM's static state
// may not be destroyed under a running compile).
int backgroundCompilesRunning();

} // namespace mech::jit
