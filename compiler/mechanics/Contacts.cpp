// Contact modes and the contacts' functions on the interpreter.
#include "mechanics/Contacts.h"

namespace mech::mechanics {

namespace {

// The multiplier symbol of the mode's constraint `slot` (after the model's):
// the programs number their multipliers by their place in the mode.
sym::Expr slotSymbol(const sym::Expr &force, const std::string &name, size_t slot) {
  return force.context().symbol(name, sym::SymbolKind::Multiplier, static_cast<int>(slot));
}

} // namespace

Equations modeEquations(const Equations &equations, const ModeKey &mode) {
  Equations out = equations;
  const size_t k = equations.contacts.size();
  for (Equations::Event &e : out.events)
    e.stop = e.stop || !e.resets.empty();
  for (size_t i = 0; i < k; ++i) {
    const Equations::Contact &c = equations.contacts[i];
    if (mode[i]) {
      sym::Expr force = slotSymbol(c.force, c.gap.name, out.constraints.size());
      out.constraints.push_back(c.gap);
      out.multipliers.push_back(force);
      out.events.push_back({c.gap.name + " lifts off", force, -1, true, c.gap.location, {}});
    } else {
      out.events.push_back({c.gap.name, c.gap.phi, -1, true, c.gap.location, {}});
    }
  }
  for (size_t i = 0; i < equations.frictions.size(); ++i) {
    const Equations::Friction &f = equations.frictions[i];
    const std::string &name = f.slip.name;
    const int sigma = mode[k + i];
    // First its normal force (an error where it falls below 0; listed
    // first, it wins a tie with the cone's events where N and the force
    // reach 0 together).
    out.events.push_back({name + " normal", f.normal, -1, true, f.normalLocation, {}});
    if (sigma == 0) {
      sym::Expr force = slotSymbol(f.force, name, out.constraints.size());
      sym::Expr limit = f.staticCoefficient * f.normal;
      out.constraints.push_back(f.slip);
      out.multipliers.push_back(force);
      out.events.push_back({name + " slips back", limit - force, -1, true, f.slip.location, {}});
      out.events.push_back({name + " slips ahead", limit + force, -1, true, f.slip.location, {}});
    } else {
      // -mu_k N sigma along C^T, the slip's gradient in the velocities.
      sym::Expr magnitude = f.kineticCoefficient * f.normal;
      for (size_t j = 0; j < out.f.size(); ++j)
        out.f[j] =
            sigma > 0 ? out.f[j] - magnitude * f.slip.C[j] : out.f[j] + magnitude * f.slip.C[j];
      out.events.push_back({name + " stops", f.slip.psi, -sigma, true, f.slip.location, {}});
    }
  }
  return out;
}

ModeEvent modeEvent(const Equations &equations, const ModeKey &mode, size_t event) {
  const size_t declared = equations.events.size(), k = equations.contacts.size();
  if (event < declared)
    return {ModeEvent::Declared, event};
  if (event < declared + k) {
    size_t contact = event - declared;
    return {mode[contact] ? ModeEvent::LiftOff : ModeEvent::Impact, contact};
  }
  // Per friction: its normal force, then sticking its force beyond mu_s N
  // (it slips back) and below -mu_s N (ahead), slipping its slip reaching 0.
  size_t at = event - declared - k;
  for (size_t friction = 0; friction < equations.frictions.size(); ++friction) {
    const bool sticks = mode[k + friction] == 0;
    const size_t count = sticks ? 3 : 2;
    if (at >= count) {
      at -= count;
      continue;
    }
    if (at == 0)
      return {ModeEvent::NormalNegative, friction};
    if (!sticks)
      return {ModeEvent::SlipStops, friction};
    return {ModeEvent::Slips, friction, at == 2 ? 1 : -1};
  }
  return {ModeEvent::Declared, event}; // not reached: the mode has no such event
}

std::vector<sym::Expr> frictionExpressions(const Equations &equations) {
  std::vector<sym::Expr> values;
  for (const Equations::Friction &f : equations.frictions)
    values.push_back(f.slip.psi);
  for (const Equations::Friction &f : equations.frictions)
    values.push_back(f.normal);
  for (const Equations::Friction &f : equations.frictions)
    values.push_back(f.staticCoefficient);
  for (const Equations::Friction &f : equations.frictions)
    values.push_back(f.kineticCoefficient);
  return values;
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
      contacts_(equations.contacts.size()), frictions_(equations.frictions.size()) {
  const size_t n = layout_.coordinates;
  auto index = [this](const sym::SymbolInfo &s) { return layout_.index(s); };
  std::vector<sym::Expr> state = contactExpressions(equations), restitution;
  for (const Equations::Contact &c : equations.contacts)
    restitution.push_back(c.restitution);
  state_ = sym::Program(state, index);
  restitution_ = sym::Program(restitution, index);
  friction_ = sym::Program(frictionExpressions(equations), index);
  frictionOut_.resize(4 * frictions_);
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

void ContactFunctions::evaluateFrictions(double t, const double *x,
                                         const std::vector<double> &params) {
  friction_.evaluate(inputs(t, x, params), frictionOut_.data(), scratch_);
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
