// The first-order matrix A of the linearized equations at a state, for
// either kind of model (over (q, q') without constraints, in independent
// coordinates and speeds with them), with the names of its states; and the
// states that are structurally zero in it (ignorable coordinates, conserved
// speeds), which linearize's sweep and the steady motions drop.
#pragma once

#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/Linearization.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

// The first-order matrix at a state, for either kind of model (A over
// (q, q') without constraints, in independent coordinates and speeds with
// them), with the names of its states. The linearization program is built
// once, so that a sweep evaluates it many times.
struct StateMatrix {
  Matrix A;
  std::vector<std::string> names;
};
class StateMatrices {
public:
  // `params` fixes the layout (their count); at() takes their values.
  StateMatrices(const Equations &equations, const std::vector<double> &params);
  // Nullopt with `why` when A is not formed there.
  std::optional<StateMatrix> at(const State &state, const std::vector<double> &params,
                                const IndependentChoice &choice, std::string &why);

private:
  const Equations &equations_;
  std::optional<Linearizer> free_;
  std::optional<ConstrainedLinearizer> constrained_;
};

// The names of A's states: (q..., q'...) without constraints, else the
// independent coordinates and then the independent speeds (primed).
std::vector<std::string> stateNames(const Equations &eq, const ReducedLinearization *reduced);

// The states whose column or row of A is zero at every sampled A, among
// the states not dropped before (repeated until none is left): nothing
// depends on them (an ignorable coordinate) or they do not change (a
// conserved speed). Each is one zero eigenvalue, and the others are the
// eigenvalues of A without them (A is block triangular).
std::vector<bool> structuralZeroStates(const std::vector<Matrix> &samples);

// The eigenvalues of A without the `dropped` states, by real part.
std::vector<std::complex<double>> keptEigenvalues(const Matrix &A,
                                                  const std::vector<bool> &dropped);

} // namespace mech::mechanics
