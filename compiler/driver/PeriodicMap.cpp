// The return map and its Jacobian (driver/PeriodicMap.h).
#include "driver/PeriodicMap.h"

#include "driver/ContactRun.h"
#include "driver/ContactTolerances.h"
#include "driver/Interrupt.h"
#include "runtime/ImpactLaw.h"
#include "support/NumberText.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

// More jumps than this within one period is a motion that chatters (a
// ball coming to rest by ever smaller bounces), not a periodic one.
constexpr long kMaxJumpsPerPeriod = 10000;

// A crossing of the section this soon after the start is the start itself
// (its state lies on the section to rounding), not a return.
double startSlack(double until) {
  return 1e-9 * std::max(1.0, until);
}

// A B for square A and B (N x N, row-major).
std::vector<double> product(const std::vector<double> &A, const double *B, size_t N) {
  std::vector<double> AB(N * N, 0.0);
  for (size_t i = 0; i < N; ++i)
    for (size_t k = 0; k < N; ++k)
      for (size_t j = 0; j < N; ++j)
        AB[i * N + j] += A[i * N + k] * B[k * N + j];
  return AB;
}

// y = A x for A (rows x cols, row-major).
void multiply(const std::vector<double> &A, const double *x, size_t rows, size_t cols, double *y) {
  for (size_t i = 0; i < rows; ++i) {
    double s = 0;
    for (size_t k = 0; k < cols; ++k)
      s += A[i * cols + k] * x[k];
    y[i] = s;
  }
}

} // namespace

std::string returnMapRefusal(const mechanics::Equations &eq, std::optional<size_t> section,
                             Location &where) {
  if (!eq.frictions.empty())
    return eq.model +
           " has frictions: periodic motions are found for motions in free flight between "
           "impacts and resets";
  if (!eq.inputs.empty())
    return eq.model + " has inputs (" + eq.inputs.front().name +
           "): write a periodic forcing as a function of t for mech periodic";
  for (size_t e = 0; e < eq.events.size(); ++e)
    if ((section == e || !eq.events[e].resets.empty()) &&
        eq.events[e].g.has(sym::kHasAcceleration | sym::kHasMultiplier)) {
      where = eq.events[e].location;
      return "event '" + eq.events[e].name +
             "' reads accelerations or multipliers, so a perturbation's passage through it "
             "has no derivative: write it with coordinates, velocities and t";
    }
  return "";
}

ReturnMap::ReturnMap(const mechanics::Equations &equations, mechanics::Kernels &kernels,
                     std::vector<double> params, ReturnMapSetup setup)
    : eq_(equations), kernels_(kernels), params_(std::move(params)), setup_(setup),
      n_(equations.coordinates.size()), N_(2 * n_), stateJacobian_(kernels),
      events_(equations, kernels, params_), contacts_(equations, params_.size()),
      jumps_(equations, params_.size()) {
  for (size_t e = 0; e < eq_.events.size(); ++e) {
    const mechanics::Equations::Event &event = eq_.events[e];
    if (setup_.section && *setup_.section == e)
      watched_.push_back({Watched::Section, e});
    else if (!event.resets.empty())
      watched_.push_back({Watched::Reset, e});
    else if (event.stop)
      watched_.push_back({Watched::Stop, e});
    else
      continue;
    eventOptions_.events.push_back({event.direction, true});
  }
  for (size_t c = 0; c < eq_.contacts.size(); ++c) {
    watched_.push_back({Watched::Impact, c});
    eventOptions_.events.push_back({-1, true});
  }
  eventOptions_.functions = [this](double t, const double *y, double *g) {
    return watchedFunctions(t, y, g);
  };
  J_.resize(N_ * N_);
  g_.resize(eq_.events.size());
  restitution_ = contacts_.restitutions(params_);
}

std::string ReturnMap::watchedName(const Watched &w) const {
  return w.kind == Watched::Impact ? "contact '" + eq_.contacts[w.index].gap.name + "'"
                                   : "event '" + eq_.events[w.index].name + "'";
}

int ReturnMap::watchedFunctions(double t, const double *y, double *g) {
  if (!eq_.events.empty())
    if (int status = events_(t, y, g_.data()))
      return status;
  if (!eq_.contacts.empty())
    contacts_.evaluate(t, y, params_);
  for (size_t i = 0; i < watched_.size(); ++i)
    g[i] = watched_[i].kind == Watched::Impact ? contacts_.gaps()[watched_[i].index]
                                               : g_[watched_[i].index];
  return 0;
}

