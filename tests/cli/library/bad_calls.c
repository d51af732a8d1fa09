/* bad_calls.c: calls a compiled model the wrong way and checks that every
 * call returns the documented status code instead of crashing. Prints one
 * line per failed check and exits 1 if any failed. The model needs params
 * (np > 0); the checks of multipliers, constraints and outputs with a NULL
 * result need nc > 0 or nout > 0. Build: see prefix.h. */
#include "prefix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;

static void expect(const char *what, int got, int expected) {
  ++checks;
  if (got != expected) {
    ++failures;
    printf("FAIL %s: status %d, expected %d\n", what, got, expected);
  }
}

/* simulate_with: the options struct checked before anything runs. */
static void bad_options(const double *x, const double *p, double *buf) {
  const INFO *info = F(model)();
  const int width = 1 + 2 * info->nq + info->nc + info->nout;
  F(sim_options) good = S(SIM_OPTIONS_INIT), bad = good;
  size_t rows = 99;
  expect("simulate_with NULL options",
         F(simulate_with)(x, p, 1, 0.25, 1e-8, 1e-10, NULL, buf, 100, &rows), S(NULL_POINTER));
  ++checks;
  if (rows != 0) {
    ++failures;
    printf("FAIL simulate_with NULL options: *rows = %zu, expected 0\n", rows);
  }
  expect("simulate_with NULL rows",
         F(simulate_with)(x, p, 1, 0.25, 1e-8, 1e-10, &good, buf, 100, NULL), S(NULL_POINTER));
  const size_t sizes[] = {0, sizeof(size_t), sizeof good - 1, sizeof good + 1, sizeof good + 8,
                          (size_t)-1};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    char what[64];
    snprintf(what, sizeof what, "simulate_with size %zu", sizes[i]);
    bad = good;
    bad.size = sizes[i];
    expect(what, F(simulate_with)(x, p, 1, 0.25, 1e-8, 1e-10, &bad, buf, 100, &rows),
           S(INVALID_ARGUMENT));
  }
  const double t0s[] = {NAN, INFINITY, -INFINITY, 1.5};
  const char *t0_names[] = {"NaN", "inf", "-inf", "after t_end"};
  for (int i = 0; i < 4; ++i) {
    char what[64];
    snprintf(what, sizeof what, "simulate_with t0 %s", t0_names[i]);
    bad = good;
    bad.t0 = t0s[i];
    expect(what, F(simulate_with)(x, p, 1, 0.25, 1e-8, 1e-10, &bad, buf, 100, &rows),
           S(INVALID_ARGUMENT));
  }
  /* Rows from t0 = 0.5 to 1.5 every 0.25, with every extra column: five of
   * `width` values; the size query counts them before anything runs. */
  bad = good;
  bad.t0 = 0.5;
  bad.multipliers = bad.outputs = 1;
  size_t needed = 0;
  expect("simulate_with size query",
         F(simulate_with)(x, p, 1.5, 0.25, 1e-8, 1e-10, &bad, NULL, 0, &needed),
         S(BUFFER_TOO_SMALL));
  expect("simulate_with all columns",
         F(simulate_with)(x, p, 1.5, 0.25, 1e-8, 1e-10, &bad, buf, needed, &rows), S(OK));
  ++checks;
  if (needed != 5 || rows != 5 || buf[0] != 0.5 || buf[width] != 0.75 ||
      buf[4 * width] != 1.5) {
    ++failures;
    printf("FAIL simulate_with from t0 = 0.5: rows %zu of %zu, t = %g, %g, ..., %g\n", rows,
           needed, buf[0], buf[width], buf[4 * width]);
  }
}

