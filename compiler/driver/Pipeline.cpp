// The shared pipeline.
#include "driver/Pipeline.h"

#include "sema/Values.h"

#include <algorithm>

namespace mech::driver {

std::vector<double> LoadedModel::paramValues(double t) const {
  std::vector<double> values;
  for (const sema::Param &p : analysis.model->params)
    values.push_back(p.value);
  if (inputs)
    inputs->fill(t, values.data());
  for (const auto &[param, value] : inputsAt)
    values[param] = value;
  return values;
}

bool readInputs(LoadedModel &loaded, const std::string &text) {
  // A session's model is reused: no command inherits the last one's inputs.
  loaded.inputs.reset();
  loaded.inputsAt.clear();
  if (text.find_first_not_of(" \t") == std::string::npos)
    return true;
  auto signals = sema::parseInputSignals(*loaded.compilation, "--input", text, loaded.model());
  if (signals)
    loaded.inputs = std::make_shared<const sema::InputSignals>(std::move(*signals));
  return signals.has_value();
}

const mechanics::KernelPrograms &LoadedModel::programsWithJacobian() {
  programs();
  if (!programs_->hasJacobian)
    programs_->addJacobian(equations());
  return *programs_;
}

const mechanics::KernelPrograms &LoadedModel::programs() {
  if (!programs_)
    programs_ = std::make_unique<mechanics::KernelPrograms>(
        mechanics::KernelPrograms::build(equations(), analysis.model->params.size()));
  return *programs_;
}

namespace {

// Loads with the settings; `analyze` runs sema on the compilation.
template <class Analyze>
std::unique_ptr<LoadedModel> load(const std::string &name, const std::vector<std::string> &settings,
                                  const sema::SearchPath &searchPath, bool derive,
                                  Analyze &&analyze) {
  auto loaded = std::make_unique<LoadedModel>();
  loaded->compilation = std::make_unique<sema::Compilation>(searchPath);
  sema::AnalysisOptions options;
  bool ok = true;
  for (const std::string &text : settings) {
    auto assignments = sema::parseAssignments(*loaded->compilation, "--set", text, nullptr, "",
                                              /*allowLists=*/true);
    if (!assignments) {
      ok = false;
      continue;
    }
    for (const sema::ParamOverride &o : sema::toOverrides(*assignments))
      options.overrides.push_back(o);
  }
  if (!ok)
    return loaded;
  loaded->analysis = analyze(*loaded->compilation, options);
  if (!loaded->analysis.ok)
    return loaded;
  if (!loaded->analysis.model) {
    loaded->diagnostics().error({}, "'" + name + "' is a library of defs; it has no model");
    return loaded;
  }
  if (derive)
    loaded->derivation = mechanics::deriveEquations(*loaded->analysis.model, loaded->diagnostics());
  return loaded;
}

} // namespace

std::unique_ptr<LoadedModel> loadModel(const std::string &path,
                                       const std::vector<std::string> &settings,
                                       const sema::SearchPath &searchPath, bool derive,
                                       const std::vector<sema::Addition> &additions) {
  return load(path, settings, searchPath, derive,
              [&](sema::Compilation &compilation, const sema::AnalysisOptions &options) {
                return sema::analyzeLoaded(compilation, compilation.loadRoot(path, true, additions),
                                           options);
              });
}

std::unique_ptr<LoadedModel> loadModelText(const std::string &name, const std::string &text,
                                           const std::vector<std::string> &settings,
                                           const sema::SearchPath &searchPath, bool derive,
                                           const std::vector<sema::Addition> &additions) {
  return load(name, settings, searchPath, derive,
              [&](sema::Compilation &compilation, const sema::AnalysisOptions &options) {
                return sema::analyzeLoaded(compilation, compilation.loadText(name, text, additions),
                                           options);
              });
}

sema::DimInfo coordinateDimension(const sema::CheckedModel &model, int coord, int primes) {
  sema::DimInfo dim = model.coords[static_cast<size_t>(coord)].dim;
  for (int k = 0; k < primes && dim.isKnown(); ++k)
    dim = sema::DimInfo::known(*dim.dimension.over(sema::Dimension::time()));
  return dim;
}

bool checkValueDimension(Diagnostics &diagnostics, const sema::Assignment &a,
                         const sema::DimInfo &expected) {
  // Unknown dimensions pass: a plain number takes the unit of what it sets,
  // and a name declared without a unit is not checked anywhere.
  if (!expected.isKnown() || !a.dim.isKnown() || expected.dimension == a.dim.dimension)
    return true;
  diagnostics.error(a.location, "'" + a.name + std::string(static_cast<size_t>(a.primes), '\'') +
                                    "' has dimension " + expected.dimension.toString() +
                                    ", the value given has " + a.dim.dimension.toString());
  return false;
}

int coordinateIndex(const sema::CheckedModel &model, const std::string &name) {
  for (size_t j = 0; j < model.coords.size(); ++j)
    if (model.coords[j].name == name)
      return static_cast<int>(j);
  return -1;
}

std::vector<int> familyMembers(const sema::CheckedModel &model, const std::string &name) {
  std::vector<int> members;
  for (size_t j = 0; j < model.coords.size(); ++j)
    if (!model.coords[j].indices.empty() && model.coords[j].family == name)
      members.push_back(static_cast<int>(j));
  return members;
}

namespace {

// Applies one assignment of the state text; false after reporting an error.
bool applyToState(LoadedModel &loaded, const sema::Assignment &a, const std::string &option,
                  mechanics::State &state, GivenValues &given) {
  const sema::CheckedModel &model = loaded.model();
  if (a.name == "t" && a.primes == 0) {
    state.t = a.value;
    return checkValueDimension(loaded.diagnostics(), a,
                               sema::DimInfo::known(sema::Dimension::time()));
  }
  // --at may hold an input's value at the state (a plain number is in the
  // input's declared unit).
  for (size_t i = model.firstInput(); option == "--at" && i < model.params.size(); ++i)
    if (model.params[i].name == a.name && a.primes == 0) {
      const sema::Param &input = model.params[i];
      bool plain = !a.dim.isKnown() || a.dim.dimension.isDimensionless();
      loaded.inputsAt.emplace_back(i, a.value * (plain && input.unit ? input.unit->scale : 1.0));
      return checkValueDimension(loaded.diagnostics(), a, input.dim);
    }
  // A family's name sets each member (th = 0.1 for th[1..n]).
  int found = coordinateIndex(model, a.name);
  std::vector<int> targets = found >= 0 ? std::vector<int>{found} : familyMembers(model, a.name);
  if (targets.empty() || a.primes > 1) {
    loaded.diagnostics().error(
        a.location, targets.empty() ? "'" + a.name + "' is not a coordinate of " + model.name
                                    : option + " sets coordinates and velocities, "
                                               "not accelerations");
    return false;
  }
  if (!checkValueDimension(loaded.diagnostics(), a,
                           coordinateDimension(model, targets[0], a.primes)))
    return false;
  for (int j : targets) {
    (a.primes == 0 ? state.q : state.qd)[static_cast<size_t>(j)] = a.value;
    (a.primes == 0 ? given.positions : given.velocities)[static_cast<size_t>(j)] = true;
  }
  return true;
}

// Families first, so that a member named in the same text wins over its
// family's value wherever it is written.
bool namesFamily(const sema::CheckedModel &model, const sema::Assignment &a) {
  return coordinateIndex(model, a.name) < 0 && !familyMembers(model, a.name).empty();
}

// The sets to keep: the command line's with the init's, then the command
// line's alone (or the init's alone when the command line gave none); each
// with the held coordinates, which end the list alone.
std::vector<std::vector<bool>> preferences(const std::vector<bool> &option,
                                           const std::vector<bool> &init,
                                           const std::vector<bool> &held) {
  auto with = [&](std::vector<bool> set, const std::vector<bool> &more) {
    for (size_t j = 0; j < set.size() && j < more.size(); ++j)
      set[j] = set[j] || more[j];
    return set;
  };
  auto any = [](const std::vector<bool> &set) {
    return std::find(set.begin(), set.end(), true) != set.end();
  };
  std::vector<bool> both = with(option, init);
  std::vector<std::vector<bool>> sets{with(both, held)};
  if (both != option && any(option))
    sets.push_back(with(option, held));
  if (any(held) && sets.back() != held)
    sets.push_back(held);
  return sets;
}

} // namespace

std::vector<std::vector<bool>> GivenValues::positionPreferences() const {
  return preferences(positions, initPositions, held);
}

std::vector<std::vector<bool>> GivenValues::velocityPreferences() const {
  return preferences(velocities, initVelocities, held);
}

bool GivenValues::holds() const {
  return std::find(held.begin(), held.end(), true) != held.end();
}

std::optional<mechanics::State> parseState(LoadedModel &loaded, const std::string &text,
                                           GivenValues *givenValues, const std::string &option) {
  const sema::CheckedModel &model = loaded.model();
  size_t n = model.coords.size();
  GivenValues local;
  GivenValues &given = givenValues != nullptr ? *givenValues : local;
  given.positions.assign(n, false);
  given.velocities.assign(n, false);
  given.initPositions.assign(n, false);
  given.initVelocities.assign(n, false);
  for (const sema::Initial &init : model.initial)
    if (init.coord >= 0)
      (init.order == 0 ? given.initPositions
                       : given.initVelocities)[static_cast<size_t>(init.coord)] = true;
  std::vector<double> initial = model.initialState();
  mechanics::State state;
  state.q.assign(initial.begin(), initial.begin() + static_cast<long>(n));
  state.qd.assign(initial.begin() + static_cast<long>(n), initial.end());
  if (option == "--at")
    loaded.inputsAt.clear(); // the inputs' values belong to the state parsed last
  if (text.find_first_not_of(" \t") == std::string::npos)
    return state;
  auto assignments = sema::parseAssignments(*loaded.compilation, option, text, &model);
  if (!assignments)
    return std::nullopt;
  bool ok = true;
  for (bool families : {true, false})
    for (const sema::Assignment &a : *assignments)
      if (namesFamily(model, a) == families)
        ok = applyToState(loaded, a, option, state, given) && ok;
  if (!ok)
    return std::nullopt;
  return state;
}

} // namespace mech::driver