// x' = F(t, x) and, with the Jacobian, Phi' = J Phi (Phi row-major after x).
int ReturnMap::augmentedRhs(double t, const double *y, double *ydot) {
  if (int status = kernels_.rhs(t, y, params_.data(), ydot))
    return status;
  if (!withJacobian_)
    return 0;
  if (int status = stateJacobian_(t, y, params_.data(), J_.data()))
    return status;
  const double *phi = y + N_;
  double *dphi = ydot + N_;
  for (size_t i = 0; i < N_; ++i) {
    double *row = dphi + i * N_;
    std::fill(row, row + N_, 0.0);
    for (size_t k = 0; k < N_; ++k) {
      double a = J_[i * N_ + k];
      if (a == 0)
        continue;
      const double *from = phi + k * N_;
      for (size_t j = 0; j < N_; ++j)
        row[j] += a * from[j];
    }
  }
  return 0;
}

bool ReturnMap::keepsConstraints(double t, const double *x) {
  const size_t m = eq_.constraints.size();
  if (m == 0)
    return true;
  constraintOut_.resize(2 * m + m * n_);
  kernels_.constraints(t, x, params_.data(), constraintOut_.data());
  double scale = 1;
  for (size_t i = 0; i < N_; ++i)
    scale = std::max(scale, std::abs(x[i]));
  for (size_t k = 0; k < 2 * m; ++k)
    if (!(std::abs(constraintOut_[k]) <= 1e-8 * scale))
      return false;
  return true;
}

void ReturnMap::constraintRows(const std::vector<double> &x, std::vector<double> &residuals,
                               std::vector<double> &rows) {
  const size_t m = eq_.constraints.size();
  residuals.clear();
  rows.clear();
  if (m == 0)
    return;
  const double t = setup_.t0;
  std::vector<double> out(2 * m + m * n_), plus(out.size()), minus(out.size());
  kernels_.constraints(t, x.data(), params_.data(), out.data());
  const double *C = out.data() + 2 * m;
  for (size_t k = 0; k < m; ++k) {
    if (!eq_.constraints[k].holonomic)
      continue;
    residuals.push_back(out[k]);
    rows.insert(rows.end(), C + k * n_, C + (k + 1) * n_);
    rows.insert(rows.end(), n_, 0.0);
  }
  // dpsi/dq by central differences; dpsi/dq' = C.
  std::vector<double> dpsi(m * n_), probe = x;
  for (size_t j = 0; j < n_; ++j) {
    double h = 1e-6 * std::max(1.0, std::abs(x[j]));
    probe[j] = x[j] + h;
    kernels_.constraints(t, probe.data(), params_.data(), plus.data());
    probe[j] = x[j] - h;
    kernels_.constraints(t, probe.data(), params_.data(), minus.data());
    probe[j] = x[j];
    for (size_t k = 0; k < m; ++k)
      dpsi[k * n_ + j] = (plus[m + k] - minus[m + k]) / (2 * h);
  }
  for (size_t k = 0; k < m; ++k) {
    residuals.push_back(out[m + k]);
    rows.insert(rows.end(), dpsi.begin() + static_cast<long>(k * n_),
                dpsi.begin() + static_cast<long>((k + 1) * n_));
    rows.insert(rows.end(), C + k * n_, C + (k + 1) * n_);
  }
}

std::string ReturnMap::restingAt(const std::vector<double> &x) {
  double scale = 1;
  for (double v : x)
    scale = std::max(scale, std::abs(v));
  const double tiny = 1e-8 * scale;
  std::vector<double> xdot(N_);
  if (kernels_.rhs(setup_.t0, x.data(), params_.data(), xdot.data()) == 0 &&
      std::all_of(xdot.begin(), xdot.end(), [&](double v) { return std::abs(v) <= tiny; }))
    return "a state of rest (its velocities and accelerations 0 to 1e-8)";
  if (!eq_.contacts.empty())
    contacts_.evaluate(setup_.t0, x.data(), params_);
  for (size_t c = 0; c < eq_.contacts.size(); ++c)
    if (std::abs(contacts_.gaps()[c]) <= tiny && std::abs(contacts_.rates()[c]) <= tiny)
      return watchedName({Watched::Impact, c}) + " at rest (its gap and rate 0 to 1e-8)";
  return "";
}

