// A sweep over the ranks of an MPI job (driver/SweepOnRanks.h). On every
// rank one thread runs the rank's share through the sweep engine and the
// process's first thread, the only one that calls MPI, passes the rows on:
// the other ranks send them to rank 0, which merges them with its own in
// run order.
#include "driver/SweepOnRanks.h"

#include "driver/Interrupt.h"
#include "driver/SweepRowCodec.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace mech::driver {

namespace {

// Rows passed from the thread that runs this rank's share to the thread
// that talks to the other ranks, at most `capacity` held at a time.
class RowQueue {
public:
  explicit RowQueue(size_t capacity) : capacity_(capacity) {}

  // False when the reader has given up: the share stops.
  bool push(const SweepRow &row) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || rows_.size() < capacity_; });
    if (closed_)
      return false;
    rows_.push_back(row);
    changed_.notify_all();
    return true;
  }

  // False when the share has ended and every row was taken.
  bool pop(SweepRow &row) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return ended_ || !rows_.empty(); });
    if (rows_.empty())
      return false;
    row = std::move(rows_.front());
    rows_.pop_front();
    changed_.notify_all();
    return true;
  }

  void end() { set(ended_); }    // the share has ended
  void close() { set(closed_); } // the reader takes no more rows

private:
  void set(bool &flag) {
    std::lock_guard lock(mutex_);
    flag = true;
    changed_.notify_all();
  }

  size_t capacity_;
  std::deque<SweepRow> rows_;
  bool ended_ = false, closed_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
};

// This rank's share, run on a thread of its own into the queue.
class Share {
public:
  Share(LoadedModel &loaded, const SweepOptions &options, size_t capacity)
      : queue_(capacity), thread_([this, &loaded, &options] {
          auto sink = [this](const SweepRow &row) { return queue_.push(row); };
          report_ = runSweep(loaded, options, sink, nullptr);
          queue_.end();
        }) {}
  ~Share() { join(); }
  Share(const Share &) = delete;
  Share &operator=(const Share &) = delete;

  RowQueue &queue() { return queue_; }
  // Waits for the share to end (after close, at its next row).
  const std::optional<SweepReport> &report() {
    join();
    return report_;
  }

private:
  void join() {
    if (thread_.joinable())
      thread_.join();
  }

  RowQueue queue_;
  std::optional<SweepReport> report_;
  std::thread thread_;
};

bool isLastOfChunk(size_t run, size_t runs, size_t chunk) {
  return run + 1 == runs || (run + 1) % chunk == 0;
}

// A rank other than 0: its rows to rank 0, a chunk per message, then the
// end of its rows.
std::optional<SweepReport> sendShare(Share &share, MpiLink &link, size_t runs, size_t chunk) {
  RowMessage message;
  SweepRow row;
  bool sent = true;
  while (sent && share.queue().pop(row)) {
    bool last = isLastOfChunk(row.run, runs, chunk);
    message.rows.push_back(std::move(row));
    if (last) {
      sent = link.send(encodeRowMessage(message), 0);
      message.rows.clear();
    }
  }
  share.queue().close();
  if (sent && link.send(encodeRowMessage(RowMessage{true, {}}), 0))
    link.markSettled();
  return share.report();
}

// What rank 0 knows of the rows of the other ranks: those received and
// not yet due, and which ranks have ended.
class RemoteRows {
public:
  RemoteRows(MpiLink &link) : link_(link), rows_(link.size()), ended_(link.size(), false) {}

  // The next row of `rank`; false when it has ended (or its message was
  // not a message of rows), with `failure` set in the second case.
  bool next(size_t rank, SweepRow &row, std::string &failure) {
    while (rows_[rank].empty() && !ended_[rank])
      receive(rank, failure);
    if (rows_[rank].empty())
      return false;
    row = std::move(rows_[rank].front());
    rows_[rank].pop_front();
    return true;
  }

