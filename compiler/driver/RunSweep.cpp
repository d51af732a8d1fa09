// `mech sweep`: the options, the checks before anything is written, the
// result file (CSV, or JSON for a name ending in .json) written row by row
// as the runs complete in order, progress on stderr, and Ctrl-C, which
// stops the sweep and keeps the rows done.
#include "driver/Commands.h"

#include "driver/Interrupt.h"
#include "driver/MpiLink.h"
#include "driver/PlotFile.h"
#include "driver/Session.h"
#include "driver/Sweep.h"
#include "driver/SweepOnRanks.h"
#include "driver/SweepPlot.h"
#include "support/Json.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"

#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ostream>
#include <unistd.h>

namespace mech::driver {

namespace {

// The exit status of a sweep stopped by Ctrl-C, as a shell reports SIGINT.
constexpr int kExitInterrupted = 130;

// SIGINT (Ctrl-C), SIGTERM (which mpirun sends its ranks when it is
// interrupted) and SIGHUP (a closed terminal, a dropped ssh connection)
// ask the sweep to stop (driver/Interrupt.h) while this lives, so that the
// rows done are kept. A SIGHUP that was ignored (nohup) stays ignored.
class InterruptOnSignals {
public:
  InterruptOnSignals() {
    clearInterrupt();
    struct sigaction action {};
    action.sa_handler = [](int) { requestInterrupt(); };
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) {
      sigaction(kSignals[i], nullptr, &previous_[i]);
      if (kSignals[i] != SIGHUP || previous_[i].sa_handler != SIG_IGN)
        sigaction(kSignals[i], &action, nullptr);
    }
  }
  ~InterruptOnSignals() {
    for (size_t i = 0; i < kSignals.size(); ++i)
      sigaction(kSignals[i], &previous_[i], nullptr);
  }
  InterruptOnSignals(const InterruptOnSignals &) = delete;
  InterruptOnSignals &operator=(const InterruptOnSignals &) = delete;

private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
};

// The result's columns: the swept names, the summaries, then the status
// (unless a summary is it) and the message of a run that did not finish.
std::vector<std::string> resultColumns(const SweepOptions &options, bool &statusAsked) {
  std::vector<std::string> columns = options.plan.columnNames();
  statusAsked = false;
  for (const SummarySpec &summary : options.summaries) {
    columns.push_back(summary.name);
    statusAsked = statusAsked || summary.reducer == SummarySpec::Reducer::Status;
  }
  if (!statusAsked)
    columns.push_back("status");
  columns.push_back("message");
  return columns;
}

// Writes the rows as CSV or as one JSON object {"columns": [...], "rows":
// [[...], ...]}, row by row.
class ResultWriter {
public:
  ResultWriter(std::ostream &out, bool json, const SweepOptions &options)
      : out_(out), json_(json), options_(options) {
    std::vector<std::string> columns = resultColumns(options, statusAsked_);
    if (json_) {
      JsonWriter header;
      header.beginArray();
      for (const std::string &name : columns)
        header.value(name);
      header.endArray();
      out_ << "{\"columns\": " << header.str() << ",\n \"rows\": [";
      return;
    }
    for (size_t i = 0; i < columns.size(); ++i)
      out_ << (i ? "," : "") << csvField(columns[i]);
    out_ << "\n";
  }

  bool row(const SweepRow &row) {
    // One field at a time in the file's format: CSV fields, or a JSON array.
    JsonWriter json;
    json.beginArray();
    size_t fields = 0;
    auto csv = [&](const std::string &field) { out_ << (fields++ ? "," : "") << field; };
    auto number = [&](double v) {
      if (json_)
        json.value(v);
      else
        csv(std::isnan(v) ? "" : shortestNumber(v));
    };
    auto text = [&](const std::string &v) {
      if (json_)
        json.value(v);
      else
        csv(csvField(v));
    };
    if (json_)
      out_ << (rows_++ ? ",\n  " : "\n  ");
    for (double v : row.swept)
      number(v);
    for (size_t i = 0; i < options_.summaries.size(); ++i)
      if (options_.summaries[i].reducer == SummarySpec::Reducer::Status)
        text(row.status);
      else
        number(row.summaries[i]);
    if (!statusAsked_)
      text(row.status);
    text(row.message);
    if (json_)
      out_ << json.endArray().str();
    else
      out_ << "\n";
    return static_cast<bool>(out_);
  }

