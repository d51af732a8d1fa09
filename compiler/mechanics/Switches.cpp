// The switches of piecewise laws: found in the equations, and held on
// branches (mechanics/Switches.h).
#include "mechanics/Switches.h"

#include "symbolic/Piecewise.h"
#include "symbolic/Print.h"
#include "symbolic/Program.h"
#include "symbolic/Subs.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>

namespace mech::mechanics {

namespace {

bool isSwitching(const sym::Node *node) {
  return node->kind == sym::Kind::Func &&
         (node->fn == sym::Fn::Select || node->fn == sym::Fn::Abs || node->fn == sym::Fn::Sign);
}

// Whether g changes during a run: it has coordinates, velocities, t or an
// input (a param symbol whose index is an input's), but no accelerations
// or multipliers (which only an event's function or an output may hold:
// their choices stay live).
bool changes(const sym::Expr &g, const Equations &eq) {
  if (g.has(sym::kHasAcceleration | sym::kHasMultiplier))
    return false; // an event's choice of q'' or a force: evaluated as it is
  if (g.has(sym::kHasCoord | sym::kHasVelocity | sym::kHasTime))
    return true;
  if (eq.inputs.empty() || !g.has(sym::kHasParam))
    return false;
  std::vector<const sym::Node *> pending = {g.node()};
  std::set<const sym::Node *> seen;
  while (!pending.empty()) {
    const sym::Node *node = pending.back();
    pending.pop_back();
    if (!seen.insert(node).second)
      continue;
    if (node->kind == sym::Kind::Symbol) {
      const sym::SymbolInfo &s = node->context->symbolInfo(node);
      if (s.kind == sym::SymbolKind::Param &&
          std::any_of(eq.inputs.begin(), eq.inputs.end(),
                      [&](const Equations::Input &in) { return in.param == size_t(s.index); }))
        return true;
    }
    pending.insert(pending.end(), node->ops.begin(), node->ops.end());
  }
  return false;
}

// The expressions that shape the motion (M, f, the constraints', contacts'
// and frictions' forms, the events, the switches' g), for `use`; with
// `all`, also those a run only reports (Q, T, V, the outputs, ...). Those
// not set are skipped.
void forEachRunExpression(Equations &eq, const std::function<void(sym::Expr &)> &use,
                          bool all = true) {
  auto visit = [&](sym::Expr &e) {
    if (e.node())
      use(e);
  };
  auto constraint = [&](Equations::Constraint &k) {
    for (sym::Expr *e : {&k.phi, &k.psi, &k.gamma})
      visit(*e);
    for (auto *list : {&k.C, &k.reaction})
      for (sym::Expr &e : *list)
        visit(e);
    if (k.integral)
      visit(*k.integral);
  };
  for (auto &row : eq.M)
    for (sym::Expr &e : row)
      visit(e);
  for (sym::Expr &e : eq.f)
    visit(e);
  if (all) {
    for (auto *list : {&eq.Q, &eq.Qnc, &eq.momentum, &eq.force, &eq.lhs, &eq.outputs})
      for (sym::Expr &e : *list)
        visit(e);
    for (sym::Expr *e : {&eq.T, &eq.V, &eq.D, &eq.L, &eq.T2, &eq.T1, &eq.T0})
      visit(*e);
  }
  for (Equations::Constraint &k : eq.constraints)
    constraint(k);
  for (Equations::Contact &c : eq.contacts) {
    constraint(c.gap);
    visit(c.restitution);
  }
  for (Equations::Friction &f : eq.frictions) {
    constraint(f.slip);
    for (sym::Expr *e : {&f.normal, &f.staticCoefficient, &f.kineticCoefficient})
      visit(*e);
  }
  for (Equations::Event &e : eq.events) {
    visit(e.g);
    for (Equations::Reset &r : e.resets)
      visit(r.value);
  }
  for (Equations::Switch &s : eq.switches)
    visit(s.g);
}

} // namespace

void findSwitches(Equations &eq, const std::unordered_map<const sym::Node *, Location> &written) {
  std::set<const sym::Node *> seen;
  std::vector<const sym::Node *> pending;
  // The motion's expressions only: T, V, the outputs and the momenta are
  // not integrated, and f, M and the forms already hold what they imply.
  forEachRunExpression(
      eq, [&](sym::Expr &e) { pending.push_back(e.node()); }, /*all=*/false);
  std::set<const sym::Node *> watched;
  for (const Equations::VelocitySwitch &s : eq.velocitySwitches)
    watched.insert(s.argument.node());
  // Where each argument was first written: the derivatives of a law
  // (select(g, a', b') from select(g, a, b)) are new nodes of the same g.
  std::unordered_map<const sym::Node *, Location> writtenAt;
  for (const auto &[node, at] : written) {
    auto [found, added] = writtenAt.emplace(node->ops[0], at);
    if (!added && std::tie(at.line, at.column) < std::tie(found->second.line, found->second.column))
      found->second = at;
  }
  while (!pending.empty()) {
    const sym::Node *node = pending.back();
    pending.pop_back();
    if (!seen.insert(node).second || node->mask == 0)
      continue;
    if (node->kind == sym::Kind::Func && node->fn == sym::Fn::Smooth)
      continue; // its choices stay live
    if (isSwitching(node) && !watched.count(node->ops[0])) {
      sym::Expr g(node->ops[0]);
      if (changes(g, eq) && std::none_of(eq.switches.begin(), eq.switches.end(),
                                         [&](const Equations::Switch &s) { return s.g == g; })) {
        auto at = writtenAt.find(g.node());
        eq.switches.push_back({g, at == writtenAt.end() ? Location{} : at->second});
      }
    }
    pending.insert(pending.end(), node->ops.begin(), node->ops.end());
  }
  // The order of the walk follows pointers; the switches' order must not:
  // by place, then by the printed g.
  std::vector<std::pair<std::tuple<int, int, std::string>, Equations::Switch>> keyed;
  for (const Equations::Switch &s : eq.switches)
    keyed.push_back({{s.location.line, s.location.column, sym::toMech(s.g)}, s});
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t k = 0; k < keyed.size(); ++k)
    eq.switches[k] = keyed[k].second;
}

