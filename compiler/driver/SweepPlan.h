// What `mech sweep` runs: --grid "l=0.5..2:100, th1=0..pi:200" (every
// combination, the first axis slowest) and --random "m=normal(1, 0.1):1000"
// (samples drawn from --seed, the same draws at every grid point), as a
// numbered list of runs. Run k's values are a function of k and the seed
// alone, so that any split of the runs over threads or processes gives the
// same rows.
#pragma once

#include "driver/Commands.h"
#include "driver/Pipeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

// What a swept name sets: a param's value, or an initial position or
// velocity (which replace the model's init for that coordinate).
struct SweepTarget {
  enum class Kind { Param, Position, Velocity };
  Kind kind = Kind::Param;
  size_t index = 0; // into the params, or the coordinate
  std::string name; // as the result's column names it: l, th1, th1'
};

struct GridAxis {
  SweepTarget target;
  double from = 0, to = 0; // SI
  size_t count = 1;        // points, both ends included
  // Values given one by one (the Python package's arrays), in place of the
  // even spacing; count is then their number.
  std::vector<double> points;
  double value(size_t i) const;
};

struct RandomAxis {
  SweepTarget target;
  enum class Law { Normal, Uniform };
  Law law = Law::Normal;
  double a = 0, b = 1; // mean and standard deviation, or the interval (SI)
};

class SweepPlan {
public:
  std::vector<GridAxis> grid;
  std::vector<RandomAxis> random;
  size_t samples = 1; // of the random axes (1 without them)
  uint64_t seed = 0;
  // The grid's axes taken together (the Python package's points=): run k
  // takes the k-th value of every axis, which all have the same count,
  // instead of every combination.
  bool paired = false;

  size_t runs() const;
  // The swept names, grid axes first: the first columns of the result.
  std::vector<std::string> columnNames() const;
  // Run k's values in column order.
  void values(size_t run, std::vector<double> &out) const;
  std::vector<SweepTarget> targets() const;
};

// The most runs one sweep may have.
inline constexpr size_t kMaxSweepRuns = 1'000'000'000;

// Reads --grid and --random (either may be empty, not both) into `plan`;
// nullopt on success, else the exit code: usage errors for the shape of the
// text, model errors (located in the option, reported in the diagnostics)
// for names that are no param or coordinate and values of the wrong
// dimension.
std::optional<int> parseSweepPlan(LoadedModel &loaded, const std::string &grid,
                                  const std::string &random, uint64_t seed, SweepPlan &plan,
                                  const CommandIo &io);

} // namespace mech::driver
