// What `mech equations --minimal` prints for a constrained model, as text
// or JSON: the kinematic equations of the dependent speeds, and Kane's (or
// Maggi's) equations M_r u' = f_r in the independent speeds
// (mechanics/MinimalEquations.h). Beside Reports.h, which prints the
// equations of the first and second kind.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/MinimalEquations.h"

#include <string>

namespace mech::driver {

struct MinimalReport {
  const mechanics::Equations &eq;
  mechanics::MinimalEquations minimal; // in display form (readableMinimal)
  mechanics::State state;              // where the independent speeds were chosen
  bool chosen = false;                 // by --independent, else by pivoting
};

std::string minimalText(const MinimalReport &report);
std::string minimalJson(const MinimalReport &report);
// An `align` environment: the kinematic equations, then M_r u' = f_r per
// independent speed, then the named subexpressions.
std::string minimalLatex(const MinimalReport &report);

} // namespace mech::driver
