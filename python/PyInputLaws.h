// Inputs given to simulate as Python callables: `m.simulate(input={"F":
// lambda t, x: -K @ x})`. Each law is called at every evaluation of the
// model's kernels with the time and the state x = (q, q') as a NumPy array
// (or with t alone when it takes one argument), and its value is the
// input's for that evaluation: a controller's law closes the loop inside
// mech's integrator. The other entries of `input` (expressions of t, CSV
// tables) keep their text form.
#pragma once

#include "driver/Pipeline.h"

#include <pybind11/pybind11.h>

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace mech::python {

class InputLaws {
public:
  // Takes the callables out of options["input"] (a dict), leaving the rest.
  static std::shared_ptr<InputLaws> extract(pybind11::dict &options);

  bool empty() const { return laws_.empty(); }
  // Binds the laws to the model's inputs by name (a UsageFailure for a
  // name that is not an input) and returns the fill the kernels call.
  mechanics::InputFill bind(const std::shared_ptr<InputLaws> &self,
                            const driver::LoadedModel &loaded);
  // After the run, with the GIL held: rethrows what a law raised.
  void rethrow() const {
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  struct Law {
    std::string name;
    pybind11::object function;
    bool timeOnly = false; // law(t) rather than law(t, x)
    size_t param = 0;
    double last = 0; // its value at the last call with a state
  };
  void fill(double t, const double *x, double *p);

  std::vector<Law> laws_;
  size_t states_ = 0;
  std::exception_ptr error_;
};

} // namespace mech::python