  void finish() {
    if (json_)
      out_ << "\n ]}\n";
    out_.flush();
  }

private:
  std::ostream &out_;
  bool json_;
  const SweepOptions &options_;
  bool statusAsked_ = false;
  size_t rows_ = 0;
};

std::string duration(double seconds) {
  if (seconds < 60)
    return formatNumber(seconds, 2) + " s";
  long s = std::lround(seconds);
  return std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
}

// Progress on stderr: a bar redrawn in place on a terminal, else a line
// every ten seconds; nothing for a sweep over within two seconds.
SweepProgress progressReporter(std::ostream &err) {
  using Clock = std::chrono::steady_clock;
  const bool terminal = isatty(STDERR_FILENO) == 1;
  auto start = Clock::now();
  auto last = start;
  return [=, &err](size_t done, size_t runs) mutable {
    auto now = Clock::now();
    double elapsed = std::chrono::duration<double>(now - start).count();
    double sinceLast = std::chrono::duration<double>(now - last).count();
    if (elapsed < 2 || (done < runs && sinceLast < (terminal ? 0.2 : 10)))
      return;
    last = now;
    double rate = done / elapsed;
    std::string eta = done < runs ? ", about " + duration((runs - done) / rate) + " left" : "";
    std::string text = std::to_string(done) + "/" + std::to_string(runs) + " runs, " +
                       formatNumber(rate, 3) + " runs/s" + eta;
    if (terminal) {
      int width = 30, filled = static_cast<int>(width * double(done) / double(runs));
      err << "\rsweep [" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
          << text << "\033[K" << (done == runs ? "\n" : "") << std::flush;
    } else {
      err << "sweep: " << text << "\n" << std::flush;
    }
  };
}

// --plot needs a grid of one or two names and a numeric summary.
std::optional<int> checkPlot(const SweepOptions &options, const std::string &path,
                             const CommandIo &io) {
  if (path.empty())
    return std::nullopt;
  if (!options.plan.random.empty() || options.plan.grid.empty() || options.plan.grid.size() > 2)
    return io.usageError("sweep: --plot draws a --grid of one or two names (without --random)");
  if (plottedSummaries(options).empty())
    return io.usageError("sweep: --plot needs a summary with numbers (not only status)");
  return std::nullopt;
}

std::optional<int> readSweepOptions(const CommandLine &line, const CommandIo &io,
                                    SweepOptions &options) {
  if (auto status = simulationOptions(line, io, options.simulation))
    return status;
  // Runs keep their constraints by projection: the DAE form needs a start
  // with multipliers, which each run would have to solve for.
  options.simulation.constraintForm = ConstraintForm::Projection;
  long threads = line.count("--threads", 0);
  if (threads > long(kMaxSweepThreads))
    return io.usageError("sweep: --threads takes at most " + std::to_string(kMaxSweepThreads) +
                         ", got '" + line.value("--threads") + "'");
  options.threads = static_cast<unsigned>(threads);
  double seed = line.number("--seed", 0);
  if (!(seed >= 0) || seed != std::floor(seed) || seed > 1.8e19)
    return io.usageError("sweep: --seed takes a whole number >= 0, got '" + line.value("--seed") +
                         "'");
  options.plan.seed = static_cast<uint64_t>(seed);
  if (!line.has("--summary"))
    return io.usageError("sweep: --summary is required: what each run is reduced to");
  return std::nullopt;
}

// A param a sweep sets whose value the model's init read (`init r = l`):
// the sweep does not evaluate the init again per run, so that is an error
// unless every coordinate it moves is swept or given by --init.
std::optional<int> checkInitDependence(Session &session, const SweepOptions &options) {
  LoadedModel &loaded = session.loaded();
  const std::vector<double> base = loaded.model().initialState();
  const size_t n = base.size() / 2;
  // What the runs set themselves: the swept coordinates and --init's.
  GivenValues given;
  if (!parseState(loaded, options.simulation.start.init, &given, "--init"))
    return kExitModelError;
  std::vector<bool> fixed(base.size(), false);
  for (size_t i = 0; i < n; ++i) {
    fixed[i] = i < given.positions.size() && given.positions[i];
    fixed[n + i] = i < given.velocities.size() && given.velocities[i];
  }
  for (const SweepTarget &target : options.plan.targets())
    if (target.kind != SweepTarget::Kind::Param)
      fixed[target.index + (target.kind == SweepTarget::Kind::Velocity ? n : 0)] = true;
  for (const SweepTarget &target : options.plan.targets()) {
    if (target.kind != SweepTarget::Kind::Param)
      continue;
    const sema::Param &param = loaded.model().params[target.index];
    std::unique_ptr<Session> moved =
        session.withSettings({param.name + "=" + shortestNumber(param.value * 1.618 + 0.577)});
    if (!moved->checked())
      continue; // another value fails to check: the runs will say so
    std::vector<double> other = moved->loaded().model().initialState();
    for (size_t i = 0; i < base.size() && i < other.size(); ++i) {
      if (fixed[i] || other[i] == base[i])
        continue;
      std::string what = loaded.model().coords[i % n].name + (i >= n ? "'" : "");
      loaded.diagnostics().error(
          {}, "the model's init of " + what + " depends on param '" + param.name +
                  "', and a sweep does not evaluate the init again per run: sweep " + what +
                  " as well, or give it with --init");
      return kExitModelError;
    }
  }
  return std::nullopt;
}

// How the runs went, on stderr.
void printReport(const SweepReport &report, std::ostream &err) {
  if (!report.backendNote.empty())
    err << "note: " << report.backendNote << "\n";
  if (!report.threadNote.empty())
    err << "note: " << report.threadNote << "\n";
  std::string threads =
      std::to_string(report.threads) + (report.threads == 1 ? " thread" : " threads");
  err << "sweep: " << report.written << " of " << report.runs << " runs on "
      << (report.ranks > 1 ? std::to_string(report.ranks) + " ranks of " + threads : threads)
      << " in " << duration(report.runSeconds) << " (compile " << duration(report.compileSeconds)
      << "): " << report.ok << " ok, " << report.stopped << " stopped, " << report.failed
      << " failed\n";
}

// The sweep, on one process or (with a started link) on the ranks of an
// MPI job, of which only rank 0 (`writes`) writes. `ran` tells whether it
// got past the checks that every rank makes alike.
int sweep(const CommandLine &line, Session &session, const CommandIo &io, MpiLink *link,
          bool writes, bool &ran) {
  ran = false;
  SweepOptions options;
  std::string output = line.value("-o"), plotPath = line.value("--plot");
  std::optional<int> status = prepareSweep(line, session, io, options);
  if (!status)
    status = checkPlot(options, plotPath, io);
  std::string error;
  if (!status && !plotPath.empty() && !(error = plotFileProblem(plotPath)).empty()) {
    session.diagnostics().error({}, error);
    status = kExitModelError;
  }
  if (status) {
    session.printDiagnostics(io.err);
    return *status;
  }
  LoadedModel &loaded = session.loaded();
  ran = true;
  if (!writes)
    output.clear(), plotPath.clear();
  OutputFile file(output);
  if (!output.empty() && !file.open(error)) {
    return io.error(error);
  }
  ResultWriter writer(output.empty() ? io.out : file.stream(),
                      output.size() > 5 && output.substr(output.size() - 5) == ".json", options);
  InterruptOnSignals interrupts;
  SweepPlot plot(options, loaded.model().name);
  auto sink = [&](const SweepRow &row) {
    if (!plotPath.empty())
      plot.add(row);
    return writer.row(row);
  };
  std::optional<SweepReport> report;
  if (link == nullptr)
    report = runSweep(loaded, options, sink, progressReporter(io.err));
  else
    report = runSweepOnRanks(loaded, options, *link, sink, progressReporter(io.err));
  session.printDiagnostics(io.err);
  if (!report)
    return kExitModelError;
  // Stopped before its first row: a file that was there stays as it was.
  if (report->interrupted && report->written == 0 && !output.empty()) {
    file.discard();
    printReport(*report, io.err);
    io.err << "sweep: interrupted before any run was done; '" << output << "' is not written\n";
    return kExitInterrupted;
  }
  writer.finish();
  bool written = output.empty() || file.commit(error);
  printReport(*report, io.err);
  if (!written) {
    return io.error(error);
  }
  if (!plotPath.empty() && !writePlotFile(plotPath, plot.svg(), error)) {
    return io.error(error);
  }
  if (report->interrupted) {
    io.err << "sweep: interrupted; the " << report->written << " rows done are kept\n";
    return kExitInterrupted;
  }
  return kExitOk;
}

} // namespace

