// Contact modes and the contacts' functions on the interpreter.
#include "mechanics/Contacts.h"

#include "mechanics/Switches.h"

namespace mech::mechanics {

namespace {

// The multiplier symbol of the mode's constraint `slot` (after the model's):
// the programs number their multipliers by their place in the mode.
sym::Expr slotSymbol(const sym::Expr &force, const std::string &name, size_t slot) {
  return force.context().symbol(name, sym::SymbolKind::Multiplier, static_cast<int>(slot));
}

} // namespace

namespace {

// Whether friction i acts in the mode: always, or while its contact rests.
bool acts(const Equations &equations, const ModeKey &mode, size_t i) {
  const int contact = equations.frictions[i].contact;
  return contact < 0 || mode[static_cast<size_t>(contact)] == 1;
}

// The events of friction i in the mode (as modeEquations lists them).
size_t frictionEvents(const Equations &equations, const ModeKey &mode, size_t i) {
  if (!acts(equations, mode, i))
    return 0;
  const bool sticks = mode[equations.contacts.size() + i] == 0;
  const bool ownNormal = equations.frictions[i].contact < 0;
  return (sticks ? 2 : 1) + (ownNormal ? 1 : 0);
}

// A sliding friction's force -mu_k N sigma C^T: on f where N is an
// expression, else on the reaction of the contact's constraint (its
// multiplier N then acts along C_contact - mu_k sigma C_slip).
void slidingForce(const Equations::Friction &f, int sigma, Equations &out,
                  Equations::Constraint *contact) {
  const sym::Expr &mu = f.kineticCoefficient;
  if (contact) {
    if (contact->reaction.empty())
      contact->reaction = contact->C;
    for (size_t j = 0; j < contact->reaction.size(); ++j)
      contact->reaction[j] = sigma > 0 ? contact->reaction[j] - mu * f.slip.C[j]
                                       : contact->reaction[j] + mu * f.slip.C[j];
    return;
  }
  const sym::Expr magnitude = mu * f.normal;
  for (size_t j = 0; j < out.f.size(); ++j)
    out.f[j] = sigma > 0 ? out.f[j] - magnitude * f.slip.C[j] : out.f[j] + magnitude * f.slip.C[j];
}

} // namespace

Equations modeEquations(const Equations &model, const ModeKey &mode) {
  const size_t held = model.contacts.size() + model.frictions.size();
  const Equations equations =
      heldOnBranches(model, Branches(mode.begin() + static_cast<long>(held), mode.end()));
  Equations out = equations;
  const size_t k = equations.contacts.size();
  for (Equations::Event &e : out.events)
    e.stop = e.stop || !e.resets.empty();
  std::vector<int> contactSlot(k, -1);
  for (size_t i = 0; i < k; ++i) {
    const Equations::Contact &c = equations.contacts[i];
    if (mode[i]) {
      contactSlot[i] = static_cast<int>(out.constraints.size());
      sym::Expr force = slotSymbol(c.force, c.gap.name, out.constraints.size());
      out.constraints.push_back(c.gap);
      out.multipliers.push_back(force);
      out.events.push_back({c.gap.name + " lifts off", force, -1, true, c.gap.location, {}});
    } else {
      out.events.push_back({c.gap.name, c.gap.phi, -1, true, c.gap.location, {}});
    }
  }
  for (size_t i = 0; i < equations.frictions.size(); ++i) {
    if (!acts(equations, mode, i))
      continue;
    const Equations::Friction &f = equations.frictions[i];
    const std::string &name = f.slip.name;
    const int sigma = mode[k + i];
    const int slot = f.contact < 0 ? -1 : contactSlot[static_cast<size_t>(f.contact)];
    // Its normal force: an expression watched for falling below 0 (listed
    // first, it wins a tie with the cone's events where N and the force
    // reach 0 together), or the contact's force, which lifts it off.
    const sym::Expr normal = slot < 0 ? f.normal : out.multipliers[static_cast<size_t>(slot)];
    if (slot < 0)
      out.events.push_back({name + " normal", f.normal, -1, true, f.normalLocation, {}});
    if (sigma == 0) {
      sym::Expr force = slotSymbol(f.force, name, out.constraints.size());
      sym::Expr limit = f.staticCoefficient * normal;
      out.constraints.push_back(f.slip);
      out.multipliers.push_back(force);
      out.events.push_back({name + " slips back", limit - force, -1, true, f.slip.location, {}});
      out.events.push_back({name + " slips ahead", limit + force, -1, true, f.slip.location, {}});
    } else {
      slidingForce(f, sigma, out, slot < 0 ? nullptr : &out.constraints[static_cast<size_t>(slot)]);
      out.events.push_back({name + " stops", f.slip.psi, -sigma, true, f.slip.location, {}});
    }
  }
  for (size_t i = 0; i < equations.switches.size(); ++i)
    out.events.push_back({"switch " + std::to_string(i + 1),
                          switchEvent(equations.switches[i], mode[held + i]),
                          0,
                          true,
                          equations.switches[i].location,
                          {},
                          true});
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
  // Per friction that acts: its normal force (an expression's), then
  // sticking its force beyond mu_s N (it slips back) and below -mu_s N
  // (ahead), slipping its slip reaching 0.
  size_t at = event - declared - k;
  for (size_t friction = 0; friction < equations.frictions.size(); ++friction) {
    const size_t count = frictionEvents(equations, mode, friction);
    if (at >= count) {
      at -= count;
      continue;
    }
    if (equations.frictions[friction].contact < 0) {
      if (at == 0)
        return {ModeEvent::NormalNegative, friction};
      --at;
    }
    if (mode[k + friction] != 0)
      return {ModeEvent::SlipStops, friction};
    return {ModeEvent::Slips, friction, at == 1 ? 1 : -1};
  }
  return {ModeEvent::Switch, at}; // after the frictions' events, one per switch
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
  std::vector<sym::Expr> g;
  for (const Equations::Switch &s : equations.switches)
    g.push_back(s.g);
  switches_ = sym::Program(g, index);
  switchOut_.resize(g.size());
}

const double *ContactFunctions::switchValues(double t, const double *x,
                                             const std::vector<double> &params) {
  switches_.evaluate(inputs(t, x, params), switchOut_.data(), scratch_);
  return switchOut_.data();
}

const double *ContactFunctions::inputs(double t, const double *x,
                                       const std::vector<double> &params) const {
  return layout_.fill(inputs_, t, x, params);
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