  // Takes every rank's remaining messages up to its end.
  void drain(std::string &failure) {
    for (size_t rank = 1; rank < rows_.size(); ++rank)
      while (!ended_[rank])
        receive(rank, failure);
  }

private:
  void receive(size_t rank, std::string &failure) {
    std::string bytes;
    RowMessage message;
    if (!link_.receive(rank, bytes) || !decodeRowMessage(bytes, message)) {
      failure = "rank " + std::to_string(rank) + " sent no rows rank 0 could read";
      ended_[rank] = true;
      return;
    }
    ended_[rank] = message.end;
    for (SweepRow &row : message.rows)
      rows_[rank].push_back(std::move(row));
  }

  MpiLink &link_;
  std::vector<std::deque<SweepRow>> rows_;
  std::vector<bool> ended_;
};

// Rank 0: every row, its own and the others', to the sink in run order.
std::optional<SweepReport> mergeShares(Share &share, LoadedModel &loaded, MpiLink &link,
                                       const SweepOptions &options, const SweepSink &sink,
                                       const SweepProgress &progress) {
  auto start = std::chrono::steady_clock::now();
  SweepReport report;
  report.runs = options.plan.runs();
  report.ranks = link.size();
  RemoteRows remote(link);
  std::string failure;
  bool sinkFailed = false;
  SweepRow row;
  for (size_t run = 0; run < report.runs; ++run) {
    size_t owner = options.share.owner(run);
    bool got = owner == 0 ? share.queue().pop(row) : remote.next(owner, row, failure);
    if (!got || row.run != run) {
      if (got && failure.empty())
        failure = "rank " + std::to_string(owner) + " sent run " + std::to_string(row.run) +
                  " where run " + std::to_string(run) + " was due";
      break;
    }
    if (!sink(row)) {
      sinkFailed = true;
      break;
    }
    ++report.written;
    report.ok += row.status == "ok";
    report.stopped += row.status == "stopped";
    report.failed += row.status == "failed";
    if (progress)
      progress(report.written, report.runs);
  }
  share.queue().close();
  const std::optional<SweepReport> &own = share.report();
  // Every rank checked the same model with the same options: when this
  // rank's share could not start, neither could the others'.
  if (!own || report.written == report.runs) {
    remote.drain(failure);
    if (failure.empty())
      link.markSettled();
  }
  if (!failure.empty())
    loaded.diagnostics().error({}, "the MPI job failed: " + failure);
  if (!own || !failure.empty())
    return std::nullopt;
  report.interrupted = !sinkFailed && report.written < report.runs;
  report.threads = own->threads;
  report.backendNote = own->backendNote;
  report.threadNote = own->threadNote;
  report.compileSeconds = own->compileSeconds;
  report.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

} // namespace

size_t sweepChunk(size_t runs, size_t ranks) {
  // Small enough that every rank gets many chunks (the runs of a region of
  // a grid can cost more than others), large enough for few messages.
  return std::clamp<size_t>(runs / (ranks * 16), 1, 64);
}

std::optional<SweepReport> runSweepOnRanks(LoadedModel &loaded, SweepOptions options, MpiLink &link,
                                           const SweepSink &sink, const SweepProgress &progress) {
  size_t runs = options.plan.runs();
  options.share = {link.rank(), link.size(), sweepChunk(runs, link.size())};
  // By default the ranks on a machine share its cores.
  if (options.threads == 0)
    options.threads = static_cast<unsigned>(
        std::max<size_t>(1, std::thread::hardware_concurrency() / mpiLaunch().onThisMachine));
  size_t threads = options.threads;
  // Room for the rows rank 0 is not yet ready for, as the engine's window.
  std::optional<Share> share;
  try {
    share.emplace(loaded, options, std::max<size_t>(options.share.chunk, 64 * threads));
  } catch (const std::system_error &error) {
    // No thread for the share (a process or memory limit): the job ends.
    loaded.diagnostics().error({}, std::string("sweep: cannot start a thread: ") + error.what());
    return std::nullopt;
  }
  if (link.rank() != 0)
    return sendShare(*share, link, runs, options.share.chunk);
  return mergeShares(*share, loaded, link, options, sink, progress);
}

} // namespace mech::driver
