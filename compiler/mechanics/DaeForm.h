// A constrained model as the stabilised index-2 DAE of Gear, Gupta and
// Leimkuhler, for Radau IIA (runtime::IntegratorOptions::algebraicFrom):
// state y = (q, v, lambda, mu) with n coordinates, m constraints and h of
// them holonomic,
//   q' = v + C_h^T mu,   M(q) v' = f + C^T lambda,   0 = psi,   0 = Phi_h,
// so that the positions stay on Phi = 0 and the velocities on psi = 0 to
// the integrator's tolerance without any projection (mu is 0 on the exact
// solution; it takes up the drift). The Jacobian is exact but for the
// terms mu d(C_h^T)/dq, which vanish with mu: the derivatives of the
// first-kind residual by q and q' (KernelPrograms::addJacobian) and of psi
// by q, interpreted.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Kernels.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <Eigen/Core>

#include <vector>

namespace mech::mechanics {

class DaeForm {
public:
  // `programs` must have the Jacobian (KernelPrograms::addJacobian);
  // `kernels`, `programs` and `params` must outlive this. `fill` writes the
  // inputs' values at t into the parameters, when given.
  DaeForm(const Equations &equations, const KernelPrograms &programs, Kernels &kernels,
          const std::vector<double> &params, InputFill fill = {});

  long dimension() const { return static_cast<long>(2 * n_ + m_ + holonomic_.size()); }
  long differential() const { return static_cast<long>(2 * n_); }
  // The DAE's state at a state x = (q, q') on the constraints: lambda as
  // the first-kind equations give it, mu = 0. The kernels' status.
  int initialState(double t, const double *x, std::vector<double> &y);
  // F(t, y), status as the kernels'.
  int rhs(double t, const double *y, double *F);
  // dF/dy (dimension()², row-major).
  int jacobian(double t, const double *y, double *J);

private:
  // The parameters at t (the inputs' values filled in) into p_.
  void paramsAt(double t, const double *x);
  int dynamics(double t, const double *y);

  Kernels &kernels_;
  const KernelPrograms &programs_;
  const std::vector<double> &params_;
  InputFill fill_;
  size_t n_, m_;
  std::vector<size_t> holonomic_; // the holonomic constraints' indices
  InputLayout layout_;
  sym::Program psiByQ_; // dpsi_k/dq_j, m x n
  std::vector<double> p_, M_, factor_, f_, residuals_, inputs_, parts_, psiParts_, scratch_;
  Eigen::VectorXd acceleration_;
};

} // namespace mech::mechanics
