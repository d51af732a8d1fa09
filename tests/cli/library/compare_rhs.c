/* compare_rhs.c: evaluates a compiled model at the states read from stdin,
 * one a line: t x[0] ... x[2nq-1]. Prints, per state, one line (%.17g)
 *   xdot[0..2nq-1] T V lambda[0..nc-1] out[0..nout-1] M[0..nq*nq-1]
 *   f[0..nq-1] residuals[0..2nc-1] C[0..nc*nq-1]
 * for compare_eval.py to compare with `mech eval --json`. Arguments NAME=VALUE
 * (SI) replace the defaults of those params.
 * Exits 1 on any status other than OK. Build: see prefix.h. */
#include "prefix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int status, const char *call) {
  if (status != S(OK)) {
    fprintf(stderr, "compare_rhs: %s returned %d\n", call, status);
    exit(1);
  }
}

int main(int argc, char **argv) {
  const INFO *info = F(model)();
  const int nq = info->nq, nc = info->nc, nout = info->nout;
  double x[256], xdot[256], tv[2], lambda[64], out[64], M[128 * 128], f[128], res[128],
      C[64 * 128], t;
  if (2 * nq > 256 || nc > 64 || nout > 64) return 2;
  double p[64];
  if (info->np > 64) return 2;
  memcpy(p, info->param_defaults, info->np * sizeof *p);
  for (int a = 1; a < argc; ++a) {
    const char *eq = strchr(argv[a], '=');
    int found = 0;
    for (int i = 0; eq != NULL && i < info->np; ++i)
      if (strlen(info->param_names[i]) == (size_t)(eq - argv[a]) &&
          strncmp(info->param_names[i], argv[a], eq - argv[a]) == 0) {
        p[i] = atof(eq + 1);
        found = 1;
      }
    if (!found) {
      fprintf(stderr, "compare_rhs: no param for '%s'\n", argv[a]);
      return 2;
    }
  }
  while (scanf("%lf", &t) == 1) {
    for (int i = 0; i < 2 * nq; ++i)
      if (scanf("%lf", &x[i]) != 1) return 2;
    check(F(rhs)(t, x, p, xdot), "rhs");
    check(F(energy)(t, x, p, tv), "energy");
    check(F(multipliers)(t, x, p, lambda), "multipliers");
    check(F(outputs)(t, x, p, out), "outputs");
    check(F(mass_matrix)(t, x, p, M), "mass_matrix");
    check(F(forcing)(t, x, p, f), "forcing");
    check(F(constraints)(t, x, p, res, C), "constraints");
    for (int i = 0; i < 2 * nq; ++i) printf("%.17g ", xdot[i]);
    printf("%.17g %.17g", tv[0], tv[1]);
    for (int i = 0; i < nc; ++i) printf(" %.17g", lambda[i]);
    for (int i = 0; i < nout; ++i) printf(" %.17g", out[i]);
    for (int i = 0; i < nq * nq; ++i) printf(" %.17g", M[i]);
    for (int i = 0; i < nq; ++i) printf(" %.17g", f[i]);
    for (int i = 0; i < 2 * nc; ++i) printf(" %.17g", res[i]);
    for (int i = 0; i < nc * nq; ++i) printf(" %.17g", C[i]);
    printf("\n");
  }
  return 0;
}
