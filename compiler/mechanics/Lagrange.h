// The Lagrange IR: from a checked model, symbolically, T, V, D, L, the
// generalized forces Q_j = -dV/dq_j + Q_j^nc, the mass matrix
// M_jk = d2T/dq_j'dq_k', the forcing f_j = dT/dq_j - sum_k d2T/dq_j'dq_k q_k'
// - d2T/dq_j'dt + Q_j (so that M q'' = f), and T split as T2 + T1 + T0.
// With constraints, the equations of the first kind M q'' = f + C^T lambda,
// C q'' = gamma: per constraint Phi := lhs - rhs, its row of C and gamma.
#pragma once

#include "mechanics/Lowering.h"
#include "sema/Model.h"
#include "support/Diagnostics.h"
#include "symbolic/Expr.h"
#include "symbolic/SharedTerms.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

struct Equations {
  std::string model;
  std::vector<std::string> coordinates;
  std::vector<sema::DimInfo> coordinateDims;
  sym::Expr T, V, D, L;
  sym::Expr T2, T1, T0;
  std::vector<sym::Expr> Q, Qnc; // per coordinate
  std::vector<sema::DimInfo> Qdim;
  std::vector<std::vector<sym::Expr>> M; // symmetric, full
  std::vector<sym::Expr> f;
  // The momenta p_j = dL/dq_j' and the forces dL/dq_j + Q_j^nc, the two
  // sides of the equations d/dt p = force that a variational integrator
  // discretizes.
  std::vector<sym::Expr> momentum, force;
  // d/dt(dT/dq_j') - dT/dq_j, written with the accelerations.
  std::vector<sym::Expr> lhs;
  std::vector<sym::Expr> outputs;
  std::vector<std::string> outputNames;
  // The events: g = lhs - rhs, whose sign changes a simulation looks for
  // (direction +1 rising, -1 falling, 0 either). Like the outputs, g may
  // use q'' and the multipliers.
  // A reset at the event: coordinate `coordinate` (order 0) or its
  // velocity (order 1) takes `value`, computed from the state before it.
  struct Reset {
    size_t coordinate = 0;
    int order = 0;
    sym::Expr value;
    Location location;
  };
  struct Event {
    std::string name;
    sym::Expr g;
    int direction = 0;
    bool stop = false;
    Location location;
    std::vector<Reset> resets;
    // A mode's event at a switch of a piecewise law (mechanics/Contacts.h):
    // the run restarts there without a row of its own.
    bool restartOnly = false;
  };
  std::vector<Event> events;
  // The inputs, each a param symbol (index `param`) that may appear in Q,
  // f, the outputs and the multipliers.
  struct Input {
    std::string name;
    size_t param = 0;
    sema::DimInfo dim;
  };
  std::vector<Input> inputs;
  // Display only (simplified()): the named subexpressions x1, x2, ... that
  // large printed expressions use, in dependency order.
  std::vector<sym::NamedSubexpression> where;

  // Constraints, in declaration order: Phi = lhs - rhs; holonomic ones
  // (no velocities) are also imposed at velocity level as psi = dPhi/dt =
  // C q' + dPhi/dt|_q; a nonholonomic Phi is linear in q' and is its own psi.
  // Differentiating psi = 0 once more gives C q'' = gamma.
  struct Constraint {
    std::string name;
    bool holonomic = true;
    sym::Expr phi, psi;
    std::vector<sym::Expr> C; // dpsi/dq' (= dPhi/dq when holonomic)
    sym::Expr gamma;          // -(d psi/dt with q'' = 0)
    sema::DimInfo multiplierDim;
    Location location;
    // A velocity constraint that is an exact form, d/dt Phi(q, t) = 0
    // (mechanics/IntegrableConstraints.h): the analyses treat it as holonomic.
    bool integrable = false;
    // Its Phi without the constant, where the coefficients are constant
    // (sum a_j q_j + b t); the analyses keep it at its value at the start.
    std::optional<sym::Expr> integral;
    // The direction its multiplier's generalized force acts along, where
    // that is not C: a resting contact whose force also drives a sliding
    // friction (C - mu_k sigma C_slip). Empty: C (an ideal constraint).
    // Only a contact mode's equations have one (mechanics/Contacts.h).
    std::vector<sym::Expr> reaction;
  };
  std::vector<Constraint> constraints;
  std::vector<sym::Expr> multipliers; // the symbols lambda_i, named after the constraints

