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

#include <cmath>
#include <cstdlib>
#include <ostream>

namespace mech::driver {

namespace {

constexpr size_t kMaxFrames = 20000;

// The samples of the run, kept whole for the scene.
class KeptSamples : public SampleSink {
public:
  void columns(const std::vector<std::string> &names) override { names_ = names; }
  void row(double t, const std::vector<double> &values) override {
    t_.push_back(t);
    rows_.push_back(values);
  }
  const std::vector<std::string> &names() const { return names_; }
  const std::vector<double> &t() const { return t_; }
  const std::vector<std::vector<double>> &rows() const { return rows_; }

private:
  std::vector<std::string> names_;
  std::vector<double> t_;
  std::vector<std::vector<double>> rows_;
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
AnimationPlot energyPlot(const LoadedModel &loaded, const KeptSamples &samples,
                         const std::vector<size_t> &kept) {
  const mechanics::Equations &eq = loaded.equations();
  size_t n = eq.coordinates.size();
  StateProgram energy({eq.T + eq.V}, loaded.model().params.size(), n);
  AnimationPlot plot{"energy T + V", "J", {}};
  for (size_t i : kept) {
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
                                     const KeptSamples &samples, const std::vector<size_t> &kept) {
  if (options.plotVars.empty())
    return {energyPlot(loaded, samples, kept)};
  std::vector<AnimationPlot> plots;
  std::vector<std::string> units = columnUnits(loaded.model(), loaded.equations());
  for (const std::string &name : options.plotVars)
    for (size_t column = 0; column < samples.names().size(); ++column)
      if (withoutBlanks(samples.names()[column]) == withoutBlanks(name)) {
        AnimationPlot plot{samples.names()[column], units[column], {}};
        for (size_t i : kept)
          plot.values.push_back(samples.rows()[i][column]);
        plots.push_back(std::move(plot));
        break;
      }
  return plots;
}

// The samples the page holds: all, or every k-th (and the last) of a run
// longer than kMaxFrames.
std::vector<size_t> keptSamples(size_t count) {
  std::vector<size_t> kept;
  size_t stride = count > kMaxFrames ? (count + kMaxFrames - 1) / kMaxFrames : 1;
  for (size_t i = 0; i < count; i += stride)
    kept.push_back(i);
  if (!kept.empty() && kept.back() + 1 != count)
    kept.push_back(count - 1);
  return kept;
}

// The scene of the kept samples; nullopt (with the error reported) when
// the model has nothing to draw or --trace names no point of it.
std::optional<Scene> sceneOf(LoadedModel &loaded, const KeptSamples &samples,
                             const std::vector<size_t> &kept, const CommandLine &line) {
  SceneBuilder builder(loaded);
  if (builder.empty()) {
    loaded.diagnostics().error(loaded.model().location,
                               "animate: " + loaded.model().name +
                                   " has nothing to draw: no particle, body, spring or vector let "
                                   "of length (a position)");
    return std::nullopt;
  }
  size_t n = loaded.equations().coordinates.size();
  for (size_t i : kept) {
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
                             const std::vector<size_t> &kept,
                             const std::optional<std::pair<double, double>> &view) {
  AnimationOptions page;
  page.title = loaded.model().name;
  for (const std::string &text : line.values("--trace"))
    for (const ListItem &item : splitListItems(text))
      page.traced.push_back(withoutBlanks(text.substr(item.begin, item.end - item.begin)));
  if (view)
    std::tie(page.yaw, page.pitch) = *view;
  page.plots = pagePlots(options, loaded, samples, kept);
  if (kept.size() < samples.t().size())
    page.note = "every " + std::to_string(samples.t().size() / (kept.size() - 1)) +
                "th sample of " + std::to_string(samples.t().size()) + " (a page holds at most " +
                std::to_string(kMaxFrames) + ")";
  return page;
}

} // namespace

int runAnimate(const CommandLine &line, Session &session, const CommandIo &io) {
  SimulationOptions options;
  if (auto status = simulationOptions(line, io, options))
    return *status;
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
    io.err << "mech: error: " << error << "\n";
    return kExitModelError;
  }
  KeptSamples samples;
  auto summary = simulate(loaded, options, deriveSeconds, samples);
  session.printDiagnostics(io.err);
  if (!summary)
    return kExitModelError;
  std::vector<size_t> kept = keptSamples(samples.t().size());
  std::optional<Scene> scene = sceneOf(loaded, samples, kept, line);
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
  AnimationOptions page = pageOptions(line, options, loaded, samples, kept, view);
  if (!writeOutputFile(output, animationPage(*scene, page), error)) {
    io.err << "mech: error: " << error << "\n";
    return kExitModelError;
  }
  io.err << summaryText(*summary);
  io.err << "animate: " << kept.size() << " frames of " << scene->points.size() << " points to "
         << output << "\n";
  if (!summary->failure.empty()) {
    io.err << session.name() << ": error: " << summary->failure << "\n";
    return kExitModelError;
  }
  return kExitOk;
}

} // namespace mech::driver
