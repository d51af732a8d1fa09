// --summary of mech sweep (driver/SweepSummaries.h): the reducers on
// sample sequences whose reductions are known by hand (the time average of
// a line is its midpoint value, of t^2 over [0, 1] one third up to the
// trapezoidal rule's h^2/6), the conditions' first times, and the parse of
// the option into columns and model outputs.
#include "driver/SweepSummaries.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace mech::driver;

namespace {

std::vector<SummarySpec> parsed(const std::string &text, std::vector<mech::sema::Addition> &added,
                                int &status) {
  std::ostringstream out, err;
  CommandIo io{out, err};
  std::vector<SummarySpec> summaries;
  auto result = parseSummaries(text, summaries, added, io);
  status = result ? *result : 0;
  return summaries;
}

} // namespace

TEST_CASE("sweep summaries: the option's parts", "[sweep]") {
  std::vector<mech::sema::Addition> added;
  int status = -1;
  auto summaries = parsed("at_end(th1), peak = max(abs(th2)), energy_drift, "
                          "flipped = any(abs(th2) >= pi), first_time(x < 2 * l), status",
                          added, status);
  REQUIRE(status == 0);
  REQUIRE(summaries.size() == 6);
  CHECK(summaries[0].name == "at_end(th1)");
  CHECK(summaries[1].name == "peak");
  CHECK(summaries[2].reducer == SummarySpec::Reducer::EnergyDrift);
  CHECK(summaries[2].output.empty());
  CHECK(summaries[3].comparison == SummarySpec::Comparison::GreaterEqual);
  CHECK(summaries[4].comparison == SummarySpec::Comparison::Less);
  CHECK(summaries[5].reducer == SummarySpec::Reducer::Status);
  // One output per expression; a condition's two sides, blanked in place.
  REQUIRE(added.size() == 4);
  const std::string &text = added[2].text;
  CHECK(text.find("abs(th2)") != std::string::npos);
  CHECK(text.find("pi") == std::string::npos);
  CHECK(added[2].minus.find("pi") == text.find("abs(th2)") + std::string("abs(th2) >= ").size());
  CHECK(added[0].output == "#summary1");
}

TEST_CASE("sweep summaries: what the option refuses", "[sweep]") {
  for (const char *text : {"median(x)", "max(x > 1)", "any(x)", "any(x == 1)", "at_end()",
                           "energy_drift(x)", "max x", "a = max(x), a = min(x)", " , "}) {
    CAPTURE(text);
    std::vector<mech::sema::Addition> added;
    int status = 0;
    parsed(text, added, status);
    CHECK(status == kExitUsage);
  }
}

TEST_CASE("sweep summaries: the reducers on known samples", "[sweep]") {
  std::vector<mech::sema::Addition> added;
  int status = -1;
  auto summaries = parsed("at_end(e), max(e), min(e), mean(e), any(e > 0.5), all(e > -1), "
                          "first_time(e > 0.25), first_time(e > 5), energy_drift",
                          added, status);
  REQUIRE(status == 0);
  // e = t^2 on [0, 1] in steps of 0.1; a condition a > b is watched as
  // the output a - b: e - 0.5, e + 1, e - 0.25 and e - 5.
  SummaryAccumulator acc(summaries, {0, 0, 0, 0, 1, 2, 3, 4, 0});
  for (int k = 0; k <= 10; ++k) {
    double t = 0.1 * k, e = t * t;
    double outputs[] = {e, e - 0.5, e + 1, e - 0.25, e - 5};
    acc.sample(t, outputs);
  }
  std::vector<double> v = acc.values(1e-9, 0);
  CHECK(v[0] == Approx(1.0));
  CHECK(v[1] == Approx(1.0));
  CHECK(v[2] == 0);
  // The trapezoidal rule on t^2 over [0, 1] with h = 0.1: 1/3 + h^2/6.
  CHECK(v[3] == Approx(1.0 / 3 + 0.01 / 6).epsilon(1e-12));
  CHECK(v[4] == 1);
  CHECK(v[5] == 1);
  CHECK(v[6] == Approx(0.6)); // 0.5^2 = 0.25 is not > 0.25
  CHECK(std::isnan(v[7]));
  CHECK(v[8] == 1e-9);
}
