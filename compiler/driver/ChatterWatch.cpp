// The switches' arguments on the interpreter (evaluated a few times per
// step, as the events' functions are), and the crossings counted in a
// sliding window.
#include "driver/ChatterWatch.h"

#include "support/NumberText.h"
#include "symbolic/Print.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

ChatterWatch::ChatterWatch(const mechanics::Equations &equations, size_t params)
    : layout_{params, equations.coordinates.size(), equations.constraints.size()},
      recent_(equations.velocitySwitches.size()) {
  std::vector<sym::Expr> arguments;
  for (const mechanics::Equations::VelocitySwitch &s : equations.velocitySwitches)
    arguments.push_back(s.argument);
  program_ = sym::Program(arguments, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
  inputs_.assign(layout_.size(), 0.0);
}

void ChatterWatch::evaluate(double t, const double *x, const std::vector<double> &params,
                            double *g) {
  std::copy(params.begin(), params.begin() + static_cast<long>(layout_.params), inputs_.begin());
  std::copy(x, x + 2 * layout_.coordinates, inputs_.begin() + static_cast<long>(layout_.params));
  inputs_[layout_.time()] = t;
  program_.evaluate(inputs_.data(), g, scratch_);
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
