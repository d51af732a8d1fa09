// The coefficients of the Dormand–Prince 5(4) pair (Dormand & Prince 1980) and
// of its continuous extension of order 4 (Shampine 1986), as tabulated in
// Hairer, Nørsett & Wanner, "Solving ODEs I", and used by Hairer's DOPRI5.
// Stages are numbered from 0; stage 6 is evaluated at the new state (FSAL:
// first same as last), so the fifth-order weights are row 6 of a.
#pragma once

namespace mech::runtime::dopri5 {

inline constexpr int kStages = 7;

inline constexpr double c[kStages] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};

inline constexpr double a[kStages][kStages] = {
    {},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};

// The fifth-order weights minus the embedded fourth-order ones.
inline constexpr double e[kStages] = {71.0 / 57600,      0,          -71.0 / 16695, 71.0 / 1920,
                                      -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

// The dense output's fourth-order term.
inline constexpr double d[kStages] = {
    -12715105075.0 / 11282082432.0,  0,
    87487479700.0 / 32700410799.0,   -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0};

} // namespace mech::runtime::dopri5