  // Unilateral contacts: the gap phi(q, t) >= 0 in a constraint's forms
  // (phi, psi = phi', C = dphi/dq, gamma), which a resting contact imposes
  // as a constraint; the restitution, a constant of the params; the symbol
  // of its contact force (a multiplier numbered after the constraints).
  struct Contact {
    Constraint gap;
    sym::Expr restitution;
    sym::Expr force;
    Location restitutionLocation;
  };
  std::vector<Contact> contacts;

  // Coulomb friction on a slip velocity s = C q' + b(q, t): `slip` holds
  // its velocity constraint's forms (phi = psi = s, C = ds/dq', gamma),
  // which a sticking friction imposes; the normal force N (q, q', t); the
  // coefficients; the symbol of its force while it sticks (a multiplier
  // numbered after the contacts'). Slipping with the sign sigma of s, the
  // generalized force -mu_k N sigma C^T acts.
  // With `normal floor` (contact >= 0) N is that contact's force: the
  // friction acts only while the contact rests, and `normal` is 0.
  struct Friction {
    Constraint slip;
    sym::Expr normal, staticCoefficient, kineticCoefficient;
    sym::Expr force;
    Location normalLocation;
    int contact = -1;
  };
  std::vector<Friction> frictions;

  // The forces that jump with a velocity: each sign(a) of an argument with
  // velocities in a force (or abs(a) in a dissipation term, whose force is
  // sign(a)), with the declaration it is in. Integrated as they are, they
  // chatter where a sticks at 0; the runs watch them (driver/Simulation).
  struct VelocitySwitch {
    sym::Expr argument;
    Location location;
    bool jumps = true; // a sign() in a force; false: an abs() in a dissipation term
  };
  std::vector<VelocitySwitch> velocitySwitches;

  // The switches of the piecewise laws (mechanics/Switches.h): each
  // distinct g of a choice select(g, a, b) (if, min, max, clamp) or of an
  // abs(g) or sign(g) in the motion's equations whose g changes during a
  // run (it has coordinates, velocities, t or inputs), but not those of
  // velocitySwitches, nor any inside smooth(...). A run holds each branch
  // over a segment and restarts where g crosses 0.
  struct Switch {
    sym::Expr g;
    Location location; // the if, min, max, clamp, abs or sign that wrote it
  };
  std::vector<Switch> switches;

  // Display only: each table's interpolant as lowered, and how it is
  // written ("drive(th')"), which the printed equations show in its place.
  std::vector<NamedLaw> tableCalls;

  bool conservative = false;
  bool hasExplicitTime = false;
};

// The largest model derived: the mass matrix has n*n entries and the
// constraint Jacobian m*n, each differentiated symbolically and compiled,
// so these bound the derivation's memory (about 0.35 GB for 1000 separate
// coordinates) before anything is allocated.
inline constexpr size_t kMaxCoordinates = 1000;
inline constexpr size_t kMaxConstraints = 1000;

struct Derivation {
  std::unique_ptr<sym::Context> context;
  std::unique_ptr<Lowering> lowering;
  Equations equations;
};

// Derives the equations of the second kind, and of the first kind when the
// model has constraints. Reports (and returns nullopt for) what the
// derivation does not support: a T that is not a polynomial of degree 2 in
// the velocities, a constraint that is not linear in the velocities or that
// involves accelerations.
std::optional<Derivation> deriveEquations(const sema::CheckedModel &model,
                                          Diagnostics &diagnostics);

// The same equations in display form (symbolic/Readable.h) wherever they
// are printed: T, V, D, L, T2/T1/T0, Q, Qnc, M, f, the left-hand sides, the
// constraints and outputs; the momenta and forces, which no report prints,
// are left as derived.
Equations simplified(const Equations &equations);

// Baumgarte's stabilization of the constraints: C q'' = gamma - 2 a psi
// - b^2 Phi (holonomic) or gamma - 2 a psi (nonholonomic), so that a drift
// from the constraints decays instead of growing.
Equations baumgarteStabilized(const Equations &equations, double a, double b);

} // namespace mech::mechanics
