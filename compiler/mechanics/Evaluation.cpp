// Evaluation at a state.
#include "mechanics/Evaluation.h"

#include "mechanics/ConstraintProjection.h"
#include "mechanics/Kernels.h"
#include "sema/ModelPrinter.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

std::string valueText(double value) {
  return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
}

// "x,y" for the pairs of a matrix indexed by rows and columns.
std::vector<std::string> pairNames(const std::vector<std::string> &rows,
                                   const std::vector<std::string> &cols) {
  std::vector<std::string> names;
  for (const std::string &r : rows)
    for (const std::string &c : cols)
      names.push_back(r + "," + c);
  return names;
}

// The program's values past M: per constraint its row of C, gamma and the
// residual, checked under those names.
void checkConstraintValues(const Equations &eq, const std::vector<double> &values, size_t at,
                           NonFiniteValues &bad) {
  size_t n = eq.coordinates.size();
  for (const Equations::Constraint &k : eq.constraints) {
    std::vector<double> row(values.begin() + static_cast<long>(at),
                            values.begin() + static_cast<long>(at + n));
    bad.check("C", pairNames({k.name}, eq.coordinates), row);
    bad.check("gamma[" + k.name + "]", values[at + n]);
    bad.check((k.holonomic ? "Phi[" : "psi[") + k.name + "]", values[at + n + 1]);
    at += n + 2;
  }
}

} // namespace

void NonFiniteValues::check(const std::string &name, double value) {
  if (std::isfinite(value))
    return;
  if (shown_.size() < 4)
    shown_.push_back(name + " = " + valueText(value));
  ++count_;
}

void NonFiniteValues::check(const std::string &prefix, const std::vector<std::string> &names,
                            const std::vector<double> &values) {
  for (size_t i = 0; i < values.size() && i < names.size(); ++i)
    check(prefix + "[" + names[i] + "]", values[i]);
}

std::string NonFiniteValues::text() const {
  std::string text;
  for (const std::string &s : shown_)
    text += (text.empty() ? "" : ", ") + s;
  if (count_ > shown_.size())
    text += " and " + std::to_string(count_ - shown_.size()) + " more";
  return text;
}

std::string nonFiniteQuantities(const Equations &eq, const Evaluation &e) {
  NonFiniteValues bad;
  bad.check("T", e.T);
  bad.check("V", e.V);
  bad.check("Q", eq.coordinates, e.Q);
  bad.check("Qnc", eq.coordinates, e.Qnc);
  bad.check("f", eq.coordinates, e.f);
  std::vector<double> M;
  for (const std::vector<double> &row : e.M)
    M.insert(M.end(), row.begin(), row.end());
  bad.check("M", pairNames(eq.coordinates, eq.coordinates), M);
  std::vector<std::string> constraints;
  for (const Equations::Constraint &k : eq.constraints)
    constraints.push_back(k.name);
  bad.check("Phi", constraints, e.constraintResiduals);
  return bad.text();
}

int InputLayout::index(const sym::SymbolInfo &s) const {
  switch (s.kind) {
  case sym::SymbolKind::Param:
    return s.index;
  case sym::SymbolKind::Coord:
    return static_cast<int>(params + static_cast<size_t>(s.order) * coordinates +
                            static_cast<size_t>(s.index));
  case sym::SymbolKind::Time:
    return static_cast<int>(time());
  case sym::SymbolKind::Multiplier:
    return static_cast<int>(multiplier(static_cast<size_t>(s.index)));
  default:
    return -1;
  }
}

std::vector<double> InputLayout::inputs(const std::vector<double> &params,
                                        const State &state) const {
  std::vector<double> values(size(), 0.0);
  std::copy(params.begin(), params.end(), values.begin());
  std::copy(state.q.begin(), state.q.end(), values.begin() + static_cast<long>(this->params));
  std::copy(state.qd.begin(), state.qd.end(),
            values.begin() + static_cast<long>(this->params + coordinates));
  values[time()] = state.t;
  return values;
}

const double *InputLayout::fill(std::vector<double> &buffer, double t, const double *x,
                                const std::vector<double> &params) const {
  std::copy(params.begin(), params.begin() + static_cast<long>(this->params), buffer.begin());
  std::copy(x, x + 2 * coordinates, buffer.begin() + static_cast<long>(this->params));
  buffer[time()] = t;
  return buffer.data();
}

