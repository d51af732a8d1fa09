// The numbers a run with contacts, frictions and resets needs beyond the model's
// kernels: the equations of a contact mode (the resting contacts held as
// constraints, the events to watch in it), and, on the interpreter (they
// are evaluated at the switches, not per step), the contacts' gaps, rates,
// rows dphi/dq and gamma, their restitutions, and the events' resets.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <vector>

namespace mech::mechanics {

// A run's mode: per contact 1 when it rests, then per friction its state:
// 0 while it sticks, +1 or -1 while it slips with that sign of the slip, 2
// while it does not act (its normal force is a contact's that is open),
// then per switch of a piecewise law its branch, +1 or -1
// (mechanics/Switches.h).
using ModeKey = std::vector<signed char>;
inline constexpr signed char kFrictionOff = 2;

// The equations of a mode. A resting contact and a sticking friction are
// appended to the constraints (their forces the multipliers after the
// model's, in that order); a slipping friction adds the force
// -mu_k N sigma C^T to f, or, where N is a resting contact's force, to the
// direction that contact's multiplier acts along (its reaction). A
// friction whose contact is open does not act. The events are the model's (an event with resets
// stops the segment, which the run continues from the reset), then one per
// contact (its impact: a free contact's gap falling through 0; or its
// lift-off: a resting contact's force falling through 0), then per
// friction that acts its normal force falling below 0 (where N is an
// expression; a contact's force lifts it off) and, sticking, its force
// leaving the cone (rising through mu_s N, then falling through -mu_s N),
// or, slipping, the slip falling back to 0; last, per switch, its g
// crossing 0. The piecewise laws are held on the mode's branches.
Equations modeEquations(const Equations &equations, const ModeKey &mode);

// What event `event` of a mode is: the model's own (index into
// equations.events), a contact's impact or lift-off (index of the contact),
// or a friction's (index of the friction): it slips (with `sign` the sign
// of the slip), its slip reaches 0, its normal force turns negative; or a
// switch of a piecewise law (index of the switch).
struct ModeEvent {
  enum Kind { Declared, Impact, LiftOff, Slips, SlipStops, NormalNegative, Switch } kind;
  size_t index;
  int sign = 0;
};
ModeEvent modeEvent(const Equations &equations, const ModeKey &mode, size_t event);

// Per friction: the slip, the normal force and the two coefficients, each
// for all frictions in turn (what FrictionFunctions evaluates).
std::vector<sym::Expr> frictionExpressions(const Equations &equations);

// Per contact: the gap, its rate, gamma (phi'' = C q'' - gamma), each for
// all contacts in turn, then the rows C = dphi/dq (contacts * n, by rows):
// what ContactFunctions evaluates and a built library's contacts kernel
// computes (mechanics/SwitchPrograms.h).
std::vector<sym::Expr> contactExpressions(const Equations &equations);

class ContactFunctions {
public:
  // For the model's equations and its number of params (inputs included).
  ContactFunctions(const Equations &equations, size_t params);

  size_t contacts() const { return contacts_; }
  // At (t, x) with `params` (the inputs' values at t filled in): per
  // contact, the gap, its rate dphi/dt, gamma (phi'' = C q'' - gamma), and
  // its row C = dphi/dq (contacts * n, row-major), valid until the next
  // evaluate.
  void evaluate(double t, const double *x, const std::vector<double> &params);
  const double *gaps() const { return out_.data(); }
  const double *rates() const { return out_.data() + contacts_; }
  const double *gammas() const { return out_.data() + 2 * contacts_; }
  const double *rows() const { return out_.data() + 3 * contacts_; }
  // At (t, x) with `params`: per friction its slip, normal force and
  // coefficients, valid until the next evaluateFrictions.
  void evaluateFrictions(double t, const double *x, const std::vector<double> &params);
  const double *slips() const { return frictionOut_.data(); }
  const double *normals() const { return frictionOut_.data() + frictions_; }
  const double *staticCoefficients() const { return frictionOut_.data() + 2 * frictions_; }
  const double *kineticCoefficients() const { return frictionOut_.data() + 3 * frictions_; }
  // The g of every switch of a piecewise law at (t, x), live (each choice
  // inside g by its own argument), valid until the next call.
  const double *switchValues(double t, const double *x, const std::vector<double> &params);
  // The contacts' restitutions at `params`.
  std::vector<double> restitutions(const std::vector<double> &params) const;
  // The state after event `event`'s resets, all computed from the state
  // before it (x, 2n values) into `out`.
  void reset(size_t event, double t, const double *x, const std::vector<double> &params,
             double *out) const;

private:
  // The programs' inputs at (t, x), in a buffer kept between calls.
  const double *inputs(double t, const double *x, const std::vector<double> &params) const;

  InputLayout layout_;
  size_t contacts_ = 0, frictions_ = 0;
  sym::Program state_, restitution_, friction_, switches_;
  std::vector<sym::Program> resets_; // per event
  std::vector<std::vector<const Equations::Reset *>> resetTargets_;
  std::vector<double> out_;         // gaps, rates, gammas, then the rows
  std::vector<double> frictionOut_; // slips, normal forces, mu_s, mu_k
  std::vector<double> switchOut_;
  mutable std::vector<double> inputs_, scratch_, values_;
};

} // namespace mech::mechanics
