// Admissibility of solved param values: the masses, inertias and spring
// stiffnesses the model declares are lowered again and evaluated with the
// solution; the mass matrix (on the directions the constraints allow) with
// the solution and with the model's own values.
#include "mechanics/Admissibility.h"

#include "mechanics/BodyInertia.h"
#include "mechanics/Kernels.h"
#include "symbolic/Diff.h"
#include "symbolic/Program.h"

#include <Eigen/Dense>

namespace mech::mechanics {

namespace {

// One quantity that must not be negative; a 3x3 tensor must have no
// negative principal value.
struct Use {
  std::vector<sym::Expr> entries; // one, or nine for a tensor
  std::string what;
  sema::DimInfo dim;
  Location location;
};

std::vector<Use> uses(const sema::CheckedModel &model, Lowering &lowering) {
  std::vector<Use> result;
  for (const sema::Particle &p : model.particles)
    result.push_back({{lowering.scalar(p.mass)},
                      "the mass of particle '" + p.name + "'",
                      p.mass->dim,
                      p.location});
  for (const sema::Body &b : model.bodies) {
    result.push_back(
        {{lowering.scalar(b.mass)}, "the mass of body '" + b.name + "'", b.mass->dim, b.location});
    Tensor inertia = *centroidalInertia(lowering, b);
    result.push_back({inertia.v,
                      std::string(inertia.isScalar() ? "the moment of inertia"
                                                     : "the smallest principal moment of inertia") +
                          " of body '" + b.name + "'",
                      b.inertia->dim, b.location});
  }
  for (const sema::Spring &s : model.springs)
    result.push_back({{lowering.scalar(s.stiffness)},
                      "the stiffness of the spring",
                      s.stiffness->dim,
                      s.location});
  return result;
}

// The unknowns (indices into the problem's) that any of the expressions
// depends on.
std::vector<size_t> dependence(const std::vector<sym::Expr> &entries,
                               const std::vector<sym::Expr> &unknowns) {
  std::vector<size_t> result;
  for (size_t u = 0; u < unknowns.size(); ++u)
    for (const sym::Expr &e : entries)
      if (!sym::diff(e, unknowns[u]).isZero()) {
        result.push_back(u);
        break;
      }
  return result;
}

// A scalar, or the smallest eigenvalue of a (symmetrised) 3x3 tensor.
double smallestValue(const std::vector<double> &values) {
  if (values.size() != 9)
    return values.empty() ? 0 : values[0];
  Eigen::Matrix3d J = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(values.data());
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>((J + J.transpose()) / 2).eigenvalues()(0);
}

// The program's values for the given params at the problem's state.
std::vector<double> evaluate(const std::vector<sym::Expr> &outputs, const InputLayout &layout,
                             const std::vector<double> &params, const State &state) {
  sym::Program program(outputs, [&layout](const sym::SymbolInfo &s) { return layout.index(s); });
  State atRest{state.t, state.q, {}};
  return program.evaluate(layout.inputs(params, atRest));
}

} // namespace

std::vector<ImpossibleValue> impossibleValues(const sema::CheckedModel &model, const Equations &eq,
                                              Lowering &lowering, const StaticsProblem &problem,
                                              const StaticsSolution &solution) {
  std::vector<sym::Expr> unknowns;
  for (size_t u : problem.unknowns)
    unknowns.push_back(lowering.params()[u]);
  std::vector<double> solved = problem.params;
  for (size_t i = 0; i < problem.unknowns.size() && i < solution.values.size(); ++i)
    solved[problem.unknowns[i]] = solution.values[i];
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  InputLayout layout{problem.params.size(), n, m};

  std::vector<ImpossibleValue> result;
  bool inertia = false; // a negative mass or inertia already explains M
  for (const Use &use : uses(model, lowering)) {
    std::vector<size_t> on = dependence(use.entries, unknowns);
    if (on.empty())
      continue;
    double value = smallestValue(evaluate(use.entries, layout, solved, problem.state));
    if (value < 0) {
      result.push_back({on, use.what, value, use.dim, "", use.location});
      inertia = inertia || use.what.rfind("the stiffness", 0) != 0;
    }
  }
  if (inertia)
    return result;

  // The mass matrix and C, with the solution and with the model's values.
  std::vector<sym::Expr> outputs;
  for (const std::vector<sym::Expr> &row : eq.M)
    outputs.insert(outputs.end(), row.begin(), row.end());
  for (const Equations::Constraint &k : eq.constraints)
    outputs.insert(outputs.end(), k.C.begin(), k.C.end());
  std::vector<size_t> on = dependence(outputs, unknowns);
  if (on.empty() || n == 0)
    return result;
  std::vector<double> withSolution = evaluate(outputs, layout, solved, problem.state);
  std::vector<double> withModel = evaluate(outputs, layout, problem.params, problem.state);
  std::string direction =
      negativeEnergyDirection(withSolution.data(), withSolution.data() + n * n, m, eq.coordinates);
  if (!direction.empty() &&
      negativeEnergyDirection(withModel.data(), withModel.data() + n * n, m, eq.coordinates)
          .empty())
    result.push_back({on, "the kinetic energy", 0, {}, direction, model.location});
  return result;
}

} // namespace mech::mechanics