int main(void) {
  const INFO *info = F(model)();
  if (info == NULL) return 1;
  const int nq = info->nq, nc = info->nc, width = 1 + 2 * nq;
  const double *p = info->param_defaults;
  double x[64], q[32], buf[1024], buf2[1024], nan_p[64];
  memcpy(x, info->init_state, 2 * nq * sizeof *x);
  memcpy(q, x, nq * sizeof *q);

  /* NULL state. */
  expect("rhs NULL x", F(rhs)(0, NULL, p, buf), S(NULL_POINTER));
  expect("mass_matrix NULL q", F(mass_matrix)(0, NULL, p, buf), S(NULL_POINTER));
  expect("forcing NULL x", F(forcing)(0, NULL, p, buf), S(NULL_POINTER));
  expect("energy NULL x", F(energy)(0, NULL, p, buf), S(NULL_POINTER));
  expect("outputs NULL x", F(outputs)(0, NULL, p, buf), S(NULL_POINTER));
  expect("multipliers NULL x", F(multipliers)(0, NULL, p, buf), S(NULL_POINTER));
  expect("constraints NULL x", F(constraints)(0, NULL, p, buf, buf2), S(NULL_POINTER));
  /* NULL result. */
  expect("rhs NULL out", F(rhs)(0, x, p, NULL), S(NULL_POINTER));
  expect("mass_matrix NULL out", F(mass_matrix)(0, q, p, NULL), S(NULL_POINTER));
  expect("forcing NULL out", F(forcing)(0, x, p, NULL), S(NULL_POINTER));
  expect("energy NULL out", F(energy)(0, x, p, NULL), S(NULL_POINTER));
  if (info->nout > 0) expect("outputs NULL out", F(outputs)(0, x, p, NULL), S(NULL_POINTER));
  if (nc > 0) {
    expect("multipliers NULL out", F(multipliers)(0, x, p, NULL), S(NULL_POINTER));
    expect("constraints NULL residuals", F(constraints)(0, x, p, NULL, buf2), S(NULL_POINTER));
    expect("constraints NULL jacobian", F(constraints)(0, x, p, buf, NULL), S(NULL_POINTER));
  }
  /* NULL params (np > 0). */
  if (info->np > 0) {
    expect("rhs NULL p", F(rhs)(0, x, NULL, buf), S(NULL_POINTER));
    expect("mass_matrix NULL p", F(mass_matrix)(0, q, NULL, buf), S(NULL_POINTER));
    expect("forcing NULL p", F(forcing)(0, x, NULL, buf), S(NULL_POINTER));
    expect("energy NULL p", F(energy)(0, x, NULL, buf), S(NULL_POINTER));
    expect("outputs NULL p", F(outputs)(0, x, NULL, buf), S(NULL_POINTER));
    expect("multipliers NULL p", F(multipliers)(0, x, NULL, buf), S(NULL_POINTER));
    expect("constraints NULL p", F(constraints)(0, x, NULL, buf, buf2), S(NULL_POINTER));
    size_t rows = 0;
    expect("simulate NULL p", F(simulate)(x, NULL, 1, 0.5, 1e-8, 1e-10, buf, 10, &rows),
           S(NULL_POINTER));
  }
  /* Non-finite inputs that reach the result: NON_FINITE, whatever else the
   * NaN touches on its way (the mass matrix, the constraint Jacobian). */
  double xn[64], xv[64];
  memcpy(xn, x, sizeof xn);
  memcpy(xv, x, sizeof xv);
  xn[nq - 1] = NAN;  /* the last coordinate */
  xv[nq] = NAN;      /* the first velocity */
  expect("rhs NaN in q'", F(rhs)(0, xv, p, buf), S(NON_FINITE));
  expect("energy NaN in q'", F(energy)(0, xv, p, buf), S(NON_FINITE));
  expect("rhs NaN in q", F(rhs)(0, xn, p, buf), S(NON_FINITE));
  if (nc > 0) {  /* with nc = 0 there is no result to be non-finite */
    expect("multipliers NaN in q", F(multipliers)(0, xn, p, buf), S(NON_FINITE));
    expect("constraints NaN in q", F(constraints)(0, xn, p, buf, buf2), S(NON_FINITE));
  }
  memcpy(nan_p, p, info->np * sizeof *p);
  if (info->np > 0) {
    nan_p[info->np - 1] = NAN;  /* g of the pendulum, F of the knife edge */
    expect("rhs NaN in the last param", F(rhs)(0, x, nan_p, buf), S(NON_FINITE));
    memcpy(nan_p, p, info->np * sizeof *p);
    nan_p[0] = INFINITY;  /* the mass */
    expect("rhs infinite mass", F(rhs)(0, x, nan_p, buf), S(NON_FINITE));
  }

  /* simulate: the size query, a buffer too small, bad arguments. */
  size_t needed = 0, rows = 12345;
  expect("simulate size query", F(simulate)(x, p, 1, 0.25, 1e-8, 1e-10, NULL, 0, &needed),
         S(BUFFER_TOO_SMALL));
  ++checks;
  if (needed != 5) {
    ++failures;
    printf("FAIL simulate size query: *rows = %zu, expected 5 (t = 0, 0.25, ..., 1)\n", needed);
  }
  size_t needed2 = 0;
  expect("simulate size query, t_end not a multiple of dt",
         F(simulate)(x, p, 1.1, 0.25, 1e-8, 1e-10, NULL, 0, &needed2), S(BUFFER_TOO_SMALL));
  ++checks;
  if (needed2 != 6) {
    ++failures;
    printf("FAIL simulate size query (t_end 1.1, dt 0.25): *rows = %zu, expected 6\n", needed2);
  }
  for (int i = 0; i < 1024; ++i) buf[i] = -7.0;
  expect("simulate max_rows too small",
         F(simulate)(x, p, 1, 0.25, 1e-8, 1e-10, buf, needed - 1, &rows), S(BUFFER_TOO_SMALL));
  ++checks;
  if (rows != needed || buf[0] != -7.0) {
    ++failures;
    printf("FAIL simulate max_rows too small: *rows = %zu (expected %zu), out[0] = %g "
           "(expected untouched)\n", rows, needed, buf[0]);
  }
  expect("simulate NULL out with max_rows > 0",
         F(simulate)(x, p, 1, 0.25, 1e-8, 1e-10, NULL, 100, &rows), S(NULL_POINTER));
  expect("simulate NULL x0", F(simulate)(NULL, p, 1, 0.25, 1e-8, 1e-10, buf, 100, &rows),
         S(NULL_POINTER));
  expect("simulate NULL rows", F(simulate)(x, p, 1, 0.25, 1e-8, 1e-10, buf, 100, NULL),
         S(NULL_POINTER));
  expect("simulate dt = 0", F(simulate)(x, p, 1, 0, 1e-8, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate dt < 0", F(simulate)(x, p, 1, -0.1, 1e-8, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate dt = NaN", F(simulate)(x, p, 1, NAN, 1e-8, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate t_end < 0", F(simulate)(x, p, -1, 0.25, 1e-8, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate t_end = NaN", F(simulate)(x, p, NAN, 0.25, 1e-8, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate rtol = 0", F(simulate)(x, p, 1, 0.25, 0, 1e-10, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate atol < 0", F(simulate)(x, p, 1, 0.25, 1e-8, -1, buf, 100, &rows),
         S(INVALID_ARGUMENT));
  expect("simulate NaN in q0", F(simulate)(xn, p, 1, 0.25, 1e-8, 1e-10, buf, 100, &rows),
         S(NON_FINITE));
  expect("simulate NaN in q'0", F(simulate)(xv, p, 1, 0.25, 1e-8, 1e-10, buf, 100, &rows),
         S(NON_FINITE));
  if (info->np > 0) {
    nan_p[0] = NAN;
    expect("simulate NaN param", F(simulate)(x, nan_p, 1, 0.25, 1e-8, 1e-10, buf, 100, &rows),
           S(NON_FINITE));
  }
  /* A bad call leaves the library usable. */
  expect("simulate after the bad calls",
         F(simulate)(x, p, 1, 0.25, 1e-8, 1e-10, buf, needed, &rows), S(OK));
  ++checks;
  if (rows != needed || buf[0] != 0.0 || buf[(needed - 1) * width] != 1.0) {
    ++failures;
    printf("FAIL simulate after the bad calls: rows %zu, first t %g, last t %g\n", rows, buf[0],
           buf[(needed - 1) * width]);
  }
  bad_options(x, p, buf);
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
