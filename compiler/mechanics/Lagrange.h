// The Lagrange IR: from a checked model, symbolically, T, V, D, L, the
// generalized forces Q_j = -dV/dq_j + Q_j^nc, the mass matrix
// M_jk = d2T/dq_j'dq_k', the forcing f_j = dT/dq_j - sum_k d2T/dq_j'dq_k q_k'
// - d2T/dq_j'dt + Q_j (so that M q'' = f), and T split as T2 + T1 + T0.
#pragma once

#include "mechanics/Lowering.h"
#include "sema/Model.h"
#include "support/Diagnostics.h"
#include "symbolic/Expr.h"

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
  // d/dt(dT/dq_j') - dT/dq_j, written with the accelerations.
  std::vector<sym::Expr> lhs;
  std::vector<sym::Expr> outputs;
  std::vector<std::string> outputNames;
  bool conservative = false;
  bool hasExplicitTime = false;
};

struct Derivation {
  std::unique_ptr<sym::Context> context;
  std::unique_ptr<Lowering> lowering;
  Equations equations;
};

// Derives the equations of the second kind. Reports (and returns nullopt
// for) what the derivation does not support: constraints, and a T that is
// not a polynomial of degree 2 in the velocities.
std::optional<Derivation> deriveEquations(const sema::CheckedModel &model,
                                          Diagnostics &diagnostics);

// The same equations with the simplifications for reading applied
// (trigonometric identities, parameters collected).
Equations simplified(const Equations &equations);

} // namespace mech::mechanics