Evaluator::Evaluator(const Equations &equations, std::vector<double> params)
    : equations_(equations), params_(std::move(params)) {
  layout_.params = params_.size();
  layout_.coordinates = equations.coordinates.size();
  layout_.multipliers = equations.constraints.size();
  size_t n = layout_.coordinates;
  std::vector<sym::Expr> outputs = {equations.T, equations.V};
  for (size_t j = 0; j < n; ++j)
    outputs.push_back(equations.Q[j]);
  for (size_t j = 0; j < n; ++j)
    outputs.push_back(equations.Qnc[j]);
  for (size_t j = 0; j < n; ++j)
    outputs.push_back(equations.f[j]);
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      outputs.push_back(equations.M[j][k]);
  for (const Equations::Constraint &k : equations.constraints) {
    outputs.insert(outputs.end(), k.C.begin(), k.C.end());
    outputs.push_back(k.gamma);
    outputs.push_back(k.holonomic ? k.phi : k.psi);
  }
  auto inputs = [this](const sym::SymbolInfo &s) { return layout_.index(s); };
  program_ = sym::Program(outputs, inputs);
  outputs_ = sym::Program(equations.outputs, inputs);
}

std::optional<Evaluation> Evaluator::at(const State &state, Diagnostics &diagnostics,
                                        Location where) const {
  size_t n = layout_.coordinates;
  std::vector<double> inputs = layout_.inputs(params_, state);
  std::vector<double> values = program_.evaluate(inputs);

  Evaluation e;
  e.state = state;
  e.T = values[0];
  e.V = values[1];
  size_t at = 2;
  e.Q.assign(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + n));
  at += n;
  e.Qnc.assign(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + n));
  at += n;
  e.f.assign(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + n));
  at += n;
  e.M.assign(n, std::vector<double>(n));
  double largest = 0;
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k) {
      e.M[j][k] = values[at + j * n + k];
      largest = std::max(largest, std::abs(e.M[j][k]));
    }

  // A model undefined at the state (sqrt of a negative, 1/0, an overflow)
  // has no accelerations there: say which quantity, never solve with it.
  NonFiniteValues bad;
  e.constraintResiduals.clear();
  std::string quantities = nonFiniteQuantities(equations_, e);
  checkConstraintValues(equations_, values, at + n * n, bad);
  if (!quantities.empty() || !bad.empty()) {
    std::string all = quantities + (quantities.empty() || bad.empty() ? "" : ", ") + bad.text();
    diagnostics.error(where, "the model is not finite at this state (" + all +
                                 "): q'' and the multipliers are not defined there");
    return std::nullopt;
  }
  if (!equations_.constraints.empty())
    return constrained(e, values, at + n * n, inputs, diagnostics, where);
  if (n > 0 && largest == 0) {
    e.notes.push_back("the model has no inertia (T = 0): accelerations are undefined");
  } else if (n > 0) {
    // The one dense solve of M q'' = f (runtime/DenseSolve), as simulate's.
    std::vector<double> M(values.begin() + static_cast<long>(at),
                          values.begin() + static_cast<long>(at + n * n));
    std::vector<double> qdd = e.f;
    if (solveLdlt(n, M.data(), qdd.data()) != runtime::kSolveOk) {
      diagnostics.error(where, describeMassMatrixFault(values.data() + at, nullptr, 0,
                                                       equations_.coordinates, "at this state"));
      return std::nullopt;
    }
    e.qdd = qdd;
    for (size_t j = 0; j < n; ++j)
      inputs[layout_.params + 2 * n + j] = qdd[j];
  }
  evaluateOutputs(e, inputs);
  return e;
}

void Evaluator::evaluateOutputs(Evaluation &e, std::vector<double> &inputs) const {
  std::vector<double> outputs = outputs_.evaluate(inputs);
  bool multipliers = equations_.constraints.empty() || !e.lambda.empty();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const sym::Expr &output = equations_.outputs[i];
    bool undefined = (output.has(sym::kHasAcceleration) && !e.qdd) ||
                     (output.has(sym::kHasMultiplier) && !multipliers);
    e.outputs.push_back(undefined ? NAN : outputs[i]);
  }
}

