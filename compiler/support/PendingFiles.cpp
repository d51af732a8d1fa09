// The list is a fixed array of slots, so that the signal handler reads it
// without locks or allocation (only async-signal-safe calls: unlink,
// sigaction, raise).
#include "support/PendingFiles.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <limits.h>
#include <unistd.h>

namespace mech {

namespace {

enum SlotState : int { kFree, kFilling, kListed };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

constexpr int kSlots = 64;
Slot slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

void removeAndDie(int number) {
  for (Slot &slot : slots)
    if (slot.state.load() == kListed)
      unlink(slot.path);
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(number, &action, nullptr);
  raise(number); // delivered on return: the process ends as the signal says
}

} // namespace

int listPendingFile(const char *path) {
  if (std::strlen(path) >= PATH_MAX)
    return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kFilling))
      continue;
    std::strcpy(slots[i].path, path);
    slots[i].state.store(kListed);
    return i;
  }
  return -1;
}

void unlistPendingFile(int slot) {
  if (slot >= 0 && slot < kSlots)
    slots[slot].state.store(kFree);
}

void removePendingFilesOnSignals() {
  for (int number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (sigaction(number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL)
      continue; // ignored (nohup) or handled: left as it is
    struct sigaction action {};
    action.sa_handler = removeAndDie;
    sigemptyset(&action.sa_mask);
    sigaction(number, &action, nullptr);
  }
}

} // namespace mech
