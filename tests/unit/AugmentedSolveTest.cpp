// runtime/AugmentedSolve against the first-kind equations solved as one
// linear system by Eigen (ConstrainedProblems.h), with the dense
// factorization and within the envelope: banded systems, coordinates
// without inertia, a constraint given twice, and a light coordinate that
// no constraint holds (pivots judged against M, not the penalty).
#include "runtime/AugmentedSolve.h"
#include "runtime/DenseSolve.h"
#include "runtime/EnvelopeSolve.h"

#include "ConstrainedProblems.h"

using namespace mech::runtime;
using namespace mech::testing;

namespace {

// The multipliers are sums of alpha times the constraints' residuals, whose
// rounding (of C q'') alpha magnifies: about 1e-16 * 1e7 of their size
// (measured 2.6e-10 here); q'' itself is refined to rounding.
constexpr double kMultiplierAccuracy = 1e-8;

// The plan for p, or null (the dense factorization).
const int32_t *planFor(Problem &p, bool envelope, std::vector<int32_t> &plan) {
  if (!envelope)
    return nullptr;
  plan = planEnvelopeSolve(p.n, p.m, p.nonzeroM, p.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  return plan.data();
}

} // namespace

TEST_CASE("augmented solve: banded systems, dense and within the envelope") {
  for (bool envelope : {false, true}) {
    DYNAMIC_SECTION((envelope ? "envelope" : "dense")) {
      Problem p = banded(41, 20, {}, 7);
      std::vector<int32_t> plan;
      std::vector<double> qdd(p.n), lambda(p.m), before = p.Mf;
      REQUIRE(solveConstrainedAugmented(planFor(p, envelope, plan), p.n, p.m, p.Mf.data(),
                                        qdd.data(), lambda.data()) == kSolveOk);
      CHECK(p.Mf == before);
      Eigen::VectorXd whole = solveWhole(p);
      requireClose(qdd, whole, 0);
      requireClose(lambda, whole, static_cast<long>(p.n), kMultiplierAccuracy);
    }
  }
}

TEST_CASE("augmented solve: coordinates without inertia that the constraints hold") {
  for (bool envelope : {false, true}) {
    DYNAMIC_SECTION((envelope ? "envelope" : "dense")) {
      Problem p = banded(30, 14, {1, 5, 9}, 11);
      std::vector<int32_t> plan;
      std::vector<double> qdd(p.n), lambda(p.m);
      REQUIRE(solveConstrainedAugmented(planFor(p, envelope, plan), p.n, p.m, p.Mf.data(),
                                        qdd.data(), lambda.data()) == kSolveOk);
      Eigen::VectorXd whole = solveWhole(p);
      requireClose(qdd, whole, 0);
      requireClose(lambda, whole, static_cast<long>(p.n), kMultiplierAccuracy);
      // Natural coordinate 29 has no inertia and no constraint: singular.
      Problem loose = banded(30, 14, {1, 5, 9, 29}, 11);
      CHECK(solveConstrainedAugmented(planFor(loose, envelope, plan), loose.n, loose.m,
                                      loose.Mf.data(), qdd.data(),
                                      lambda.data()) == kSolveSingular);
    }
  }
}

TEST_CASE("augmented solve: a constraint given twice moves as once, with the same reaction") {
  for (bool envelope : {false, true}) {
    DYNAMIC_SECTION((envelope ? "envelope" : "dense")) {
      Problem once = banded(25, 10, {}, 3);
      Eigen::VectorXd whole = solveWhole(once);
      Problem twice = withRowTwice(once, 4);
      std::vector<int32_t> plan;
      std::vector<double> qdd(twice.n), lambda(twice.m);
      REQUIRE(solveConstrainedAugmented(planFor(twice, envelope, plan), twice.n, twice.m,
                                        twice.Mf.data(), qdd.data(), lambda.data()) == kSolveOk);
      requireClose(qdd, whole, 0);
      std::vector<double> exact(whole.data() + once.n, whole.data() + once.n + once.m);
      std::vector<double> expected = reactionOf(once, exact.data());
      requireClose(reactionOf(twice, lambda.data()),
                   Eigen::Map<Eigen::VectorXd>(expected.data(), static_cast<long>(once.n)), 0,
                   kMultiplierAccuracy);
      // The iteration from 0 splits the repeated row's multiplier evenly.
      CHECK(lambda[4] == Approx(lambda[10]).epsilon(1e-9));
    }
  }
}

TEST_CASE("augmented solve: a light coordinate no constraint holds is not taken for singular") {
  // x weighs 1e-9 kg and is free; y and z weigh 1 kg and are held equal
  // (C = [0, 1, -1]). By hand, with f = (3e-9, 1, 5): x'' = 3, and
  // y'' = z'' = (1 + 5) / 2 = 3 with lambda = (5 - 1) / 2 = 2 (y'' = 1 + lambda).
  // Against M + alpha C^T C's largest pivot (about 1e7 kg) x's would look
  // like zero.
  std::vector<double> Mf = {1e-9, 0, 0,  0, 1, 0, 0, 0, 1, // M
                            3e-9, 1, 5,                    // f
                            0,    1, -1,                   // C
                            0};                            // gamma
  std::vector<double> qdd(3), lambda(1);
  REQUIRE(solveConstrainedAugmented(nullptr, 3, 1, Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  CHECK(qdd[0] == Approx(3).epsilon(1e-12));
  CHECK(qdd[1] == Approx(3).epsilon(1e-12));
  CHECK(qdd[2] == Approx(3).epsilon(1e-12));
  CHECK(lambda[0] == Approx(2).epsilon(1e-9));
}
