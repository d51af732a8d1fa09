// The impact step of a ContactRun (driver/ContactRun.h): the impulsive
// equations of the contacts that touch at the instant, solved with Newton's
// law (runtime/ImpactLaw.h); which of them rest afterwards; the record.
#include "driver/ContactRun.h"
#include "driver/ContactTolerances.h"

#include "runtime/ImpactLaw.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

// Why an impact could not be solved; empty when it was.
std::string impactError(const runtime::ImpactSolution &solution, size_t touching) {
  switch (solution.status) {
  case runtime::ImpactStatus::TooManyContacts:
    return std::to_string(touching) + " contacts touch at once, more than the " +
           std::to_string(runtime::kMaxImpactContacts) + " an impact is solved for";
  case runtime::ImpactStatus::Singular:
    return "the impact's equations are singular (contacts or constraints that fix the same "
           "motion, or a direction without inertia)";
  case runtime::ImpactStatus::NoSolution:
    return "the impact has no solution with nonnegative impulses";
  default:
    return "";
  }
}

} // namespace

void impactConstraintRows(mechanics::Kernels &kernels, size_t m, double t, const double *x,
                          const double *p, runtime::ImpactProblem &problem) {
  if (m == 0)
    return;
  const size_t n = problem.n;
  std::vector<double> residuals(2 * m + m * n);
  kernels.constraints(t, x, p, residuals.data());
  problem.A.assign(residuals.begin() + static_cast<long>(2 * m), residuals.end());
  problem.a.clear();
  for (size_t k = 0; k < m; ++k) {
    double offset = residuals[m + k];
    for (size_t j = 0; j < n; ++j)
      offset -= problem.A[k * n + j] * problem.velocity[j];
    problem.a.push_back(offset);
  }
}

// M, the bilateral rows A v + a = psi and the velocity before, at (t, x).
bool ContactRun::impactProblem(double t, const std::vector<double> &x, const std::vector<double> &p,
                               runtime::ImpactProblem &problem, std::string &error) {
  const size_t n = eq_.coordinates.size(), m = eq_.constraints.size();
  problem.n = n;
  problem.M.resize(n * n);
  problem.velocity.assign(x.begin() + static_cast<long>(n), x.end());
  if (kernels_.massMatrix(t, x.data(), p.data(), problem.M.data()) != 0) {
    error = "the mass matrix is singular at the impact";
    return false;
  }
  impactConstraintRows(kernels_, m, t, x.data(), p.data(), problem);
  return true;
}

// The touching contacts' rows G, offsets b (rate = G v + b) and least
// rates after the impact: -e times the closing rate (e = 0 where
// `inelastic`), from the contacts' functions evaluated before it.
void ContactRun::contactRows(const std::vector<size_t> &touching,
                             const std::vector<bool> &inelastic,
                             runtime::ImpactProblem &problem) const {
  const size_t n = problem.n;
  problem.G.clear();
  problem.b.clear();
  problem.r.clear();
  for (size_t c = 0; c < touching.size(); ++c) {
    size_t i = touching[c];
    const double *row = contacts_.rows() + i * n;
    problem.G.insert(problem.G.end(), row, row + n);
    double offset = contacts_.rates()[i];
    for (size_t j = 0; j < n; ++j)
      offset -= row[j] * problem.velocity[j];
    problem.b.push_back(offset);
    double e = inelastic[c] ? 0.0 : restitution_[i];
    problem.r.push_back(-e * std::min(contacts_.rates()[i], 0.0));
  }
}

// Which touching contacts rest after the impact that left the state x:
// pressed, and not bouncing higher than a touching gap nor longer than the
// shortest flight. `restsAt` gets when each rests (the accumulation time
// of its bounces); the next segment's first step is set by the shortest
// bounce that goes on.
std::vector<bool> ContactRun::restingAfter(double t, const std::vector<double> &x,
                                           const std::vector<size_t> &touching,
                                           std::vector<double> &restsAt) {
  std::vector<bool> rests(touching.size(), false);
  restsAt.assign(touching.size(), t);
  for (size_t i : touching)
    resting_[i] = false;
  const std::vector<double> accelerations = gapAccelerations(t, x);
  for (size_t c = 0; c < touching.size(); ++c) {
    size_t i = touching[c];
    double rate = contacts_.rates()[i], a = accelerations[i];
    double flight = a < 0 ? 2 * rate / -a : INFINITY;
    // A bounce that would rise less than a touching gap is one the gap's
    // rounding may not resolve (1e-16 of its terms): it rests too.
    double rise = a < 0 ? rate * rate / (2 * -a) : INFINITY;
    rests[c] = a < 0 && (rate <= kRestingRate || rise < kTouchingGap ||
                         flight < kShortestFlight * std::max(1.0, t));
    // Bounces whose flights shrink by e each accumulate at t + flight /
    // (1 - e) (exact for a constant contact acceleration).
    double e = restitution_[i];
    if (rests[c] && rate > 0 && e < 1)
      restsAt[c] = t + flight / (1 - e);
    if (!rests[c] && a < 0 && rate > 0)
      shortFlight_ = shortFlight_ > 0 ? std::min(shortFlight_, flight / 8) : flight / 8;
  }
  return rests;
}

