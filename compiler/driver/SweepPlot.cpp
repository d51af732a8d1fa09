// Collecting and drawing a sweep's plot (SweepPlot.h).
#include "driver/SweepPlot.h"

#include "driver/SvgPlot.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

std::vector<size_t> plottedSummaries(const SweepOptions &options) {
  std::vector<size_t> indices;
  for (size_t i = 0; i < options.summaries.size(); ++i)
    if (options.summaries[i].reducer != SummarySpec::Reducer::Status)
      indices.push_back(i);
  return indices;
}

SweepPlot::SweepPlot(const SweepOptions &options, std::string title)
    : options_(options), title_(std::move(title)), shown_(plottedSummaries(options)) {
  const std::vector<GridAxis> &grid = options_.plan.grid;
  if (grid.size() == 1)
    buckets_.resize(std::min(grid[0].count, kPlotBuckets));
}

void SweepPlot::keep(Bucket &bucket, const Kept &row) const {
  if (!bucket.first || row.run < bucket.first->run)
    bucket.first = row;
  if (!bucket.last || row.run > bucket.last->run)
    bucket.last = row;
  bucket.lowest.resize(shown_.size());
  bucket.highest.resize(shown_.size());
  for (size_t k = 0; k < shown_.size(); ++k) {
    double v = row.values[k];
    if (!std::isfinite(v)) {
      if (!bucket.failed || row.run < bucket.failed->run)
        bucket.failed = row;
      continue;
    }
    if (!bucket.lowest[k] || v < bucket.lowest[k]->values[k])
      bucket.lowest[k] = row;
    if (!bucket.highest[k] || v > bucket.highest[k]->values[k])
      bucket.highest[k] = row;
  }
}

void SweepPlot::add(const SweepRow &row) {
  if (buckets_.empty()) {
    if (!shown_.empty())
      cells_.push_back(row.summaries[shown_[0]]);
    return;
  }
  Kept kept{row.run, options_.plan.grid[0].value(row.run), {}};
  for (size_t i : shown_)
    kept.values.push_back(row.summaries[i]);
  const size_t count = options_.plan.grid[0].count;
  size_t b = std::min(row.run, count - 1) * buckets_.size() / count;
  keep(buckets_[b], kept);
}

std::vector<SweepPlot::Kept> SweepPlot::keptRows() const {
  std::vector<Kept> rows;
  for (const Bucket &bucket : buckets_) {
    auto take = [&](const std::optional<Kept> &row) {
      if (row)
        rows.push_back(*row);
    };
    take(bucket.first), take(bucket.last), take(bucket.failed);
    for (const auto &row : bucket.lowest)
      take(row);
    for (const auto &row : bucket.highest)
      take(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Kept &a, const Kept &b) { return a.run < b.run; });
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [](const Kept &a, const Kept &b) { return a.run == b.run; }),
             rows.end());
  return rows;
}

size_t SweepPlot::rowsKept() const {
  return buckets_.empty() ? cells_.size() : keptRows().size();
}

std::string SweepPlot::heatMap() const {
  const std::vector<GridAxis> &grid = options_.plan.grid;
  auto points = [](const GridAxis &axis) {
    std::vector<double> values;
    for (size_t i = 0; i < axis.count; ++i)
      values.push_back(axis.value(i));
    return values;
  };
  HeatMap map{title_,
              grid[0].target.name,
              grid[1].target.name,
              options_.summaries[shown_[0]].name,
              points(grid[0]),
              points(grid[1]),
              {}};
  map.values.assign(map.x.size() * map.y.size(), NAN);
  for (size_t r = 0; r < cells_.size() && r < map.values.size(); ++r)
    map.values[r] = cells_[r];
  return renderHeatMap(map);
}

std::string SweepPlot::svg() const {
  if (buckets_.empty())
    return heatMap();
  Plot plot;
  plot.title = title_;
  plot.xLabel = options_.plan.grid[0].target.name;
  std::vector<Kept> rows = keptRows();
  for (const Kept &row : rows)
    plot.x.push_back(row.x);
  for (size_t k = 0; k < shown_.size(); ++k) {
    PlotSeries series{options_.summaries[shown_[k]].name, {}, ""};
    for (const Kept &row : rows)
      series.values.push_back(row.values[k]);
    plot.series.push_back(series);
  }
  return renderSvg(plot);
}

} // namespace mech::driver
