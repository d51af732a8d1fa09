/* run_simulate.c: PREFIX_simulate as a command:
 *   run_simulate T_END DT RTOL ATOL [x0[0] ... x0[2nq-1]]
 * (the model's init state and the default params unless given). Prints the
 * rows as CSV (%.17g) like `mech simulate`, without the header and without
 * multipliers or outputs. Exits 1 on a status other than OK. */
#include "prefix.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  const INFO *info = F(model)();
  const int nq = info->nq, width = 1 + 2 * nq;
  if (argc != 5 && argc != 5 + 2 * nq) {
    fprintf(stderr, "usage: run_simulate T_END DT RTOL ATOL [x0 (%d values)]\n", 2 * nq);
    return 2;
  }
  double t_end = atof(argv[1]), dt = atof(argv[2]), rtol = atof(argv[3]), atol = atof(argv[4]);
  double *x0 = malloc(2 * nq * sizeof *x0);
  for (int i = 0; i < 2 * nq; ++i) x0[i] = argc > 5 ? atof(argv[5 + i]) : info->init_state[i];
  size_t rows = 0;
  int status = F(simulate)(x0, info->param_defaults, t_end, dt, rtol, atol, NULL, 0, &rows);
  if (status != S(BUFFER_TOO_SMALL) || rows == 0) {
    fprintf(stderr, "run_simulate: size query returned %d, rows %zu\n", status, rows);
    return 1;
  }
  double *out = malloc(rows * width * sizeof *out);
  size_t needed = rows;
  status = F(simulate)(x0, info->param_defaults, t_end, dt, rtol, atol, out, rows, &rows);
  if (status != S(OK) || rows != needed) {
    fprintf(stderr, "run_simulate: simulate returned %d, rows %zu of %zu\n", status, rows, needed);
    return 1;
  }
  for (size_t r = 0; r < rows; ++r)
    for (int i = 0; i < width; ++i) printf("%.17g%c", out[r * width + i], i + 1 < width ? ',' : '\n');
  free(out);
  free(x0);
  return 0;
}
