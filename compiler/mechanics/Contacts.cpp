// Contact modes and the contacts' functions on the interpreter.
#include "mechanics/Contacts.h"

namespace mech::mechanics {

Equations modeEquations(const Equations &equations, const std::vector<bool> &resting) {
  Equations mode = equations;
  for (Equations::Event &e : mode.events)
    e.stop = e.stop || !e.resets.empty();
  for (size_t i = 0; i < equations.contacts.size(); ++i) {
    const Equations::Contact &c = equations.contacts[i];
    if (resting[i]) {
      mode.constraints.push_back(c.gap);
      mode.multipliers.push_back(c.force);
      mode.events.push_back({c.gap.name + " lifts off", c.force, -1, true, c.gap.location, {}});
    } else {
      mode.events.push_back({c.gap.name, c.gap.phi, -1, true, c.gap.location, {}});
    }
  }
  return mode;
}

ModeEvent modeEvent(const Equations &equations, const std::vector<bool> &resting, size_t event) {
  if (event < equations.events.size())
    return {ModeEvent::Declared, event};
  size_t contact = event - equations.events.size();
  return {resting[contact] ? ModeEvent::LiftOff : ModeEvent::Impact, contact};
}

std::vector<sym::Expr> contactExpressions(const Equations &equations) {
  std::vector<sym::Expr> values;
  for (const Equations::Contact &c : equations.contacts)
    values.push_back(c.gap.phi);
  for (const Equations::Contact &c : equations.contacts)
    values.push_back(c.gap.psi);
  for (const Equations::Contact &c : equations.contacts)
    values.push_back(c.gap.gamma);
  for (const Equations::Contact &c : equations.contacts)
    values.insert(values.end(), c.gap.C.begin(), c.gap.C.end());
  return values;
}

ContactFunctions::ContactFunctions(const Equations &equations, size_t params)
    : layout_{params, equations.coordinates.size(), equations.constraints.size()},
      contacts_(equations.contacts.size()) {
  const size_t n = layout_.coordinates;
  auto index = [this](const sym::SymbolInfo &s) { return layout_.index(s); };
  std::vector<sym::Expr> state = contactExpressions(equations), restitution;
  for (const Equations::Contact &c : equations.contacts)
    restitution.push_back(c.restitution);
  state_ = sym::Program(state, index);
  restitution_ = sym::Program(restitution, index);
  for (const Equations::Event &e : equations.events) {
    std::vector<sym::Expr> values;
    std::vector<const Equations::Reset *> targets;
    for (const Equations::Reset &r : e.resets) {
      values.push_back(r.value);
      targets.push_back(&r);
    }
    resets_.emplace_back(values, index);
    resetTargets_.push_back(std::move(targets));
  }
  out_.resize(3 * contacts_ + contacts_ * n);
  inputs_.assign(layout_.size(), 0.0);
}

const double *ContactFunctions::inputs(double t, const double *x,
                                       const std::vector<double> &params) const {
  std::copy(params.begin(), params.begin() + static_cast<long>(layout_.params), inputs_.begin());
  std::copy(x, x + 2 * layout_.coordinates, inputs_.begin() + static_cast<long>(layout_.params));
  inputs_[layout_.time()] = t;
  return inputs_.data();
}

void ContactFunctions::evaluate(double t, const double *x, const std::vector<double> &params) {
  state_.evaluate(inputs(t, x, params), out_.data(), scratch_);
}

std::vector<double> ContactFunctions::restitutions(const std::vector<double> &params) const {
  std::vector<double> state(2 * layout_.coordinates, 0.0), out(contacts_);
  restitution_.evaluate(inputs(0, state.data(), params), out.data(), scratch_);
  return out;
}

void ContactFunctions::reset(size_t event, double t, const double *x,
                             const std::vector<double> &params, double *out) const {
  const size_t n = layout_.coordinates;
  std::copy(x, x + 2 * n, out);
  const std::vector<const Equations::Reset *> &targets = resetTargets_[event];
  values_.resize(targets.size());
  resets_[event].evaluate(inputs(t, x, params), values_.data(), scratch_);
  for (size_t j = 0; j < targets.size(); ++j)
    out[targets[j]->coordinate + (targets[j]->order == 1 ? n : 0)] = values_[j];
}

} // namespace mech::mechanics