// A free contact's gap closed at t: the impact of every touching contact;
// those that rest afterwards end it without rebound (e = 0).
bool ContactRun::impact(size_t contact, double t, std::vector<double> &x, std::string &error) {
  const size_t n = eq_.coordinates.size();
  const std::vector<double> &p = filledParams(t, x.data());
  contacts_.evaluate(t, x.data(), p);
  std::vector<size_t> touching;
  std::vector<bool> inelastic;
  for (size_t i = 0; i < eq_.contacts.size(); ++i)
    if (i == contact || resting_[i] || contacts_.gaps()[i] <= kTouchingGap) {
      touching.push_back(i);
      inelastic.push_back(resting_[i]);
    }
  runtime::ImpactProblem problem;
  if (!impactProblem(t, x, p, problem, error))
    return false;
  contactRows(touching, inelastic, problem);
  runtime::ImpactSolution solution = runtime::solveImpact(problem);
  if (!(error = impactError(solution, touching.size())).empty())
    return false;
  const std::vector<double> before = x;
  const std::vector<bool> previous = resting_;
  std::copy(solution.velocity.begin(), solution.velocity.end(), x.begin() + static_cast<long>(n));
  std::vector<double> restsAt;
  std::vector<bool> rests = restingAfter(t, x, touching, restsAt);
  bool anyNew = false;
  for (size_t c = 0; c < touching.size(); ++c)
    anyNew = anyNew || (rests[c] && !previous[touching[c]]);
  if (anyNew) {
    contacts_.evaluate(t, before.data(), p);
    contactRows(touching, rests, problem);
    solution = runtime::solveImpact(problem);
    if (!(error = impactError(solution, touching.size())).empty())
      return false;
    std::copy(solution.velocity.begin(), solution.velocity.end(), x.begin() + static_cast<long>(n));
  }
  for (size_t c = 0; c < touching.size(); ++c)
    resting_[touching[c]] = rests[c];
  recordImpact(t, before, x, touching, solution.impulse);
  for (size_t c = 0; c < touching.size(); ++c)
    if (rests[c] && !previous[touching[c]]) {
      report_.switches.push_back({restsAt[c], touching[c], true});
      if (hooks_.contact)
        hooks_.contact(touching[c], "rests", restsAt[c], x.data(), nullptr);
    }
  return true;
}

// The impact in the report and the log: the contacts that pushed, their
// impulses, the velocities and the kinetic energy taken.
void ContactRun::recordImpact(double t, const std::vector<double> &before,
                              const std::vector<double> &after, const std::vector<size_t> &touching,
                              const std::vector<double> &impulses) {
  const size_t n = eq_.coordinates.size();
  ImpactRecord record;
  record.t = t;
  for (size_t c = 0; c < touching.size(); ++c)
    if (impulses[c] > 0) {
      record.contacts.push_back(touching[c]);
      record.impulses.push_back(impulses[c]);
      ++report_.impactsPerContact[touching[c]];
    }
  record.before.assign(before.begin() + static_cast<long>(n), before.end());
  record.after.assign(after.begin() + static_cast<long>(n), after.end());
  record.energyLost = energy(t, before.data()).first - energy(t, after.data()).first;
  report_.energyLostAtImpacts += record.energyLost;
  ++report_.impactCount;
  if (hooks_.energyJump)
    hooks_.energyJump(-record.energyLost);
  if (hooks_.contact)
    for (size_t pushed : record.contacts)
      hooks_.contact(pushed, "impact", t, before.data(), &record);
  if (report_.impacts.size() < kKeptImpacts)
    report_.impacts.push_back(std::move(record));
}

} // namespace mech::driver