std::pair<double, double> ReturnMap::energyTerms(const double *x) {
  double TV[2] = {0, 0};
  kernels_.energy(setup_.t0, x, params_.data(), TV);
  return {TV[0], TV[1]};
}

double ReturnMap::energy(const double *x) {
  auto [T, V] = energyTerms(x);
  return T + V;
}

double ReturnMap::energyScale(const double *x) {
  auto [T, V] = energyTerms(x);
  return std::abs(T) + std::abs(V);
}

// The velocities after an impact at contact `contact` (and every other
// contact touching then), by Newton's law (runtime/ImpactLaw.h).
bool ReturnMap::impactMap(size_t contact, double t, const double *x, double *out,
                          std::string &error) {
  runtime::ImpactProblem problem;
  problem.n = n_;
  problem.M.resize(n_ * n_);
  problem.velocity.assign(x + n_, x + N_);
  if (kernels_.massMatrix(t, x, params_.data(), problem.M.data()) != 0) {
    error = "the mass matrix is singular at the impact of " +
            watchedName({Watched::Impact, contact}) + " at t = " + shortestNumber(t);
    return false;
  }
  // The constraints the velocities keep: A v + a = 0 after the impact.
  impactConstraintRows(kernels_, eq_.constraints.size(), t, x, params_.data(), problem);
  contacts_.evaluate(t, x, params_);
  for (size_t i = 0; i < eq_.contacts.size(); ++i) {
    if (i != contact && std::abs(contacts_.gaps()[i]) > kTouchingGap)
      continue;
    const double *row = contacts_.rows() + i * n_;
    problem.G.insert(problem.G.end(), row, row + n_);
    double rate = contacts_.rates()[i], offset = rate;
    for (size_t j = 0; j < n_; ++j)
      offset -= row[j] * problem.velocity[j];
    problem.b.push_back(offset);
    problem.r.push_back(-restitution_[i] * std::min(rate, 0.0));
  }
  runtime::ImpactSolution solution = runtime::solveImpact(problem);
  if (solution.status != runtime::ImpactStatus::Solved) {
    error = "the impact of " + watchedName({Watched::Impact, contact}) +
            " at t = " + shortestNumber(t) + " has no solution";
    return false;
  }
  std::copy(x, x + n_, out);
  std::copy(solution.velocity.begin(), solution.velocity.end(), out + n_);
  return true;
}

bool ReturnMap::jumpDerivatives(const Watched &w, double t, const double *x,
                                std::vector<double> &Rx, std::vector<double> &Rt,
                                std::vector<double> &gx, double &gt, std::string &error) {
  Rx.assign(N_ * N_, 0.0);
  Rt.assign(N_, 0.0);
  gx.assign(N_, 0.0);
  if (w.kind != Watched::Impact) {
    jumps_.eventGradient(w.index, t, x, params_, gx.data(), gt);
    jumps_.resetJacobian(w.index, t, x, params_, Rx.data(), Rt.data());
    return true;
  }
  contacts_.evaluate(t, x, params_);
  const double *row = contacts_.rows() + w.index * n_;
  std::copy(row, row + n_, gx.begin());
  gt = contacts_.rates()[w.index];
  for (size_t j = 0; j < n_; ++j)
    gt -= row[j] * x[n_ + j];
  // Newton's law is piecewise smooth in the state (its active set fixed
  // near one impact): central differences, each step scaled to its value.
  std::vector<double> probe(x, x + N_), plus(N_), minus(N_);
  for (size_t k = 0; k <= N_; ++k) {
    double base = k < N_ ? x[k] : t;
    double h = 1e-6 * std::max(1.0, std::abs(base));
    double tPlus = t, tMinus = t;
    if (k < N_)
      probe[k] = base + h;
    else
      tPlus = t + h;
    if (!impactMap(w.index, tPlus, probe.data(), plus.data(), error))
      return false;
    if (k < N_)
      probe[k] = base - h;
    else
      tMinus = t - h;
    if (!impactMap(w.index, tMinus, probe.data(), minus.data(), error))
      return false;
    if (k < N_)
      probe[k] = base;
    for (size_t i = 0; i < N_; ++i) {
      double d = (plus[i] - minus[i]) / (2 * h);
      if (k < N_)
        Rx[i * N_ + k] = d;
      else
        Rt[i] = d;
    }
  }
  return true;
}

