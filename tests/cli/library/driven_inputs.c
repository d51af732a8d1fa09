/* driven_inputs.c: a model with one input (examples/driven_oscillator.mech)
 * driven through PREFIX_simulate_with's input function:
 *   driven_inputs F0 W T_END
 * integrates from rest with u = F0 cos(W t) and prints "x_max x_at_end" over
 * the last 2 pi / W of the run; then, with no input function and u = F0 held
 * in p, prints the position at T_END (which tends to F0 / k). Exits 1 when
 * the model has no input or a call fails. */
#include "prefix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double amplitude, frequency;
} drive;

static void cosine(double t, double *u, void *context) {
  const drive *d = context;
  u[0] = d->amplitude * cos(d->frequency * t);
}

int main(int argc, char **argv) {
  const INFO *info = F(model)();
  if (argc != 4 || info->nu != 1)
    return 1;
  drive d = {atof(argv[1]), atof(argv[2])};
  double t_end = atof(argv[3]), dt = 0.01;
  double *p = malloc(info->np * sizeof *p);
  for (int i = 0; i < info->np; ++i)
    p[i] = info->param_defaults[i];
  F(sim_options) options = S(SIM_OPTIONS_INIT);
  options.inputs = cosine;
  options.inputs_context = &d;
  size_t max_rows = (size_t)(t_end / dt) + 2, rows = 0;
  double *out = malloc(max_rows * 3 * sizeof *out);
  const double x0[2] = {0, 0};
  if (F(simulate_with)(x0, p, t_end, dt, 1e-10, 1e-12, &options, out, max_rows, &rows) != S(OK))
    return 1;
  double largest = 0, period = 2 * acos(-1.0) / d.frequency;
  for (size_t r = 0; r < rows; ++r)
    if (out[3 * r] >= t_end - period && fabs(out[3 * r + 1]) > largest)
      largest = fabs(out[3 * r + 1]);
  printf("%.12g %.12g\n", largest, out[3 * (rows - 1) + 1]);
  options.inputs = NULL;
  p[info->np - 1] = d.amplitude;
  if (F(simulate_with)(x0, p, t_end, dt, 1e-10, 1e-12, &options, out, max_rows, &rows) != S(OK))
    return 1;
  printf("%.12g\n", out[3 * (rows - 1) + 1]);
  return 0;
}
