// Values given outside a model file: `--set m=2, l=30 [cm]` and
// `--at "th1=0.6, th1'=1.2"`. Each value is a constant expression (numbers
// with units, pi, and the model's params where a model is known), converted
// to SI and checked against the dimension of what it sets.
#pragma once

#include "sema/Analyzer.h"
#include "sema/Model.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::sema {

struct Assignment {
  std::string name;          // as written, th or th[2]
  std::vector<long> indices; // of an indexed name
  int primes = 0;
  double value = 0;
  std::vector<double> values; // a list `[1, 2, 3]`, where lists are allowed
  DimInfo dim;
  Location location;
};

// Parses and evaluates a list of assignments given as text (`origin` names
// the option in diagnostics). Params of `model`, when given, may be used in
// the values. Returns nullopt after reporting errors.
// `shown`, when given, is the option's whole text, which diagnostics echo
// (text is then that text with the parts not parsed here blanked out).
// With `allowLists` a value may be a list of numbers of one dimension, for a
// family (`--set "m=[1, 2, 3]"`).
// The name of the source a text of `origin` is read as: "<--set>" for
// --set, which the derivation cache leaves out of its key
// (driver/DerivationCache.h).
inline std::string assignmentSourceName(const std::string &origin) {
  return "<" + origin + ">";
}

std::optional<std::vector<Assignment>>
parseAssignments(Compilation &compilation, const std::string &origin, const std::string &text,
                 const CheckedModel *model, const std::string &shown = "", bool allowLists = false);

// Turns --set assignments into overrides for analysis.
std::vector<ParamOverride> toOverrides(const std::vector<Assignment> &assignments);

} // namespace mech::sema