void ReturnMap::energyChange(const double *before, const double *after, ReturnMapValue &value) {
  auto [T, V] = energyTerms(before);
  double scale = std::max(std::abs(T) + std::abs(V), 1e-300);
  value.energyJump = std::max(value.energyJump, std::abs(energy(after) - (T + V)) / scale);
}

bool ReturnMap::jump(const Watched &w, double t, double *x, double *phi, ReturnMapValue &value,
                     std::string &error) {
  std::vector<double> before(x, x + N_);
  if (w.kind == Watched::Impact) {
    if (!impactMap(w.index, t, before.data(), x, error))
      return false;
    contacts_.evaluate(t, x, params_);
    if (contacts_.rates()[w.index] <= kRestingRate) {
      error = watchedName(w) + " comes to rest at t = " + shortestNumber(t) +
              ": mech periodic follows motions in free flight between impacts";
      return false;
    }
  } else {
    contacts_.reset(w.index, t, before.data(), params_, x);
    if (!keepsConstraints(t, x)) {
      error = "the resets of " + watchedName(w) + " at t = " + shortestNumber(t) +
              " break the constraints";
      return false;
    }
  }
  energyChange(before.data(), x, value);
  if (!phi)
    return true;
  std::vector<double> S;
  if (!saltation(w, t, before.data(), x, S, error))
    return false;
  std::vector<double> carried = product(S, phi, N_);
  std::copy(carried.begin(), carried.end(), phi);
  return true;
}

// The matrix that carries a perturbation across the jump of `w` at t from
// `before` to `after`: S = R_x + (f+ - R_x f- - R_t) g_x / (g_x f- + g_t).
// Without `after` (the section, where the period ends) the f+ term is left
// out: the perturbation is taken at the crossing, not at a fixed time.
bool ReturnMap::saltation(const Watched &w, double t, const double *before, const double *after,
                          std::vector<double> &S, std::string &error) {
  std::vector<double> Rt, gx, fMinus(N_), fPlus(N_, 0.0), RxF(N_);
  double gt = 0;
  if (!jumpDerivatives(w, t, before, S, Rt, gx, gt, error))
    return false;
  if (kernels_.rhs(t, before, params_.data(), fMinus.data()) != 0 ||
      (after && kernels_.rhs(t, after, params_.data(), fPlus.data()) != 0)) {
    error = "the equations cannot be evaluated at the jump of " + watchedName(w) +
            " at t = " + shortestNumber(t);
    return false;
  }
  double rate = gt;
  for (size_t i = 0; i < N_; ++i)
    rate += gx[i] * fMinus[i];
  if (!(std::abs(rate) > 0)) {
    error =
        "the motion touches " + watchedName(w) + " without crossing it at t = " + shortestNumber(t);
    return false;
  }
  multiply(S, fMinus.data(), N_, N_, RxF.data());
  for (size_t i = 0; i < N_; ++i) {
    double c = ((after ? fPlus[i] : 0.0) - RxF[i] - Rt[i]) / rate;
    for (size_t j = 0; j < N_; ++j)
      S[i * N_ + j] += c * gx[j];
  }
  return true;
}

// At the section's crossing (t, y): P, the period, and dP/dx0.
bool ReturnMap::finish(double t, const double *y, ReturnMapValue &value, std::string &error) {
  const Watched section{Watched::Section, *setup_.section};
  value.before.assign(y, y + N_);
  value.x = value.before;
  contacts_.reset(section.index, t, value.before.data(), params_, value.x.data());
  if (!keepsConstraints(t, value.x.data())) {
    error = "the resets of section '" + eq_.events[section.index].name +
            "' at t = " + shortestNumber(t) + " break the constraints";
    return false;
  }
  energyChange(value.before.data(), value.x.data(), value);
  if (!withJacobian_)
    return true;
  // dP = (R_x - (R_x f- + R_t) g_x / (g_x f- + g_t)) Phi.
  std::vector<double> A;
  if (!saltation(section, t, y, nullptr, A, error))
    return false;
  value.jacobian = product(A, y + N_, N_);
  return true;
}

