// runtime/EnvelopeSolve against the first-kind equations solved as one
// linear system by Eigen (ConstrainedProblems.h): banded systems given in a
// scrambled order, coordinates without inertia, a constraint given twice,
// and the plans it refuses.
#include "runtime/EnvelopeSolve.h"
#include "runtime/DenseSolve.h"

#include "ConstrainedProblems.h"

using namespace mech::runtime;

using namespace mech::testing;

TEST_CASE("envelope solve: a banded system in a scrambled order, against the whole system") {
  Problem p = banded(41, 20, {}, 7);
  std::vector<int32_t> plan = planEnvelopeSolve(p.n, p.m, p.nonzeroM, p.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  // Reverse Cuthill-McKee finds the band: M + s C^T C couples each natural
  // coordinate with the two after it, so at most 3 entries per row.
  CHECK(envelopeEntries(plan.data()) <= 3 * p.n);
  std::vector<double> qdd(p.n), lambda(p.m);
  std::vector<double> before = p.Mf;
  REQUIRE(solveConstrainedEnvelope(plan.data(), p.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  CHECK(p.Mf == before); // the dynamics are read, not overwritten
  Eigen::VectorXd whole = solveWhole(p);
  requireClose(qdd, whole, 0);
  requireClose(lambda, whole, static_cast<long>(p.n));
}

TEST_CASE("envelope solve: coordinates without inertia that the constraints hold") {
  // Natural coordinates 1, 5 and 9 have no inertia: M + s C^T C is definite
  // because rows 0, 2 and 4 of C move them.
  Problem p = banded(30, 14, {1, 5, 9}, 11);
  std::vector<int32_t> plan = planEnvelopeSolve(p.n, p.m, p.nonzeroM, p.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  std::vector<double> qdd(p.n), lambda(p.m);
  REQUIRE(solveConstrainedEnvelope(plan.data(), p.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  Eigen::VectorXd whole = solveWhole(p);
  requireClose(qdd, whole, 0);
  requireClose(lambda, whole, static_cast<long>(p.n));
  // Without constraints on the last coordinates (natural 29, no inertia
  // there either) the system has no solution: singular, as the dense solve says.
  Problem loose = banded(30, 14, {1, 5, 9, 29}, 11);
  plan = planEnvelopeSolve(loose.n, loose.m, loose.nonzeroM, loose.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  CHECK(solveConstrainedEnvelope(plan.data(), loose.Mf.data(), qdd.data(), lambda.data()) ==
        kSolveSingular);
}

TEST_CASE("envelope solve: a constraint given twice moves as once, with the same reaction") {
  Problem once = banded(25, 10, {}, 3);
  Eigen::VectorXd whole = solveWhole(once);
  Problem twice = withRowTwice(once, 4);
  std::vector<int32_t> plan = planEnvelopeSolve(twice.n, twice.m, twice.nonzeroM, twice.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  std::vector<double> qdd(twice.n), lambda(twice.m);
  REQUIRE(solveConstrainedEnvelope(plan.data(), twice.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  requireClose(qdd, whole, 0);
  // The reaction C^T lambda is unique; lambda splits row 4's between its copies.
  std::vector<double> reaction = reactionOf(twice, lambda.data());
  std::vector<double> exact(whole.data() + once.n, whole.data() + once.n + once.m);
  std::vector<double> expectedReaction = reactionOf(once, exact.data());
  Eigen::VectorXd expected =
      Eigen::Map<Eigen::VectorXd>(expectedReaction.data(), static_cast<long>(once.n));
  requireClose(reaction, expected, 0);
}

TEST_CASE("envelope solve: no plan for few coordinates or a full mass matrix") {
  Problem small = banded(kEnvelopeSolveFrom - 1, 3, {}, 5);
  CHECK(planEnvelopeSolve(small.n, small.m, small.nonzeroM, small.nonzeroC).empty());
  CHECK(planEnvelopeSolve(small.n, 0, small.nonzeroM, {}).empty());
  // A chain in absolute angles: every entry of M is a function of the angles.
  const size_t n = 30, m = 2;
  std::vector<bool> full(n * n, true), rows(m * n, false);
  rows[0] = rows[n + 1] = true;
  CHECK(planEnvelopeSolve(n, m, full, rows).empty());
}
