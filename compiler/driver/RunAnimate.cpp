// `mech animate`: a simulation drawn as the mechanism moving, in one HTML
// page (driver/Scene for what is drawn, driver/AnimationPage for the page).
// The run is simulate's, with its options and checks; the page holds at
// most kMaxFrames samples (evenly taken from longer runs, and it says so).
#include "driver/AnimationPage.h"
#include "driver/ColumnUnits.h"
#include "driver/Commands.h"
#include "driver/NumberPair.h"
#include "driver/Scene.h"
#include "driver/Session.h"
#include "driver/Simulation.h"
#include "driver/StateProgram.h"
#include "support/ListItems.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>

namespace mech::driver {

namespace {

constexpr size_t kMaxFrames = 20000;

// The samples the page holds, thinned while the run goes: every stride-th
// sample (the stride doubling whenever more than kMaxFrames would be kept),
// and the run's last one, so that memory stays bounded however long the
// run.
class KeptSamples : public SampleSink {
public:
  void columns(const std::vector<std::string> &names) override { names_ = names; }
  void row(double t, const std::vector<double> &values) override {
    if (received_++ % stride_ != 0) {
      lastT_ = t;
      last_ = values;
      return;
    }
    t_.push_back(t);
    rows_.push_back(values);
    if (t_.size() > kMaxFrames)
      halve();
  }
  // The last sample, when the stride passed over it.
  void flush() override {
    if (!flushed_ && received_ > 0 && (received_ - 1) % stride_ != 0) {
      t_.push_back(lastT_);
      rows_.push_back(std::move(last_));
    }
    flushed_ = true;
  }
  const std::vector<std::string> &names() const { return names_; }
  const std::vector<double> &t() const { return t_; }
  const std::vector<std::vector<double>> &rows() const { return rows_; }
  size_t stride() const { return stride_; }
  // How many samples the run gave.
  size_t received() const { return received_; }

private:
  // Keeps every other sample (the first among them), doubling the stride.
  void halve() {
    size_t kept = 0;
    for (size_t i = 0; i < t_.size(); i += 2, ++kept)
      if (kept != i) { // a vector moved onto itself would be emptied
        t_[kept] = t_[i];
        rows_[kept] = std::move(rows_[i]);
      }
    t_.resize(kept);
    rows_.resize(kept);
    stride_ *= 2;
  }

