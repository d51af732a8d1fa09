/* run_simulate_with.c: PREFIX_simulate_with as a command:
 *   run_simulate_with T0 T_END DT RTOL ATOL COLUMNS [x0[0] ... x0[2nq-1]]
 * COLUMNS is state, multipliers, outputs or all (the extra columns of each
 * row). The model's init state and the default params unless given. The
 * environment's METHOD=radau chooses Radau IIA (else DOPRI5). Prints
 * the rows as CSV (%.17g) without a header. Exits 1 on a status other than
 * OK or a row count other than the size query's. */
#include "prefix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const INFO *info = F(model)();
  const int nq = info->nq;
  if (argc != 7 && argc != 7 + 2 * nq) {
    fprintf(stderr, "usage: run_simulate_with T0 T_END DT RTOL ATOL COLUMNS [x0 (%d values)]\n",
            2 * nq);
    return 2;
  }
  F(sim_options) options = S(SIM_OPTIONS_INIT);
  options.t0 = atof(argv[1]);
  const char *method = getenv("METHOD");
  options.method = method && !strcmp(method, "radau") ? S(METHOD_RADAU) : S(METHOD_DOPRI5);
  const char *columns = argv[6];
  options.multipliers = !strcmp(columns, "multipliers") || !strcmp(columns, "all");
  options.outputs = !strcmp(columns, "outputs") || !strcmp(columns, "all");
  const int width =
      1 + 2 * nq + (options.multipliers ? info->nc : 0) + (options.outputs ? info->nout : 0);
  double t_end = atof(argv[2]), dt = atof(argv[3]), rtol = atof(argv[4]), atol = atof(argv[5]);
  double *x0 = malloc(2 * nq * sizeof *x0);
  for (int i = 0; i < 2 * nq; ++i)
    x0[i] = argc > 7 ? atof(argv[7 + i]) : info->init_state[i];
  size_t rows = 0;
  int status =
      F(simulate_with)(x0, info->param_defaults, t_end, dt, rtol, atol, &options, NULL, 0, &rows);
  if (status != S(BUFFER_TOO_SMALL) || rows == 0) {
    fprintf(stderr, "run_simulate_with: size query returned %d, rows %zu\n", status, rows);
    return 1;
  }
  double *out = malloc(rows * width * sizeof *out);
  size_t needed = rows;
  status =
      F(simulate_with)(x0, info->param_defaults, t_end, dt, rtol, atol, &options, out, rows, &rows);
  if (status != S(OK) || rows != needed) {
    fprintf(stderr, "run_simulate_with: returned %d, rows %zu of %zu\n", status, rows, needed);
    return 1;
  }
  for (size_t r = 0; r < rows; ++r)
    for (int i = 0; i < width; ++i)
      printf("%.17g%c", out[r * width + i], i + 1 < width ? ',' : '\n');
  free(out);
  free(x0);
  return 0;
}
