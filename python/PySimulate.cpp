// Model.simulate and Model.eval (python/PySimulate.h).
#include "PySimulate.h"

#include "PyInputLaws.h"

#include "driver/Commands.h"
#include "driver/InitialState.h"
#include "driver/Simulation.h"
#include "mechanics/Evaluation.h"
#include "support/NumberText.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <sstream>

namespace mech::python {

namespace {

// The samples into columns as they come.
class ColumnSamples : public driver::SampleSink {
public:
  explicit ColumnSamples(SimulationResult &result) : result_(result) {}

  void columns(const std::vector<std::string> &names) override {
    result_.names = {"t"};
    result_.names.insert(result_.names.end(), names.begin(), names.end());
    result_.columns.assign(result_.names.size(), {});
  }
  void row(double t, const std::vector<double> &values) override {
    result_.columns[0].push_back(t);
    for (size_t i = 0; i < values.size(); ++i)
      result_.columns[i + 1].push_back(values[i]);
  }

private:
  SimulationResult &result_;
};

// A model with contacts: summary["impacts"], arrays over the impacts (t,
// energy_lost, the velocities before and after as rows, the contacts that
// pushed and their impulses), and summary["contacts"], per contact its
// impact count and the times it came to rest and lifted off.
void addContacts(py::dict &summary, const driver::ContactReport &r,
                 const std::vector<std::string> &contactNames) {
  const size_t k = r.impacts.size(), n = k ? r.impacts.front().before.size() : 0;
  py::array_t<double> t(k), lost(k), before({k, n}), after({k, n});
  py::list contacts, impulses;
  for (size_t i = 0; i < k; ++i) {
    const driver::ImpactRecord &impact = r.impacts[i];
    t.mutable_at(i) = impact.t;
    lost.mutable_at(i) = impact.energyLost;
    for (size_t j = 0; j < n; ++j) {
      before.mutable_at(i, j) = impact.before[j];
      after.mutable_at(i, j) = impact.after[j];
    }
    py::list names;
    for (size_t c : impact.contacts)
      names.append(contactNames[c]);
    contacts.append(names);
    impulses.append(py::array_t<double>(impact.impulses.size(), impact.impulses.data()));
  }
  py::dict impacts;
  impacts["t"] = t;
  impacts["energy_lost"] = lost;
  impacts["velocities_before"] = before;
  impacts["velocities_after"] = after;
  impacts["contacts"] = contacts;
  impacts["impulses"] = impulses;
  impacts["count"] = r.impactCount; // all of them; the arrays keep the first kKeptImpacts
  summary["impacts"] = impacts;
  py::dict perContact;
  for (size_t i = 0; i < contactNames.size(); ++i) {
    py::dict entry;
    entry["impacts"] = r.impactsPerContact[i];
    py::list rests, lifts;
    for (const driver::ContactSwitch &sw : r.switches)
      if (sw.contact == i)
        (sw.rests ? rests : lifts).append(sw.t);
    entry["rests_at"] = rests;
    entry["lifts_off_at"] = lifts;
    perContact[py::str(contactNames[i])] = entry;
  }
  summary["contacts"] = perContact;
  summary["energy_lost_at_impacts"] = r.energyLostAtImpacts;
  summary["energy_changed_by_resets"] = r.energyChangedAtResets;
}

// A model with frictions: summary["frictions"], per friction how often it
// came to stick and began to slip and the time it spent stuck.
void addFrictions(py::dict &summary, const driver::ContactReport &r,
                  const std::vector<std::string> &frictionNames) {
  py::dict perFriction;
  for (size_t i = 0; i < frictionNames.size() && i < r.stuckTime.size(); ++i) {
    py::dict entry;
    entry["sticks"] = r.sticksPerFriction[i];
    entry["slips"] = r.slipsPerFriction[i];
    entry["stuck_time"] = r.stuckTime[i];
    perFriction[py::str(frictionNames[i])] = entry;
  }
  summary["frictions"] = perFriction;
}

// The events fired, in the order of time: "name" (a list), "t" (an
// array) and "values" (one row per event, the CSV's columns there).
py::dict eventArrays(const std::vector<driver::SimulationSummary::EventRow> &rows) {
  const size_t k = rows.size(), columns = k ? rows.front().values.size() : 0;
  py::list names;
  py::array_t<double> t(k), values({k, columns});
  for (size_t i = 0; i < k; ++i) {
    names.append(rows[i].name);
    t.mutable_at(i) = rows[i].t;
    for (size_t j = 0; j < columns; ++j)
      values.mutable_at(i, j) = rows[i].values[j];
  }
  py::dict events;
  events["name"] = names;
  events["t"] = t;
  events["values"] = values;
  return events;
}

py::dict summaryDict(const driver::SimulationSummary &s, const std::vector<std::string> &names,
                     const std::vector<std::string> &frictionNames) {
  py::dict summary;
  summary["method"] = s.method;
  summary["steps"] = s.stats.accepted;
  summary["rejected_steps"] = s.stats.rejected;
  summary["rhs_evaluations"] = s.stats.rhsEvaluations;
  summary["samples"] = s.samples;
  summary["energy_drift"] = s.energyTracked ? py::object(py::float_(s.energyDrift)) : py::none();
  py::dict conserved;
  for (const auto &[name, drift] : s.conservedDrift)
    conserved[py::str(name)] = drift;
  summary["conserved_drift"] = conserved;
  if (s.constrained) {
    summary["constraint_residual"] = s.constraintResidual;
    summary["constraint_drift"] = s.constraintDrift;
  }
  summary["failure"] = s.failure.empty() ? py::object(py::none()) : py::str(s.failure);
  summary["stopped_by"] = s.stoppedBy.empty() ? py::object(py::none()) : py::str(s.stoppedBy);
  summary["notes"] = s.notes;
  summary["warnings"] = s.warnings;
  summary["backend_note"] = s.backendNote;
  summary["compile_seconds"] = s.compileSeconds;
  summary["integrate_seconds"] = s.integrateSeconds;
  if (s.contacts)
    addContacts(summary, *s.contacts, names);
  if (s.contacts && !frictionNames.empty())
    addFrictions(summary, *s.contacts, frictionNames);
  summary["events"] = eventArrays(s.eventRows);
  return summary;
}

// "th1=0.5, th2=1, th1'=0" from q and q' as dicts by name or sequences in
// the coordinates' order.
std::string stateText(const std::vector<std::string> &coordinates, const py::object &values,
                      const std::string &suffix) {
  std::string text;
  auto add = [&](const std::string &name, const py::handle &value) {
    text += (text.empty() ? "" : ", ") + name + suffix + "=" + optionText(value);
  };
  if (values.is_none())
    return text;
  if (py::isinstance<py::dict>(values)) {
    for (auto [name, value] : values.cast<py::dict>())
      add(py::str(name).cast<std::string>(), value);
    return text;
  }
  py::sequence sequence = py::reinterpret_borrow<py::sequence>(values);
  if (sequence.size() != coordinates.size())
    throw UsageFailure{"eval: " + std::to_string(coordinates.size()) + " values expected (" +
                       std::to_string(sequence.size()) + " given)"};
  for (size_t i = 0; i < coordinates.size(); ++i)
    add(coordinates[i], sequence[i]);
  return text;
}

} // namespace

const std::vector<double> &SimulationResult::column(const std::string &name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return columns[i];
  throw py::key_error("no column '" + name + "'");
}

py::array_t<double> view(const std::vector<double> &values, const py::object &owner) {
  py::array_t<double> array({values.size()}, {sizeof(double)}, values.data(), owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

namespace {

// What one call sets on the model for itself alone: a stop_when event
// (the model's additions are restored after it, so that the next call
// derives again, as the CLI's next command would) and the input signals
// (reset after it, so that no later eval, rhs or sweep inherits them).
class CallScope {
public:
  CallScope(driver::Session &session, const std::string &stopWhen) : session_(session) {
    if (stopWhen.empty())
      return;
    additions_ = session.additions();
    std::vector<sema::Addition> extended = *additions_;
    extended.push_back(sema::Addition::stopWhen(stopWhen));
    session.setAdditions(std::move(extended));
  }
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;
  ~CallScope() {
    session_.loaded().inputLaw = nullptr;
    driver::readInputs(session_.loaded(), "");
    if (additions_)
      session_.setAdditions(std::move(*additions_));
  }

private:
  driver::Session &session_;
  std::optional<std::vector<sema::Addition>> additions_;
};

} // namespace

std::shared_ptr<SimulationResult> simulate(PyModel &model, const py::dict &given) {
  py::dict options = py::dict(given); // a copy: the callables are taken out
  std::shared_ptr<InputLaws> laws = InputLaws::extract(options);
  driver::CommandLine line =
      commandLine("simulate", options, {"o", "plot", "plot_vars", "plot_x", "window", "events"});
  std::ostringstream out, err;
  driver::CommandIo io{out, err};
  driver::SimulationOptions simulation;
  if (driver::simulationOptions(line, io, simulation))
    throw UsageFailure{err.str()};
  simulation.keepEvents = true;
  CallScope scope(model.session(), line.has("--stop-when") ? line.value("--stop-when") : "");
  driver::LoadedModel &loaded = model.derived();
  if (auto status = driver::readRunInputs(loaded, line, simulation, io)) {
    if (*status == driver::kExitUsage)
      throw UsageFailure{err.str()};
    model.fail();
  }
  if (!laws->empty())
    loaded.inputLaw = laws->bind(laws, loaded);
  auto result = std::make_shared<SimulationResult>();
  std::optional<driver::SimulationSummary> summary;
  auto run = [&] {
    ColumnSamples samples(*result);
    summary = driver::simulate(loaded, simulation, 0, samples);
  };
  if (laws->empty())
    runReleased(model, run);
  else
    runHolding(model, run);
  laws->rethrow();
  if (!summary)
    model.fail();
  std::vector<std::string> contactNames, frictionNames;
  for (const auto &c : loaded.equations().contacts)
    contactNames.push_back(c.gap.name);
  for (const auto &f : loaded.equations().frictions)
    frictionNames.push_back(f.slip.name);
  result->summary = summaryDict(*summary, contactNames, frictionNames);
  return result;
}

py::dict evaluate(PyModel &model, const py::object &q, const py::object &qd, double t,
                  const py::object &input) {
  CallScope scope(model.session(), "");
  driver::LoadedModel &loaded = model.derived();
  if (!input.is_none() && !driver::readInputs(loaded, optionText(input)))
    model.fail();
  const mechanics::Equations &eq = loaded.equations();
  std::string at = stateText(eq.coordinates, q, "");
  std::string velocities = stateText(eq.coordinates, qd, "'");
  if (!velocities.empty())
    at += (at.empty() ? "" : ", ") + velocities;
  at += std::string(at.empty() ? "" : ", ") + "t=" + shortestNumber(t);
  std::vector<std::string> notes;
  std::optional<mechanics::State> state =
      driver::consistentState(loaded, at, driver::Velocities::GivenOrInit, notes);
  std::optional<mechanics::Evaluation> e;
  if (state) {
    mechanics::Evaluator evaluator(eq, loaded.paramValues(state->t));
    e = evaluator.at(*state, loaded.diagnostics(), loaded.model().location);
  }
  if (!e)
    model.fail();
  size_t n = eq.coordinates.size();
  py::dict result;
  result["q"] = py::array_t<double>(n, e->state.q.data());
  result["qd"] = py::array_t<double>(n, e->state.qd.data());
  result["qdd"] = e->qdd ? py::object(py::array_t<double>(n, e->qdd->data())) : py::none();
  py::array_t<double> M({n, n});
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      M.mutable_at(i, j) = e->M[i][j];
  result["M"] = M;
  result["f"] = py::array_t<double>(e->f.size(), e->f.data());
  result["Q"] = py::array_t<double>(e->Q.size(), e->Q.data());
  result["T"] = e->T;
  result["V"] = e->V;
  py::dict outputs;
  for (size_t i = 0; i < e->outputs.size() && i < eq.outputNames.size(); ++i)
    outputs[py::str(eq.outputNames[i])] = e->outputs[i];
  result["outputs"] = outputs;
  if (!eq.constraints.empty())
    result["multipliers"] = py::array_t<double>(e->lambda.size(), e->lambda.data());
  result["notes"] = notes;
  return result;
}

} // namespace mech::python
