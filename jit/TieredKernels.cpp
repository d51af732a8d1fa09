// The compile thread of tiered execution and the hand-over to its result.
#include "jit/TieredKernels.h"

#include <thread>

namespace mech::jit {

namespace {

std::atomic<int> gRunning = 0;

} // namespace

int backgroundCompilesRunning() {
  return gRunning.load();
}

// The compile's result, published once: `ready` is set (release) after
// `result` is written, and read (acquire) before it is.
struct TieredKernels::Shared {
  std::atomic<bool> ready = false;
  BackgroundResult result;
};

TieredKernels::TieredKernels(std::unique_ptr<mechanics::Kernels> interpreter, Compile compile)
    : interpreter_(std::move(interpreter)), shared_(std::make_shared<Shared>()),
      start_(std::chrono::steady_clock::now()) {
  coordinates = interpreter_->coordinates;
  params = interpreter_->params;
  outputCount = interpreter_->outputCount;
  constraintCount = interpreter_->constraintCount;
  hasReactions = interpreter_->hasReactions;
  ++gRunning;
  // Detached: it holds its own inputs and the shared result, so neither
  // these kernels nor the model need to outlive it.
  std::thread([shared = shared_, compile = std::move(compile)]() mutable {
    {
      // Moved in, so that the compile's inputs (and the result, when the
      // kernels are gone) are released before the count drops.
      std::shared_ptr<Shared> mine = std::move(shared);
      Compile job = std::move(compile);
      BackgroundResult result;
      try {
        result = job();
      } catch (const std::exception &error) {
        result.error = error.what();
      }
      mine->result = std::move(result);
      mine->ready.store(true, std::memory_order_release);
    }
    --gRunning;
  }).detach();
}

TieredKernels::~TieredKernels() = default;

mechanics::Kernels *TieredKernels::takeOver(double t) {
  if (!shared_->ready.load(std::memory_order_acquire) || !shared_->result.kernels)
    return nullptr;
  native_ = shared_->result.kernels.get();
  switch_ =
      Switch{t, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
  return native_;
}

std::optional<TieredKernels::Switch> TieredKernels::switched() const {
  return switch_;
}

std::optional<BackgroundResult> TieredKernels::outcome() const {
  if (!shared_->ready.load(std::memory_order_acquire))
    return std::nullopt;
  return BackgroundResult{nullptr, shared_->result.error, shared_->result.cache};
}

} // namespace mech::jit
