/* check_jacobian.c: PREFIX_jacobian against central differences of
 * PREFIX_rhs at STATES states near the model's init (each component moved
 * by a pseudo-random amount up to 0.3, from SEED), with the default params:
 *   check_jacobian STATES SEED
 * An entry passes when |J - D| <= 1e-7 (1 + |J| + s), D the central
 * difference quotient with steps h = 1e-5 (1 + |x_j|) and h/2, combined by
 * Richardson extrapolation (error O(h^4): the stiff examples' curvatures
 * make plain differences too coarse), and s the largest |J| of its row (the
 * difference's rounding scales with the row's entries). States where
 * the rhs fails (a singular M) are skipped; at least one must be checked.
 * Prints the largest relative deviation; exits 1 on a failure. Build: see
 * prefix.h. */
#include "prefix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long seed;

static double next_uniform(void) { /* in [-1, 1), a 64-bit LCG */
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

/* The central difference quotient of F along x_j with step h into d (n
 * values); y, plus and minus are scratch. 0 when F fails. */
static int difference(double t, const double *x, const double *p, int j, double h, double *y,
                      double *plus, double *minus, double *d) {
  const int n = 2 * F(model)()->nq;
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  y[j] = x[j] + h;
  int a = F(rhs)(t, y, p, plus);
  y[j] = x[j] - h;
  int b = F(rhs)(t, y, p, minus);
  for (int i = 0; i < n; ++i)
    d[i] = (plus[i] - minus[i]) / (2 * h);
  return a == S(OK) && b == S(OK);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: check_jacobian STATES SEED\n");
    return 2;
  }
  const INFO *info = F(model)();
  const int n = 2 * info->nq, states = atoi(argv[1]);
  seed = strtoull(argv[2], NULL, 10);
  const double *p = info->param_defaults;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *J = malloc(n * n * sizeof *J);
  double *plus = malloc(n * sizeof *plus), *minus = malloc(n * sizeof *minus);
  double *coarse = malloc(n * sizeof *coarse), *fine = malloc(n * sizeof *fine);
  int checked = 0, failures = 0;
  double worst = 0;
  for (int k = 0; k < states; ++k) {
    const double t = 0.1 * k;
    for (int i = 0; i < n; ++i)
      x[i] = info->init_state[i] + 0.3 * next_uniform();
    if (F(rhs)(t, x, p, plus) != S(OK))
      continue;
    int status = F(jacobian)(t, x, p, J);
    if (status != S(OK)) {
      fprintf(stderr, "check_jacobian: jacobian returned %d where rhs did not fail\n", status);
      return 1;
    }
    ++checked;
    for (int j = 0; j < n; ++j) {
      const double h = 1e-5 * (1 + fabs(x[j]));
      if (!difference(t, x, p, j, h, y, plus, minus, coarse) ||
          !difference(t, x, p, j, h / 2, y, plus, minus, fine)) {
        fprintf(stderr, "check_jacobian: rhs failed near a state where it did not\n");
        return 1;
      }
      for (int i = 0; i < n; ++i) {
        double row = 0;
        for (int c = 0; c < n; ++c)
          row = fmax(row, fabs(J[i * n + c]));
        const double d = (4 * fine[i] - coarse[i]) / 3, bound = 1 + fabs(J[i * n + j]) + row;
        const double deviation = fabs(J[i * n + j] - d) / bound;
        worst = fmax(worst, deviation);
        if (!(deviation <= 1e-7)) {
          fprintf(stderr, "check_jacobian: state %d, J[%d][%d] = %.17g, differences %.17g\n", k, i,
                  j, J[i * n + j], d);
          ++failures;
        }
      }
    }
  }
  printf("checked %d states, largest deviation %.3g\n", checked, worst);
  return failures > 0 || checked == 0;
}
