// The values `sweep --plot` draws, collected as the rows come: the
// numeric summaries against the one swept name (a line plot), or the first
// summary over two names (a heat map). A line plot keeps a bounded number
// of rows however many runs the grid has: the grid is cut into at most
// kPlotBuckets stretches, and of each only the rows a drawing can show are
// kept (its first and last, the lowest and highest value of each summary,
// and its first failed value, which breaks the line).
#pragma once

#include "driver/Sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

inline constexpr size_t kPlotBuckets = 4096;

// The summaries a plot can draw: those with numbers (not status).
std::vector<size_t> plottedSummaries(const SweepOptions &options);

class SweepPlot {
public:
  // A row a line plot keeps.
  struct Kept {
    size_t run = 0;
    double x = 0;
    std::vector<double> values; // the shown summaries
  };

  SweepPlot(const SweepOptions &options, std::string title);

  void add(const SweepRow &row);
  std::string svg() const;
  // The rows a line plot draws, in the grid's order.
  std::vector<Kept> keptRows() const;
  // The rows held: a line plot's (at most a few per bucket), or for a heat
  // map every row's value.
  size_t rowsKept() const;

private:
  // The rows kept of one stretch of the grid.
  struct Bucket {
    std::optional<Kept> first, last, failed;
    std::vector<std::optional<Kept>> lowest, highest; // per shown summary
  };
  void keep(Bucket &bucket, const Kept &row) const;
  std::string heatMap() const;

  const SweepOptions &options_;
  std::string title_;
  std::vector<size_t> shown_;
  std::vector<Bucket> buckets_; // a line plot's
  std::vector<double> cells_;   // a heat map's first summary, row by row
};

} // namespace mech::driver