std::optional<ReturnMapValue> ReturnMap::operator()(const std::vector<double> &x0, bool jacobian,
                                                    std::string &error) {
  std::optional<ReturnMapValue> total;
  for (int k = 0; k < setup_.returns; ++k) {
    // Each forcing period starts where the one before ended.
    double start = setup_.t0 + (setup_.section ? 0.0 : k * setup_.forcingPeriod);
    std::optional<ReturnMapValue> v = once(total ? total->x : x0, start, jacobian, error);
    if (!v)
      return std::nullopt;
    if (!total) {
      total = std::move(v);
      continue;
    }
    total->returnStates.push_back(total->x);
    if (jacobian) // d(P_k o ... o P_1)/dx0: the chain rule
      total->jacobian = product(v->jacobian, total->jacobian.data(), N_);
    total->x = std::move(v->x);
    total->before = std::move(v->before);
    total->period += v->period;
    total->resets += v->resets, total->impacts += v->impacts;
    total->steps += v->steps, total->rhsEvaluations += v->rhsEvaluations;
    total->energyJump = std::max(total->energyJump, v->energyJump);
  }
  return total;
}

std::optional<ReturnMapValue> ReturnMap::once(const std::vector<double> &x0, double start,
                                              bool jacobian, std::string &error) {
  withJacobian_ = jacobian;
  std::vector<double> y(x0);
  if (jacobian) {
    y.resize(N_ + N_ * N_, 0.0);
    for (size_t i = 0; i < N_; ++i)
      y[N_ + i * N_ + i] = 1;
  }
  const bool strobe = !setup_.section;
  const double tEnd = start + (strobe ? setup_.forcingPeriod : setup_.until);
  double t = start;
  ReturnMapValue value;
  runtime::RightHandSide rhs = [this](double tt, const double *yy, double *dy) {
    return augmentedRhs(tt, yy, dy);
  };
  for (long jumps = 0;; ++jumps) {
    if (jumps > kMaxJumpsPerPeriod) {
      error = "more than " + std::to_string(kMaxJumpsPerPeriod) +
              " impacts and resets before the period ends (at t = " + shortestNumber(t) + ")";
      return std::nullopt;
    }
    runtime::IntegratorOptions o;
    o.method = runtime::Method::Dop853;
    o.t0 = t;
    o.tEnd = tEnd;
    o.dt = std::max(tEnd - t, 1e-300);
    o.rtol = setup_.rtol;
    o.atol = setup_.atol;
    o.step = 0;
    o.events = eventOptions_;
    double tLast = t;
    std::vector<double> yLast = y;
    auto keep = [&](double ts, const double *ys) {
      tLast = ts;
      std::copy(ys, ys + y.size(), yLast.begin());
      return !interruptRequested(); // Ctrl-C in the REPL
    };
    runtime::IntegrationResult result = runtime::integrate(rhs, y, o, keep);
    value.steps += result.stats.accepted;
    value.rhsEvaluations += result.stats.rhsEvaluations;
    if (result.outcome == runtime::Outcome::Finished) {
      if (!strobe) {
        error = "the motion does not cross section '" + eq_.events[*setup_.section].name +
                "' again within t = " + shortestNumber(setup_.until) + " (--until)";
        return std::nullopt;
      }
      value.before.assign(yLast.begin(), yLast.begin() + static_cast<long>(N_));
      value.x = value.before;
      value.period = setup_.forcingPeriod;
      if (jacobian)
        value.jacobian.assign(yLast.begin() + static_cast<long>(N_), yLast.end());
      return value;
    }
    if (result.outcome == runtime::Outcome::Interrupted) {
      error = "interrupted at t = " + shortestNumber(tLast);
      return std::nullopt;
    }
    if (result.outcome != runtime::Outcome::Stopped) {
      error = "the motion could not be followed: " + result.message();
      return std::nullopt;
    }
    const Watched &w = watched_[static_cast<size_t>(result.event)];
    t = tLast;
    y = yLast;
    switch (w.kind) {
    case Watched::Section:
      if (t - start <= startSlack(setup_.until))
        continue;
      if (!finish(t, y.data(), value, error))
        return std::nullopt;
      value.period = t - start;
      return value;
    case Watched::Stop:
      error = "the motion reaches stop event '" + eq_.events[w.index].name +
              "' at t = " + shortestNumber(t);
      return std::nullopt;
    case Watched::Reset:
    case Watched::Impact:
      if (!jump(w, t, y.data(), jacobian ? y.data() + N_ : nullptr, value, error))
        return std::nullopt;
      ++(w.kind == Watched::Impact ? value.impacts : value.resets);
      break;
    }
  }
}

} // namespace mech::driver