std::optional<int> prepareSweep(const CommandLine &line, Session &session, const CommandIo &io,
                                SweepOptions &options) {
  if (auto status = readSweepOptions(line, io, options))
    return status;
  std::vector<sema::Addition> additions = session.additions();
  if (auto status = parseSummaries(line.value("--summary"), options.summaries, additions, io))
    return status;
  if (line.has("--stop-when"))
    additions.push_back(sema::Addition::stopWhen(line.value("--stop-when")));
  session.setAdditions(std::move(additions));
  session.useDerivationCache(options.simulation.useCache);
  if (!session.derive())
    return kExitModelError;
  LoadedModel &loaded = session.loaded();
  std::optional<int> status = parseSweepPlan(loaded, line.value("--grid"), line.value("--random"),
                                             options.plan.seed, options.plan, io);
  if (!status)
    status = checkSummaryNames(options.summaries, options.plan.columnNames(), io);
  if (!status)
    status = checkInitDependence(session, options);
  if (!status && !checkSweep(loaded, options))
    status = kExitModelError;
  return status;
}

namespace {

// An ostream that drops what it is given: the output of ranks other than 0.
class Discard : public std::streambuf {
protected:
  int overflow(int c) override { return c; }
};

} // namespace

int runSweep(const CommandLine &line, Session &session, const CommandIo &io) {
  const MpiLaunch launch = mpiLaunch();
  bool ran = false;
  if (launch.size == 1)
    return sweep(line, session, io, nullptr, true, ran);
  std::string error;
  std::unique_ptr<MpiLink> link = MpiLink::load(error);
  if (!link) {
    if (launch.rank == 0)
      io.err << "mech: error: sweep: started as one of " << launch.size
             << " processes of an MPI job, but " << error
             << "; each process would run the whole sweep\n";
    return kExitModelError;
  }
  // MPI's own count, before anything is checked or written: the launcher's
  // variables can be stale (a process started by a rank of a job inherits
  // them), and a rank that is none would write nothing and say nothing.
  if (!link->start(error)) {
    io.err << "mech: error: sweep: started as rank " << launch.rank << " of " << launch.size
           << " of an MPI job, but " << error << "\n";
    return kExitModelError;
  }
  if (link->size() != launch.size || link->rank() != launch.rank) {
    std::string named = "the environment names this process rank " + std::to_string(launch.rank) +
                        " of an MPI job of " + std::to_string(launch.size) + ", but MPI ";
    link->finish();
    if (link->size() != 1) {
      io.err << "mech: error: sweep: " << named << "reports rank " << link->rank() << " of "
             << link->size() << "\n";
      return kExitModelError;
    }
    io.err << "note: " << named
           << "finds no such job (a world of one process): the sweep runs as one process\n";
    return sweep(line, session, io, nullptr, true, ran);
  }
  Discard discard;
  std::ostream quiet(&discard);
  CommandIo rankIo{launch.rank == 0 ? io.out : quiet, launch.rank == 0 ? io.err : quiet,
                   io.helpHint};
  int status = sweep(line, session, rankIo, link.get(), launch.rank == 0, ran);
  // Every rank stopped at the same check: none is waiting on another.
  if (!ran) {
    link->finish();
    return status;
  }
  // Rank 0 stopped before every row (Ctrl-C, a write error) or a message
  // failed: the ranks still waiting to send are ended with the job.
  if (!link->settled())
    link->abort(status == kExitOk ? kExitModelError : status);
  link->finish();
  return status;
}

} // namespace mech::driver
