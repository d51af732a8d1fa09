// The values of a model's inputs against time, as `--input` gives them:
// `u = 0.5*sin(2*t)` (an expression of t and the params, checked and
// converted to SI like any model value) or `u = drive.csv` (a table of t and
// values, interpolated linearly and held at its end values outside it).
// Inputs not given stay 0.
#pragma once

#include "sema/Analyzer.h"
#include "sema/Model.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::sema {

struct InputSignal {
  std::string name;
  size_t param = 0;                  // the input's entry in the model's params
  ExprRef value;                     // an expression of t; null for a table
  std::vector<double> times, values; // a table, times increasing, values SI
  std::string file;                  // the table's file
};

class InputSignals {
public:
  std::vector<InputSignal> signals;
  // The params the expressions read (a copy, so the signals outlive the
  // model they were checked against).
  std::shared_ptr<const CheckedModel> params;

  bool empty() const { return signals.empty(); }
  double value(const InputSignal &signal, double t) const;
  // Writes each given input's value at t into p (the model's params).
  void fill(double t, double *p) const;
  // Whether any value changes with t.
  bool varies() const;
};

// Parses `--input` text against the model: each name must be an input,
// given once; an expression's dimension must be the input's (a plain
// number is in the input's declared unit). Returns nullopt after reporting
// errors (a missing or malformed table file among them).
std::optional<InputSignals> parseInputSignals(Compilation &compilation, const std::string &origin,
                                              const std::string &text, const CheckedModel &model);

// The table files that `--input` text names (its `u = drive.csv` items), as
// written, in order: the files a run reads besides the model's.
std::vector<std::string> inputTableFiles(const std::string &text);

} // namespace mech::sema
