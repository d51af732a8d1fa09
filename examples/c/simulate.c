/* simulate.c: drives the double pendulum compiled to a shared library by
 * `mech build` through its C interface (see README.md for the commands).
 *
 * Prints the model info (name, coordinates, params with their defaults),
 * integrates 10 s from the model's init state, printing t, th1 and th2 every
 * 0.5 s, and ends with the relative energy drift |E(end) - E(0)| / |E(0)|
 * from double_pendulum_energy. Every status code is checked: on a failure
 * the program names the call and the code and exits with status 1.
 */
#include "double_pendulum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *status_name(int status) {
  switch (status) {
  case DOUBLE_PENDULUM_OK: return "OK";
  case DOUBLE_PENDULUM_SINGULAR_MASS_MATRIX: return "SINGULAR_MASS_MATRIX";
  case DOUBLE_PENDULUM_REDUNDANT_CONSTRAINTS: return "REDUNDANT_CONSTRAINTS";
  case DOUBLE_PENDULUM_NON_FINITE: return "NON_FINITE";
  case DOUBLE_PENDULUM_BUFFER_TOO_SMALL: return "BUFFER_TOO_SMALL";
  case DOUBLE_PENDULUM_NULL_POINTER: return "NULL_POINTER";
  case DOUBLE_PENDULUM_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
  case DOUBLE_PENDULUM_STEP_FAILED: return "STEP_FAILED";
  case DOUBLE_PENDULUM_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
  case DOUBLE_PENDULUM_PROJECTION_FAILED: return "PROJECTION_FAILED";
  default: return "unknown status";
  }
}

/* Exits with a message unless status is DOUBLE_PENDULUM_OK. */
static void check(int status, const char *call) {
  if (status != DOUBLE_PENDULUM_OK) {
    fprintf(stderr, "simulate: %s failed: %s (%d)\n", call, status_name(status), status);
    exit(1);
  }
}

int main(void) {
  const double t_end = 10.0, dt = 0.5, rtol = 1e-10, atol = 1e-12;

  if (double_pendulum_abi_version() != DOUBLE_PENDULUM_ABI_VERSION) {
    fprintf(stderr, "simulate: the library has ABI version %d, the header %d\n",
            double_pendulum_abi_version(), DOUBLE_PENDULUM_ABI_VERSION);
    return 1;
  }
  const double_pendulum_model_info *info = double_pendulum_model();
  if (info == NULL) {
    fprintf(stderr, "simulate: double_pendulum_model() returned NULL\n");
    return 1;
  }

  printf("model %s: %d coordinates, %d params, %d constraints, %d outputs\n", info->name,
         info->nq, info->np, info->nc, info->nout);
  printf("coordinates:");
  for (int i = 0; i < info->nq; ++i)
    printf(" %s", info->coord_names[i]);
  printf("\nparams (SI, defaults):");
  for (int i = 0; i < info->np; ++i)
    printf("%s %s = %g", i ? "," : "", info->param_names[i], info->param_defaults[i]);
  printf("\n");

  const int nq = info->nq, width = 1 + 2 * nq;
  const double *x0 = info->init_state, *p = info->param_defaults;

  /* Ask for the number of rows first (out = NULL, max_rows = 0). */
  size_t rows = 0;
  int status = double_pendulum_simulate(x0, p, t_end, dt, rtol, atol, NULL, 0, &rows);
  if (status != DOUBLE_PENDULUM_BUFFER_TOO_SMALL)
    check(status, "double_pendulum_simulate (size query)");
  double *out = malloc(rows * width * sizeof *out);
  if (out == NULL) {
    fprintf(stderr, "simulate: out of memory\n");
    return 1;
  }
  check(double_pendulum_simulate(x0, p, t_end, dt, rtol, atol, out, rows, &rows),
        "double_pendulum_simulate");
  if (rows == 0) {
    fprintf(stderr, "simulate: no rows\n");
    return 1;
  }

  printf("\n%6s %12s %12s\n", "t", info->coord_names[0], info->coord_names[1]);
  for (size_t r = 0; r < rows; ++r) {
    const double *row = out + r * width;
    printf("%6.2f %12.6f %12.6f\n", row[0], row[1], row[2]);
  }

  /* The energy at the start and at the end: the state is row[1 ..]. */
  double e0[2], e1[2];
  const double *last = out + (rows - 1) * width;
  check(double_pendulum_energy(0.0, out + 1, p, e0), "double_pendulum_energy");
  check(double_pendulum_energy(last[0], last + 1, p, e1), "double_pendulum_energy");
  const double E0 = e0[0] + e0[1], E1 = e1[0] + e1[1];
  printf("\nenergy: E(0) = %.12g J, E(%g) = %.12g J\n", E0, last[0], E1);
  printf("energy drift |E(end) - E(0)|/|E(0)| = %.3e\n", fabs(E1 - E0) / fabs(E0));

  free(out);
  return 0;
}
