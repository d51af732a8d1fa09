// A sweep split over the ranks of an MPI job: every rank runs its share of
// the runs (chunks dealt in turn, driver/Sweep.h's RunShare) on its own
// threads; the other ranks send their rows to rank 0 chunk by chunk, and
// rank 0 hands every row to the sink in run order, so that its file is the
// one a single process would write. A rank sends a chunk only when rank 0
// is ready for it, so the rows held stay bounded, as in one process.
#pragma once

#include "driver/MpiLink.h"
#include "driver/Sweep.h"

namespace mech::driver {

// The chunk of runs dealt to one rank at a time.
size_t sweepChunk(size_t runs, size_t ranks);

// Runs this rank's share. On rank 0, the sink receives every row and the
// report counts the whole sweep; on the others the sink is not called. The
// link has started. Nullopt when the sweep could not start (errors in the
// diagnostics, the same on every rank) or the ranks' messages failed.
std::optional<SweepReport> runSweepOnRanks(LoadedModel &loaded, SweepOptions options, MpiLink &link,
                                           const SweepSink &sink, const SweepProgress &progress);

} // namespace mech::driver