void Evaluator::staticReactions(Evaluation &e, const std::vector<double> &M,
                                const std::vector<double> &C, std::vector<double> &inputs) const {
  size_t n = layout_.coordinates, m = equations_.constraints.size();
  Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Cm(
      C.data(), static_cast<long>(m), static_cast<long>(n));
  Eigen::Map<const Eigen::VectorXd> f(e.f.data(), static_cast<long>(n));
  // At rest the balance f + C^T lambda = 0 needs no inertia: its least-
  // squares (and, for redundant constraints, least-norm) solution.
  Eigen::VectorXd lambda = -Cm.transpose().completeOrthogonalDecomposition().solve(f);
  Eigen::VectorXd reaction = Cm.transpose() * lambda;
  double residual = (f + reaction).cwiseAbs().maxCoeff(), scale = f.cwiseAbs().maxCoeff();
  e.lambda.assign(lambda.data(), lambda.data() + m);
  e.reaction.assign(reaction.data(), reaction.data() + n);
  for (size_t i = 0; i < m; ++i)
    inputs[layout_.multiplier(i)] = e.lambda[i];
  std::string why = describeSolveFailure(equations_, kStatusSingularMassMatrix, M.data(), C.data(),
                                         "at this state");
  e.notes.push_back(why + "; q'' is undefined, and the multipliers are the static reactions "
                          "(f + C^T lambda = 0 at rest, solved by least squares)");
  if (residual > 1e-9 * std::max(scale, 1e-300))
    e.notes.push_back("the reactions do not balance f here (largest residual " +
                      sema::formatNumber(residual) + "): the configuration is not an equilibrium");
  if (std::string note = redundantMultipliersNote(equations_, C.data()); !note.empty())
    e.notes.push_back(note);
  evaluateOutputs(e, inputs);
}

std::optional<Evaluation> Evaluator::constrained(Evaluation &e, const std::vector<double> &values,
                                                 size_t at, std::vector<double> &inputs,
                                                 Diagnostics &diagnostics, Location where) const {
  size_t n = layout_.coordinates, m = equations_.constraints.size();
  std::vector<double> M(n * n), C(m * n), gamma(m), qdd(n), lambda(m);
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      M[j * n + k] = e.M[j][k];
  for (size_t i = 0; i < m; ++i) {
    std::copy(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + n),
              C.begin() + static_cast<long>(i * n));
    gamma[i] = values[at + n];
    e.constraintResiduals.push_back(values[at + n + 1]);
    at += n + 2;
  }
  int status = solveConstrained(n, m, M.data(), e.f.data(), C.data(), gamma.data(), qdd.data(),
                                lambda.data());
  bool atRest = std::all_of(e.state.qd.begin(), e.state.qd.end(), [](double v) { return v == 0; });
  if (status == kStatusSingularMassMatrix && atRest) {
    for (size_t j = 0; j < n; ++j)
      for (size_t k = 0; k < n; ++k)
        M[j * n + k] = e.M[j][k];
    staticReactions(e, M, C, inputs);
    return e;
  }
  if (status != kStatusOk) {
    // M was overwritten by the solve: describe from the evaluated one.
    for (size_t j = 0; j < n; ++j)
      for (size_t k = 0; k < n; ++k)
        M[j * n + k] = e.M[j][k];
    diagnostics.error(
        where, describeSolveFailure(equations_, status, M.data(), C.data(), "at this state"));
    return std::nullopt;
  }
  e.qdd = qdd;
  e.lambda = lambda;
  e.reaction.assign(n, 0.0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      e.reaction[j] += C[i * n + j] * lambda[i];
  for (size_t j = 0; j < n; ++j)
    inputs[layout_.params + 2 * n + j] = qdd[j];
  for (size_t i = 0; i < m; ++i)
    inputs[layout_.multiplier(i)] = lambda[i];
  if (std::string note = redundantMultipliersNote(equations_, C.data(), MultiplierSplit::Pivoted);
      !note.empty())
    e.notes.push_back(note);
  evaluateOutputs(e, inputs);
  return e;
}

} // namespace mech::mechanics
