// What a run keeps does not grow with its length where the output does not
// need it: the event log without --events keeps counts only (first and
// last times right, no rows), and a sweep's line plot keeps a few rows per
// stretch of the grid, among them each stretch's lowest and highest value
// and its first failed run, so that a spike or a gap is still drawn.
#include "driver/EventLog.h"
#include "driver/SweepPlot.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace mech::driver;

TEST_CASE("event log: without --events only the counts are kept", "[bounds]") {
  EventLog counts({"a", "b"}, {"x", "x'"}, false), rows({"a", "b"}, {"x", "x'"}, true);
  for (int k = 1; k <= 10000; ++k) {
    counts.record(k % 2, 0.5 * k, {1.0, 2.0});
    rows.record(k % 2, 0.5 * k, {1.0, 2.0});
  }
  CHECK(counts.rowsKept() == 0);
  CHECK(rows.rowsKept() == 10000);
  for (const EventLog *log : {&counts, &rows}) {
    const std::vector<EventCount> &c = log->counts();
    REQUIRE(c.size() == 2);
    // Odd k fire b (t = 0.5, 1.5, ..., 4999.5), even k fire a (1, 2, ..., 5000).
    CHECK(c[0].count == 5000);
    CHECK(c[0].first == 1.0);
    CHECK(c[0].last == 5000.0);
    CHECK(c[1].count == 5000);
    CHECK(c[1].first == 0.5);
    CHECK(c[1].last == 4999.5);
  }
  counts.chattered(1, 3, 2.0, 2.5);
  counts.chattered(1, 7, 4.0, 4.5);
  counts.chattered(1, 5, 6.0, 6.5);
  CHECK(counts.counts()[1].mostInOneStep == 7);
  CHECK(counts.counts()[1].stepFrom == 4.0);
  CHECK(counts.counts()[0].mostInOneStep == 0);
}

namespace {

SweepOptions lineGrid(size_t count) {
  SweepOptions options;
  GridAxis axis;
  axis.target.name = "k";
  axis.from = 0;
  axis.to = static_cast<double>(count - 1);
  axis.count = count;
  options.plan.grid.push_back(axis);
  SummarySpec summary;
  summary.reducer = SummarySpec::Reducer::Max;
  summary.name = "max(x)";
  options.summaries.push_back(summary);
  return options;
}

} // namespace

TEST_CASE("sweep plot: a long one-name grid keeps a bounded number of rows", "[bounds]") {
  const size_t count = 1000000, spike = 123457, gap = 654321;
  SweepOptions options = lineGrid(count);
  SweepPlot plot(options, "M");
  double trueLowest = 1, trueHighest = -1; // of the curve without the spike
  for (size_t i = 0; i < count; ++i) {
    SweepRow row;
    row.run = i;
    double value = std::sin(1e-4 * static_cast<double>(i));
    if (i != spike && i != gap) {
      trueLowest = std::min(trueLowest, value);
      trueHighest = std::max(trueHighest, value);
    }
    row.summaries = {i == spike ? 50.0 : i == gap ? NAN : value};
    plot.add(row);
  }
  // At most first, last, failed, lowest and highest of each bucket.
  CHECK(plot.rowsKept() <= 5 * kPlotBuckets);
  CHECK(plot.rowsKept() >= 2 * kPlotBuckets);
  std::vector<SweepPlot::Kept> rows = plot.keptRows();
  bool sawSpike = false, sawGap = false;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (r > 0)
      CHECK(rows[r].run > rows[r - 1].run);
    // The grid 0, 1, ..., count - 1, as GridAxis spaces it (to rounding).
    CHECK(std::abs(rows[r].x - static_cast<double>(rows[r].run)) <=
          1e-9 * static_cast<double>(count));
    sawSpike = sawSpike || (rows[r].run == spike && rows[r].values[0] == 50.0);
    sawGap = sawGap || (rows[r].run == gap && std::isnan(rows[r].values[0]));
  }
  CHECK(sawSpike);
  CHECK(sawGap);
  CHECK(rows.front().run == 0);
  CHECK(rows.back().run == count - 1);
  // The curve's own extremes (near i = pi/2e-4 and 3pi/2e-4) are kept exactly.
  double lowest = 1, highest = -1;
  for (const SweepPlot::Kept &row : rows)
    if (row.run != spike && std::isfinite(row.values[0])) {
      lowest = std::min(lowest, row.values[0]);
      highest = std::max(highest, row.values[0]);
    }
  CHECK(highest == trueHighest);
  CHECK(lowest == trueLowest);
}

TEST_CASE("sweep plot: a short grid keeps every row", "[bounds]") {
  SweepOptions options = lineGrid(50);
  SweepPlot plot(options, "M");
  for (size_t i = 0; i < 50; ++i) {
    SweepRow row;
    row.run = i;
    row.summaries = {static_cast<double>(i % 7)};
    plot.add(row);
  }
  std::vector<SweepPlot::Kept> rows = plot.keptRows();
  REQUIRE(rows.size() == 50);
  for (size_t i = 0; i < 50; ++i)
    CHECK(rows[i].values[0] == static_cast<double>(i % 7));
}
