// The C header of a library that `mech build` makes: the model's names,
// units and array layouts in comments, the status codes, the model
// description and the entry points, all under the library's prefix.
#pragma once

#include <string>
#include <vector>

namespace mech::driver {

struct HeaderEntry {
  std::string name, unit; // unit "" when dimensionless or unknown
  double value = 0;       // a param's default
};

struct HeaderModel {
  std::string prefix, model;
  std::string file, command; // the header's file name; how mech was invoked
  std::vector<HeaderEntry> coordinates, params, constraints, outputs;
  std::vector<bool> holonomic;
  size_t inputs = 0; // the last `inputs` params are the model's inputs
  std::vector<std::string> events, contacts, frictions;
  std::vector<std::string> switches; // the piecewise laws, "law at 10:15, where k*y = 0"
  int abiVersion = 1;
};

std::string libraryHeader(const HeaderModel &model);

} // namespace mech::driver
