/* fmi2GetDirectionalDerivative of the FMUs that `mech build --fmu` makes:
 * the derivatives' and the outputs' change along a direction of the
 * states and inputs. d(x')/dx is exact: the library's state Jacobian from
 * the symbolic derivatives of the equations (LibraryJacobian.c), what
 * Radau uses. The inputs' part of x' and the outputs' part are central
 * differences along the direction (one pair of evaluations each): the
 * inputs enter the forces, the outputs are any expression of the state. */
#include "Fmi2Instance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seeds of the knowns: dx (N) then du (nu). 0 when a known is not a
 * state or an input. */
static int seed(mechrt_fmu *c, const fmi2ValueReference known[], size_t count, const double dv[],
                double *direction) {
  long first_input = c->np - c->nu;
  for (size_t k = 0; k < count; ++k) {
    long r = (long)known[k];
    if (r >= c->np && r < c->np + c->N)
      direction[r - c->np] += dv[k];
    else if (r >= first_input && r < c->np)
      direction[c->N + r - first_input] += dv[k];
    else {
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2GetDirectionalDerivative: value reference %u is not a state or an input",
              known[k]);
      return 0;
    }
  }
  return 1;
}

/* (kernel(x + h dx, u + h du) - kernel(x - h dx, u - h du)) / 2h into out
 * (count values), h scaled to the state and the direction. */
static int central_difference(mechrt_fmu *c, mechrt_kernel kernel, long count,
                              const double *direction, double *out) {
  long N = c->N, nu = c->nu, first_input = c->np - nu;
  double size = 0, scale = 1;
  for (long i = 0; i < N + nu; ++i)
    size = fmax(size, fabs(direction[i]));
  for (long i = 0; i < N; ++i)
    scale = fmax(scale, fabs(c->x[i]));
  for (long i = 0; i < nu; ++i)
    scale = fmax(scale, fabs(c->p[first_input + i]));
  if (size == 0) {
    memset(out, 0, sizeof(double) * (size_t)count);
    return MECHRT_OK;
  }
  double h = 6e-6 * scale / size; /* about eps^(1/3): the error of a central difference */
  /* p: the params and the laws' held branches. */
  double *x = malloc(sizeof(double) * (size_t)(N + c->np + c->S + count));
  if (!x)
    return MECHRT_OUT_OF_MEMORY;
  double *p = x + N, *minus = p + c->np + c->S;
  int status = MECHRT_OK;
  for (int side = -1; side <= 1 && status == MECHRT_OK; side += 2) {
    for (long i = 0; i < N; ++i)
      x[i] = c->x[i] + side * h * direction[i];
    memcpy(p, c->p, sizeof(double) * (size_t)(c->np + c->S));
    for (long i = 0; i < nu; ++i)
      p[first_input + i] += side * h * direction[N + i];
    status = mechrt_held_call(c->model, kernel, *c->t, x, N, p, side < 0 ? minus : out, count);
  }
  for (long i = 0; status == MECHRT_OK && i < count; ++i)
    out[i] = (out[i] - minus[i]) / (2 * h);
  free(x);
  return status;
}

/* x' along the direction: J dx exactly, plus the inputs' part. */
static int derivative_change(mechrt_fmu *c, const double *direction, double *out) {
  long N = c->N;
  double *J = malloc(sizeof(double) * (size_t)(N * N + N + c->nu));
  if (!J)
    return MECHRT_OUT_OF_MEMORY;
  double *inputs_only = J + N * N;
  int status = mechrt_held_jacobian(c->model, *c->t, c->x, c->p, J);
  if (status == MECHRT_OK) {
    memset(inputs_only, 0, sizeof(double) * (size_t)N);
    memcpy(inputs_only + N, direction + N, sizeof(double) * (size_t)c->nu);
    status = central_difference(c, c->model->rhs, N, inputs_only, out);
  }
  for (long i = 0; status == MECHRT_OK && i < N; ++i)
    for (long j = 0; j < N; ++j)
      out[i] += J[i * N + j] * direction[j];
  free(J);
  return status;
}

FMI2_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component component,
                                                    const fmi2ValueReference unknowns[],
                                                    size_t nUnknown,
                                                    const fmi2ValueReference knowns[],
                                                    size_t nKnown, const fmi2Real dvKnown[],
                                                    fmi2Real dvUnknown[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetDirectionalDerivative",
                   ~(FMU_IN(FMU_ERROR) | FMU_IN(FMU_INSTANTIATED))))
    return fmi2Error;
  long N = c->N, first_derivative = c->np + N, first_output = c->np + 2 * N;
  double *work = calloc((size_t)(2 * N + c->nu + c->nout), sizeof(double));
  if (!work)
    return fmu_failed(c, "fmi2GetDirectionalDerivative", MECHRT_OUT_OF_MEMORY);
  double *direction = work, *xdot = work + N + c->nu, *outputs = xdot + N;
  int status = MECHRT_OK, wants_derivatives = 0, wants_outputs = 0, known = 1;
  for (size_t k = 0; k < nUnknown; ++k) {
    long r = (long)unknowns[k];
    wants_derivatives |= r >= first_derivative && r < first_output;
    wants_outputs |= r >= first_output && r < first_output + c->nout;
    known &= r >= first_derivative && r < first_output + c->nout;
  }
  if (!known || !seed(c, knowns, nKnown, dvKnown, direction)) {
    if (!known)
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2GetDirectionalDerivative: the unknowns are state derivatives and outputs");
    free(work);
    return fmi2Error;
  }
  if (wants_derivatives)
    status = derivative_change(c, direction, xdot);
  if (status == MECHRT_OK && wants_outputs)
    status = central_difference(c, c->model->outputs, c->nout, direction, outputs);
  for (size_t k = 0; status == MECHRT_OK && k < nUnknown; ++k) {
    long r = (long)unknowns[k];
    dvUnknown[k] = r < first_output ? xdot[r - first_derivative] : outputs[r - first_output];
  }
  free(work);
  return status == MECHRT_OK ? fmi2OK : fmu_failed(c, "fmi2GetDirectionalDerivative", status);
}
