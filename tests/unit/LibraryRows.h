// Runs of the library runtime's mechrt_simulate_with as the C runtime's
// tests read them (LibraryRuntimeTest.cpp, LibraryRadauTest.cpp): the size
// query, then the rows split into times and states.
#pragma once

#include "LibraryRuntimeProbe.h"

#include <catch2/catch.hpp>

#include <vector>

namespace mech::test {

struct LibraryRows {
  std::vector<double> times;
  std::vector<std::vector<double>> states; // (q, q') per row
};

// The rows of mechrt_simulate_with (state columns only: the options ask
// for no multipliers or outputs); `status` its status.
inline LibraryRows libraryRun(const mechrt_model &model, const double *p,
                              const std::vector<double> &x0, double tEnd, double dt, double rtol,
                              double atol, const mechrt_sim_options &options, int &status) {
  size_t needed = 0;
  REQUIRE(mechrt_simulate_with(&model, x0.data(), p, tEnd, dt, rtol, atol, &options, nullptr, 0,
                               &needed) == MECHRT_BUFFER_TOO_SMALL);
  const size_t width = 1 + x0.size();
  std::vector<double> out(needed * width);
  size_t rows = 0;
  status = mechrt_simulate_with(&model, x0.data(), p, tEnd, dt, rtol, atol, &options, out.data(),
                                needed, &rows);
  REQUIRE(rows <= needed);
  LibraryRows r;
  for (size_t k = 0; k < rows; ++k) {
    r.times.push_back(out[k * width]);
    r.states.emplace_back(out.begin() + k * width + 1, out.begin() + (k + 1) * width);
  }
  return r;
}

} // namespace mech::test