namespace {

// The equations with every choice, abs and sign of switch k reading its
// branch from branch[k] instead of from g_k: select(g, a, b) is
// select(branch, a, b), abs(g) is select(branch, g, -g), sign(g) is
// select(branch, 1, select(-branch, -1, 0)). A branch of +-1 folds them to
// the branch's formula (heldOnBranches); a symbol keeps the choice
// (withBranchInputs).
Equations readingBranches(const Equations &eq, const std::vector<sym::Expr> &branch) {
  Equations out = eq;
  std::unordered_map<const sym::Node *, sym::Expr> branchOf;
  for (size_t k = 0; k < eq.switches.size(); ++k)
    branchOf[eq.switches[k].g.node()] = branch[k];
  sym::Substitution read; // the nodes it hands out live in their context
  read.setRule([&](const sym::Node *n) -> const sym::Node * {
    if (!isSwitching(n))
      return nullptr;
    auto found = branchOf.find(n->ops[0]);
    if (found == branchOf.end())
      return nullptr;
    // The rule's result is substituted in turn: the branches' own laws too.
    const sym::Expr &b = found->second;
    sym::Context &c = *n->context;
    if (n->fn == sym::Fn::Select)
      return sym::select(b, sym::Expr(n->ops[1]), sym::Expr(n->ops[2])).node();
    sym::Expr g(n->ops[0]);
    if (n->fn == sym::Fn::Abs)
      return sym::select(b, g, -g).node();
    return sym::select(b, c.one(), sym::select(-b, c.integer(-1), c.zero())).node();
  });
  forEachRunExpression(out, [&](sym::Expr &e) { e = read(e); });
  return out;
}

} // namespace

Equations heldOnBranches(const Equations &eq, const Branches &branches) {
  if (eq.switches.empty())
    return eq;
  sym::Context &c = eq.switches.front().g.context();
  std::vector<sym::Expr> held;
  for (signed char b : branches)
    held.push_back(c.integer(b > 0 ? 1 : -1));
  return readingBranches(eq, held);
}

Equations withBranchInputs(const Equations &eq, size_t params) {
  if (eq.switches.empty())
    return eq;
  sym::Context &c = eq.switches.front().g.context();
  std::vector<sym::Expr> inputs;
  for (size_t k = 0; k < eq.switches.size(); ++k)
    inputs.push_back(c.symbol("branch[" + std::to_string(k + 1) + "]", sym::SymbolKind::Param,
                              static_cast<int>(params + k)));
  return readingBranches(eq, inputs);
}

std::vector<std::string> onSwitchNotes(const Equations &eq, const std::vector<double> &params,
                                       const State &state) {
  std::vector<std::string> notes;
  if (eq.switches.empty())
    return notes;
  InputLayout layout{params.size(), eq.coordinates.size(), eq.constraints.size()};
  std::vector<sym::Expr> g;
  for (const Equations::Switch &s : eq.switches)
    g.push_back(s.g);
  sym::Program program(g, [&](const sym::SymbolInfo &s) { return layout.index(s); });
  std::vector<double> values = program.evaluate(layout.inputs(params, state));
  double scale = 1;
  for (const std::vector<double> *part : {&state.q, &state.qd})
    for (double v : *part)
      scale = std::max(scale, std::abs(v));
  for (size_t k = 0; k < g.size(); ++k) {
    if (!(std::abs(values[k]) <= 1e-12 * scale))
      continue;
    const Location &at = eq.switches[k].location;
    const sym::Expr shown = sym::upright(g[k]); // y >= 0 rather than -y <= 0
    const std::string argument = sym::toMech(shown);
    notes.push_back("the state is on the switch of the piecewise law at " +
                    std::to_string(at.line) + ":" + std::to_string(at.column) + ", where " +
                    argument + " = 0: the derivatives are those of the branch for " + argument +
                    (shown == g[k] ? " <= 0" : " >= 0") + ", and the other side's may differ");
  }
  return notes;
}

sym::Expr switchEvent(const Equations::Switch &s, int branch) {
  sym::Context &c = s.g.context();
  // g where g != 0, else the smallest normal double of the branch's sign.
  const double tiny = std::numeric_limits<double>::min();
  return sym::select(sym::apply(sym::Fn::Abs, s.g), s.g,
                     c.number(sym::Num::inexact(branch > 0 ? tiny : -tiny)));
}

} // namespace mech::mechanics
