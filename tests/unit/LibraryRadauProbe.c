/* Test-only access to the static constants of the library runtime's Radau
 * IIA (runtime/library/LibraryRadau.c, included whole so that the tests
 * exercise the code every library links), for LibraryRadauTest.cpp. */
#include "runtime/library/LibraryRadau.c"

#include "LibraryRuntimeProbe.h"

void probe_radau_coefficients(double c[3], double T[9], double Tinv[9], double eigenvalues[3],
                              double error_weights[3]) {
  coefficients k;
  derive(&k);
  for (int i = 0; i < 3; ++i) {
    c[i] = k.c[i];
    error_weights[i] = k.error_weights[i];
    for (int j = 0; j < 3; ++j) {
      T[3 * i + j] = k.T[i][j];
      Tinv[3 * i + j] = k.Tinv[i][j];
    }
  }
  eigenvalues[0] = k.gamma;
  eigenvalues[1] = k.alpha;
  eigenvalues[2] = k.beta;
}

/* C99 guarantees that double complex has the layout of double[2]. */
int probe_lu_factor_complex(double *A, long n, long *pivots) {
  return mechrt_lu_factor_complex((double complex *)A, n, pivots);
}

void probe_lu_solve_complex(const double *LU, long n, const long *pivots, double *b) {
  mechrt_lu_solve_complex((const double complex *)LU, n, pivots, (double complex *)b);
}