  std::vector<std::string> names_;
  std::vector<double> t_;
  std::vector<std::vector<double>> rows_;
  size_t stride_ = 1, received_ = 0;
  bool flushed_ = false;
  double lastT_ = 0;
  std::vector<double> last_;
};

bool isHtmlPath(const std::string &path) {
  auto endsWith = [&](const char *suffix) {
    std::string s = suffix;
    return path.size() > s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  return endsWith(".html") || endsWith(".htm");
}

// "yaw,pitch" in degrees, the pitch within -90..90.
std::optional<std::pair<double, double>> viewAngles(const std::string &text) {
  auto view = numberPair(text, ",");
  if (!view || !(std::abs(view->second) <= 90))
    return std::nullopt;
  return view;
}

// T + V at each kept sample, from the derived equations.
AnimationPlot energyPlot(const LoadedModel &loaded, const KeptSamples &samples) {
  const mechanics::Equations &eq = loaded.equations();
  size_t n = eq.coordinates.size();
  StateProgram energy({eq.T + eq.V}, loaded.model().params.size(), n);
  AnimationPlot plot{"energy T + V", "J", {}};
  for (size_t i = 0; i < samples.t().size(); ++i) {
    double t = samples.t()[i];
    const double *row = samples.rows()[i].data();
    plot.values.push_back(energy(loaded.paramValues(t), t, row, row + n)[0]);
  }
  return plot;
}

std::string withoutBlanks(std::string text) {
  std::erase_if(text, [](char c) { return c == ' ' || c == '\t'; });
  return text;
}

// The plots the page shows: --plot-vars's columns (checked by the run),
// else the energy.
std::vector<AnimationPlot> pagePlots(const SimulationOptions &options, const LoadedModel &loaded,
                                     const KeptSamples &samples) {
  if (options.plotVars.empty())
    return {energyPlot(loaded, samples)};
  std::vector<AnimationPlot> plots;
  std::vector<std::string> units = columnUnits(loaded.model(), loaded.equations());
  for (const std::string &name : options.plotVars)
    for (size_t column = 0; column < samples.names().size(); ++column)
      if (withoutBlanks(samples.names()[column]) == withoutBlanks(name)) {
        AnimationPlot plot{samples.names()[column], units[column], {}};
        for (const std::vector<double> &row : samples.rows())
          plot.values.push_back(row[column]);
        plots.push_back(std::move(plot));
        break;
      }
  return plots;
}

// The scene of the kept samples; nullopt (with the error reported) when
// the model has nothing to draw or --trace names no point of it.
std::optional<Scene> sceneOf(LoadedModel &loaded, const KeptSamples &samples,
                             const CommandLine &line) {
  SceneBuilder builder(loaded);
  if (builder.empty()) {
    loaded.diagnostics().error(loaded.model().location,
                               "animate: " + loaded.model().name +
                                   " has nothing to draw: no particle, body, spring or vector let "
                                   "of length (a position)");
    return std::nullopt;
  }
  size_t n = loaded.equations().coordinates.size();
  for (size_t i = 0; i < samples.t().size(); ++i) {
    const std::vector<double> &row = samples.rows()[i];
    builder.sample(samples.t()[i], row.data(), row.data() + n);
  }
  Scene scene = builder.finish();
  for (const std::string &text : line.values("--trace"))
    for (const ListItem &item : splitListItems(text)) {
      std::string name = withoutBlanks(text.substr(item.begin, item.end - item.begin));
      bool found = false;
      std::string names;
      for (const ScenePoint &p : scene.points) {
        found = found || p.name == name;
        if (p.kind != "end")
          names += (names.empty() ? "" : ", ") + p.name;
      }
      if (!found) {
        loaded.diagnostics().error({}, "--trace: '" + name + "' is not a point of the drawing (" +
                                           names + ")");
        return std::nullopt;
      }
    }
  return scene;
}

// What the page shows besides the scene: the title, the trails, the view,
// the plots, and a note when it holds only some of the samples.
AnimationOptions pageOptions(const CommandLine &line, const SimulationOptions &options,
                             const LoadedModel &loaded, const KeptSamples &samples,
                             const std::optional<std::pair<double, double>> &view) {
  AnimationOptions page;
  page.title = loaded.model().name;
  for (const std::string &text : line.values("--trace"))
    for (const ListItem &item : splitListItems(text))
      page.traced.push_back(withoutBlanks(text.substr(item.begin, item.end - item.begin)));
  if (view)
    std::tie(page.yaw, page.pitch) = *view;
  page.plots = pagePlots(options, loaded, samples);
  if (samples.stride() > 1)
    page.note = "every " + std::to_string(samples.stride()) + "th sample of " +
                std::to_string(samples.received()) + " (a page holds at most " +
                std::to_string(kMaxFrames) + ")";
  return page;
}

} // namespace

int runAnimate(const CommandLine &line, Session &session, const CommandIo &io) {
  SimulationOptions options;
  if (auto status = simulationOptions(line, io, options))
    return *status;
  // One run: start on the interpreter while LLVM compiles (--backend auto).
  options.tiered = line.value("--backend", "auto") == "auto";
  std::string output = line.value("-o");
  if (!isHtmlPath(output))
    return io.usageError("animate: -o names the page, a file ending in .html, got '" + output +
                         "'");
  std::optional<std::pair<double, double>> view;
  if (line.has("--view") && !(view = viewAngles(line.value("--view"))))
    return io.usageError("animate: --view needs 'yaw,pitch' in degrees, pitch within -90..90, "
                         "got '" +
                         line.value("--view") + "'");
  double deriveSeconds = 0;
  if (auto status = prepareRun(line, session, io, options, deriveSeconds))
    return *status;
  LoadedModel &loaded = session.loaded();
  std::string error;
  if (!canWriteOutputFile(output, error)) {
    return io.error(error);
  }
  KeptSamples samples;
  auto summary = simulate(loaded, options, deriveSeconds, samples);
  session.printDiagnostics(io.err);
  if (!summary)
    return kExitModelError;
  std::optional<Scene> scene = sceneOf(loaded, samples, line);
  if (!scene) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (scene->dimensions == 3 && (!scene->boxes.empty() || !scene->grounds.empty())) {
    loaded.diagnostics().error(loaded.model().drawings.front().location,
                               "draw: box and ground are shapes of a planar drawing; " +
                                   loaded.model().name + " is drawn in 3-D");
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (view && scene->dimensions == 2)
    return io.usageError("animate: --view turns a 3-D drawing; " + loaded.model().name +
                         " is drawn in the plane");
  AnimationOptions page = pageOptions(line, options, loaded, samples, view);
  if (summary->contacts)
    for (const ImpactRecord &impact : summary->contacts->impacts) {
      std::string names;
      for (size_t c : impact.contacts)
        names += (names.empty() ? "" : ", ") + loaded.equations().contacts[c].gap.name;
      page.impacts.emplace_back(impact.t, names);
    }
  // A friction's switches are marked as the impacts are, by name.
  if (summary->contacts) {
    for (const ContactSwitch &s : summary->contacts->frictionSwitches)
      page.impacts.emplace_back(s.t, loaded.equations().frictions[s.contact].slip.name +
                                         (s.rests ? " sticks" : " slips"));
    std::sort(page.impacts.begin(), page.impacts.end()); // by time, then name
  }
  if (!writeOutputFile(output, animationPage(*scene, page), error)) {
    return io.error(error);
  }
  io.err << summaryText(*summary);
  io.err << "animate: " << samples.t().size() << " frames of " << scene->points.size()
         << " points to " << output << "\n";
  if (!summary->failure.empty()) {
    io.err << session.name() << ": error: " << summary->failure << "\n";
    return kExitModelError;
  }
  return kExitOk;
}

} // namespace mech::driver
