// The overdamped forced oscillator that the stiff integrators' tests share,
// with its exact solution.
#pragma once

#include <cmath>
#include <complex>

namespace mech::test {

// The overdamped forced oscillator m x'' + c x' + k x = F0 sin(w t) from
// rest: eigenvalues near -1e3 and -1e6 against a forcing of period 2π, so
// stiff. As x' = (x, v):
//   x' = v,  v' = (F0 sin(w t) - c v - k x) / m.
constexpr double kMass = 1, kStiffness = 1e9, kDamping = 1e6, kForce = 1, kFrequency = 1;
// The displacement's amplitude, F0/k to 1e-6: tolerances scale with it.
constexpr double kAmplitude = 1e-9;

inline int forcedOscillator(double t, const double *x, double *xdot) {
  xdot[0] = x[1];
  xdot[1] = (kForce * std::sin(kFrequency * t) - kDamping * x[1] - kStiffness * x[0]) / kMass;
  return 0;
}

inline int forcedOscillatorJacobian(double, const double *, double *J) {
  J[0] = 0;
  J[1] = 1;
  J[2] = -kStiffness / kMass;
  J[3] = -kDamping / kMass;
  return 0;
}

// Its exact solution. The particular solution is Im(G e^{iwt}) with
// G = F0 / (k - m w² + i c w) (substitute x = G e^{iwt} into the equation
// with e^{iwt} in place of sin wt). The homogeneous solutions are e^{r t} for
// the roots r of m r² + c r + k = 0, both real and negative as c² > 4 m k:
// r_fast = (-c - √(c² - 4mk)) / 2m, and r_slow = k / (m r_fast) (Vieta:
// r_fast r_slow = k/m; this form avoids the cancellation in -c + √...).
// x = Im(G e^{iwt}) + A e^{r_slow t} + B e^{r_fast t} from x(0) = v(0) = 0:
//   A + B = -Im G,   r_slow A + r_fast B = -w Re G   (v_particular(0) = w Re G)
// so A = (r_fast Im G - w Re G) / (r_slow - r_fast) and B = -Im G - A.
struct OscillatorState {
  double x, v;
};
inline OscillatorState forcedOscillatorExact(double t) {
  using C = std::complex<double>;
  const C G = kForce / C(kStiffness - kMass * kFrequency * kFrequency, kDamping * kFrequency);
  const double rFast =
      (-kDamping - std::sqrt(kDamping * kDamping - 4 * kMass * kStiffness)) / (2 * kMass);
  const double rSlow = kStiffness / (kMass * rFast);
  const double A = (rFast * G.imag() - kFrequency * G.real()) / (rSlow - rFast);
  const double B = -G.imag() - A;
  const C particular = G * std::exp(C(0, kFrequency * t));
  const double slow = A * std::exp(rSlow * t), fast = B * std::exp(rFast * t);
  return {particular.imag() + slow + fast,
          (C(0, kFrequency) * particular).imag() + rSlow * slow + rFast * fast};
}

} // namespace mech::test
