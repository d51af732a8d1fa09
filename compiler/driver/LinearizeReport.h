// What `mech linearize` reports at a state, and its renderings: the text
// (M, K, D, C, A, B, the outputs' C and D, a transfer function, the
// reduced second-order form) and the JSON (docs/cli.md "linearize --json").
#pragma once

#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "mechanics/TransferFunction.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

using mechanics::Matrix;

// What linearize reports at a state: the sample, the rest balanced by the
// constraints, A (empty when not formed, with the reason) over the named
// state, its eigenvalues, the notes, and whether f (with the constraint
// forces) is not zero there. With constraints, `reduced` says which
// coordinates and speeds are independent.
struct Linearization {
  const mechanics::Equations &eq;
  const mechanics::State &state;
  const mechanics::LinearSample &s;
  const mechanics::RestWithConstraints &rest;
  const std::vector<std::string> &notes;
  bool notAtRest = false;
  const mechanics::ReducedLinearization *reduced = nullptr;
  Matrix A{}, B{};   // B: dx'/du, when the model has inputs
  Matrix Cy{}, Dy{}; // y = Cy x + Dy u for the outputs, when it has any
  std::vector<std::string> stateNames{};
  std::vector<std::complex<double>> eigenvalues{};
  std::string whyNoA{};
  // --tf "U -> Y": the input's and the output's names and their transfer function.
  std::optional<mechanics::TransferFunction> tf{};
  std::string tfInput{}, tfOutput{};
};

std::string linearizationText(const Linearization &r);
std::string linearizationJson(const Linearization &r);

} // namespace mech::driver
