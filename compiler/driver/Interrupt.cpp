// A lock-free atomic, so that the signal handler may set it.
#include "driver/Interrupt.h"

#include <atomic>

namespace mech::driver {

namespace {
std::atomic<bool> requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);
} // namespace

void requestInterrupt() {
  requested.store(true, std::memory_order_relaxed);
}
bool interruptRequested() {
  return requested.load(std::memory_order_relaxed);
}
void clearInterrupt() {
  requested.store(false, std::memory_order_relaxed);
}

} // namespace mech::driver
