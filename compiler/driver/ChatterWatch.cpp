// The switches' arguments on the interpreter (evaluated a few times per
// step, as the events' functions are: driver/StateProgram), and the
// crossings counted in a sliding window.
#include "driver/ChatterWatch.h"

#include "support/NumberText.h"
#include "symbolic/Print.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

std::vector<sym::Expr> argumentsOf(const mechanics::Equations &equations) {
  std::vector<sym::Expr> arguments;
  for (const mechanics::Equations::VelocitySwitch &s : equations.velocitySwitches)
    arguments.push_back(s.argument);
  return arguments;
}

} // namespace

ChatterWatch::ChatterWatch(const mechanics::Equations &equations, const std::vector<double> &params,
                           mechanics::InputFill fill)
    : coordinates_(equations.coordinates.size()), params_(params), fill_(std::move(fill)),
      arguments_(argumentsOf(equations), params.size(), equations.coordinates.size()),
      recent_(equations.velocitySwitches.size()) {}

void ChatterWatch::evaluate(double t, const double *x, double *g) {
  if (fill_) {
    filled_ = params_;
    fill_(t, x, filled_.data());
  }
  const std::vector<double> &values = arguments_(fill_ ? filled_ : params_, t, x, x + coordinates_);
  std::copy(values.begin(), values.end(), g);
}

void ChatterWatch::crossed(size_t i, double t) {
  std::deque<double> &times = recent_[i];
  times.push_back(t);
  while (times.size() > kChatterCrossings)
    times.pop_front();
  if (!chattering_ && times.size() == kChatterCrossings &&
      times.back() - times.front() <= kChatterWindow * std::max(1.0, std::abs(t)))
    chattering_ = i;
}

std::string ChatterWatch::message(const mechanics::Equations &equations) const {
  const size_t i = *chattering_;
  const std::string argument = sym::toMech(equations.velocitySwitches[i].argument);
  const std::deque<double> &times = recent_[i];
  return "the force with sign(" + argument +
         ") switches back and forth: " + std::to_string(times.size()) +
         " times between t = " + shortestNumber(times.front()) + " and " +
         shortestNumber(times.back()) + ", where " + argument +
         " sticks at 0, which a sign() cannot hold (it chatters); write the force as a "
         "friction that sticks and slips: `friction NAME: slip " +
         argument + " normal N static MU_S kinetic MU_K` (docs/language.md)";
}

} // namespace mech::driver
