// --summary of `mech sweep`: what each run is reduced to. Every summary is
// one of a fixed set of reducers around a .mech expression, which the front
// end parses and checks (units included) as an output of the model:
//   at_end(e)  max(e)  min(e)  mean(e)          a value over the samples
//   any(c)  all(c)  first_time(c)               a condition a > b, a >= b,
//                                               a < b or a <= b
//   energy_drift  constraint_drift  status      of the run itself
//   impacts(c)  rest_time(c)  lift_time(c)      of contact c: its impacts, the
//                                               first time it came to rest or
//                                               lifted off (empty: never)
//   sticks(f)  slips(f)  stuck_time(f)          of friction f: how often it came
//                                               to stick and began to slip, the
//                                               time it spent stuck
// optionally named (`flipped = any(abs(th2) > pi)`); the column is named
// after the summary's text otherwise.
#pragma once

#include "driver/Commands.h"
#include "sema/Compilation.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct SummarySpec {
  enum class Reducer {
    AtEnd,
    Max,
    Min,
    Mean,
    Any,
    All,
    FirstTime,
    EnergyDrift,
    ConstraintDrift,
    Status,
    Impacts,
    RestTime,
    LiftTime,
    Sticks,
    Slips,
    StuckTime
  };
  enum class Comparison { Greater, GreaterEqual, Less, LessEqual };
  Reducer reducer = Reducer::AtEnd;
  Comparison comparison = Comparison::Greater; // any, all, first_time
  std::string name;                            // the column
  std::string output;  // the model output holding the expression; empty for the named ones
  std::string contact; // impacts, rest_time, lift_time: the contact's name; sticks, slips,
                       // stuck_time: the friction's
  // Whether the summary is a friction's (sticks, slips, stuck_time).
  bool ofFriction() const {
    return reducer == Reducer::Sticks || reducer == Reducer::Slips || reducer == Reducer::StuckTime;
  }
};

// Parses --summary; the expressions become additions to the model (outputs
// named "#summary1", ...: no model can declare such a name). nullopt on
// success, else the usage error's exit code.
std::optional<int> parseSummaries(const std::string &text, std::vector<SummarySpec> &summaries,
                                  std::vector<sema::Addition> &additions, const CommandIo &io);

// A summary named as a swept name or as a built-in column (`status`,
// `message`) would repeat a header, and readers of the table keep one of
// the two: the usage error's exit code, or nullopt.
std::optional<int> checkSummaryNames(const std::vector<SummarySpec> &summaries,
                                     const std::vector<std::string> &swept, const CommandIo &io);

// The message of a run that finished with summaries that are not numbers
// (NaN samples, as sqrt of a negative value), naming them; empty when
// there are none. first_time's empty value (the condition never held) is
// not one.
std::string notNumberMessage(const std::vector<SummarySpec> &summaries,
                             const std::vector<double> &values);

// One run's summaries as the samples arrive. Values are NaN where a
// summary has none (first_time of a condition that never held).
class SummaryAccumulator {
public:
  // `outputs`: the index among the model's outputs of each summary's
  // expression (unused for the named reducers).
  SummaryAccumulator(const std::vector<SummarySpec> &summaries, std::vector<size_t> outputs);

  void sample(double t, const double *outputs);
  // The values (status as its code: ignored by the caller) given the run's
  // drifts.
  std::vector<double> values(double energyDrift, double constraintDrift) const;

private:
  const std::vector<SummarySpec> &summaries_;
  std::vector<size_t> outputs_;
  std::vector<double> value_, last_; // per summary; last_: the previous sample of mean
  double firstT_ = 0, lastT_ = 0;
  size_t samples_ = 0;
};

} // namespace mech::driver
