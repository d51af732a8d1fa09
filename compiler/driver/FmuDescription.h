// The modelDescription.xml of the FMI 2.0 FMU that `mech build --fmu`
// makes (Model Exchange and Co-Simulation in one), from a description of
// the model's variables. The value references are a contract with the FMI
// functions of the FMU's binary (runtime/library/Fmi2*.c), in this order:
//   0 .. np-1                  the params, the last nu of them the inputs
//   np .. np+nq-1              the coordinates q
//   np+nq .. np+2nq-1          their speeds q'
//   np+2nq .. np+4nq-1         der(q), then der(q')
//   np+4nq .. np+4nq+nout-1    the outputs
//   then mech.rtol, mech.atol, mech.method, Co-Simulation's solver settings.
#pragma once

#include "mechanics/Lagrange.h"
#include "sema/Model.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace mech::driver {

// A unit the variables use: its name, and its exponents of the base units
// as FMI names them (kg, m, s, A, K, mol, cd, rad), from the dimension.
struct FmuUnit {
  std::string name;               // N/m, rad/s, kg*m^2
  std::array<int, 8> exponents{}; // kg, m, s, A, K, mol, cd, rad
  bool hasBaseUnit = true;        // false when an exponent is not an integer
};

struct FmuVariable {
  std::string name, description;
  std::string unit;           // an FmuUnit's name; "" for none
  double start = 0;           // a param's default, a state's initial value
  std::string derivativeUnit; // a state's: the unit of its der(...)
};

struct FmuDescription {
  std::string modelName, modelIdentifier, description, generationTool;
  std::vector<FmuVariable> params; // the last `inputs` of them are the inputs
  size_t inputs = 0;
  std::vector<FmuVariable> coordinates, speeds; // the states, q then q'
  std::vector<FmuVariable> outputs;
  std::vector<FmuUnit> units; // every unit the variables use
  size_t eventIndicators = 0; // the declared events, then the piecewise laws (their g)
  bool constrained = false;   // the start state is put onto constraints: initial="approx"
  double stopTime = 10, stepSize = 0.01;
};

// The value references of the sections above, for the binary's side.
struct FmuLayout {
  size_t np, nq, nout;
  size_t firstCoordinate() const { return np; }
  size_t firstSpeed() const { return np + nq; }
  size_t firstDerivative() const { return np + 2 * nq; }
  size_t firstOutput() const { return np + 4 * nq; }
  size_t firstSetting() const { return np + 4 * nq + nout; } // rtol, atol, method
};

struct FmuXml {
  std::string xml;  // the file's text
  std::string guid; // {8-4-4-4-12 hex digits}, in the xml and for the binary
};

// The model description's text, with a guid that is a hash of everything
// else in it: the same model and settings give the same guid.
FmuXml fmuModelDescription(const FmuDescription &description);

// The modelIdentifier of an FMU written to `outputPath`: its file name
// without .fmu, as a C identifier (other characters become '_', a leading
// digit gets a '_' before it): build/pendulum.fmu -> pendulum.
std::string fmuModelIdentifier(const std::string &outputPath);

// What the model description says of a model: its params (with their
// values `params`), states (starting from x0 = (q, q')), outputs, units and
// events. The caller sets modelIdentifier and, if it wishes, stopTime and
// stepSize.
FmuDescription describeFmu(const sema::CheckedModel &model, const mechanics::Equations &eq,
                           const std::vector<double> &params, const std::vector<double> &x0);

} // namespace mech::driver
