// Deciding whether an expression is identically zero, by an exact
// randomized identity test on the DAG (Schwartz-Zippel over a prime field).
//
// The class decided: rational functions in the symbols and in sin/cos of
// angle atoms and exp of exponent atoms. The atoms are chosen so that every
// trigonometric argument is an integer combination of them: each argument is
// written as rational multiples of base terms (symbols, or non-linear
// subexpressions taken whole) plus a constant, and per base term the lcm D of
// its denominators makes base/D the atom (sin(th/2) and sin(th) share the
// atom th/2). A constant angle is one more atom, which is conservative: the
// test may fail to prove sin(pi) = 0 but never calls a non-zero expression
// zero. sinh, cosh, tanh and exp go through exp of their atoms the same way.
// Anything else (non-integer powers, abs, atan2, log, ...) is an opaque
// atom: a free value for the whole subexpression, which is sound because an
// identity that holds for a free value holds for the real one.
//
// Each trial evaluates the DAG once, memoised on node identity, modulo a
// prime near 2^61: every symbol and opaque atom a random element, every angle
// atom's (cos, sin) a random point of c^2 + s^2 = 1, every exponent atom's
// exp a random non-zero element. A trial that divides by zero is repeated at
// new points. A non-zero rational function of degree d (numerator and
// denominators, after the circle parametrisation) vanishes at a random point
// with probability at most d/p; kZeroTrials trials alternate between two
// primes, so a wrong "zero" has probability at most (d/2^61)^kZeroTrials.
// Exact constants are field elements; floating-point constants are the exact
// binary rationals they store, which is what the engine's arithmetic means.
#pragma once

#include "symbolic/Expr.h"

#include <vector>

namespace mech::sym {

inline constexpr int kZeroTrials = 4;

// True when e is proven identically zero (with the error bound above);
// false when it is not, or when the test could not decide (then e is
// treated as non-zero, never the other way round).
bool isIdenticallyZero(const Expr &e);

// isIdenticallyZero of each, in one pass: the trials evaluate the union of
// the DAGs once, so shared subexpressions (a mass matrix) cost once.
// With fewer trials the bound is (d/2^61)^trials: one trial suffices where
// a wrong "zero" only lets through an error of exact algebra (Readable.cpp).
std::vector<bool> areIdenticallyZero(const std::vector<Expr> &exprs, int trials = kZeroTrials);

// Each expression proven identically zero replaced by 0, in place.
void zeroIdenticallyZero(std::vector<Expr> &exprs);

// isIdenticallyZero(a - b).
bool areEqual(const Expr &a, const Expr &b);

// 0 when e is proven identically zero, e otherwise.
Expr zeroIfIdenticallyZero(const Expr &e);

// Whether e depends on the time t explicitly: t appears, de/dt (the
// coordinates and velocities held) is not proven zero, and t does not
// cancel from e's trigonometric normal form either. A body turned at a
// prescribed rate has t in its rotation and none in its energy. Undecided
// counts as dependent.
bool dependsOnTime(const Expr &e);

} // namespace mech::sym
