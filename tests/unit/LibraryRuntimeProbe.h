/* The static routines of runtime/library/LibraryRuntime.c, exposed to the
 * unit tests by LibraryRuntimeProbe.c (which includes that file) so that
 * LibraryRuntimeTest.cpp can check each against the C++ runtime on the same
 * inputs. Test-only: nothing here is linked into mech or a built library. */
#ifndef MECH_TESTS_LIBRARY_RUNTIME_PROBE_H
#define MECH_TESTS_LIBRARY_RUNTIME_PROBE_H

#include "runtime/library/LibraryRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One DOPRI5 step of the library runtime (`attempt`) of size h from (t, y),
 * y of 2*nq values: the candidate end state y1, the error norm, and the
 * dense output (`prepare_dense_output`, `interpolate`) at the `count` values
 * of theta, count*2*nq values row after row. Returns the status of the
 * right-hand side (MECHRT_OK, MECHRT_OUT_OF_MEMORY, ...). */
int probe_dopri5_step(const mechrt_model *model, const double *p, double t, const double *y,
                      double h, double rtol, double atol, double *y1, double *error,
                      const double *thetas, long count, double *dense);

/* Hairer's initial step of the library runtime (`mechrt_initial_step`, for
 * order 5) from (t, y) with the bound hmax; *status that of F(t, y). */
double probe_initial_step(const mechrt_model *model, const double *p, double t, const double *y,
                          double rtol, double atol, double hmax, int *status);

/* `least_change` for nc rows of the Jacobian C (nc*nq, row-major), over the
 * rows flagged in `rows` (all when NULL): solves (C_S C_S^T) y = r_S by
 * Cholesky, writes the k solved values to y (k = the rows in use) and adds
 * -C_S^T y to v (nq values). */
int probe_least_change(long nq, long nc, const double *C, const unsigned char *rows,
                       const double *r, double *v, double *y);

/* `project`: moves the state x (2*nq values) onto the model's constraints at
 * t, positions by Gauss-Newton steps of least change, then velocities. */
int probe_project(const mechrt_model *model, const double *p, double t, double *x);

/* The constants of the runtime's Radau IIA (LibraryRadau.c, `derive`): the
 * nodes, T and T^-1 (3x3, row-major), (gamma, alpha, beta) and the error
 * estimate's weights, as runtime/Radau5.h documents them. */
void probe_radau_coefficients(double c[3], double T[9], double Tinv[9], double eigenvalues[3],
                              double error_weights[3]);

/* The runtime's hidden linear algebra and state Jacobian, declared for the
 * tests (LibraryInternal.h is C only: it uses C99 complex types). */
int mechrt_lu_factor(double *A, long n, long *pivots);
void mechrt_lu_solve(const double *LU, long n, const long *pivots, double *b);
/* The complex variants on interleaved (real, imaginary) pairs. */
int probe_lu_factor_complex(double *A, long n, long *pivots);
void probe_lu_solve_complex(const double *LU, long n, const long *pivots, double *b);

#ifdef __cplusplus
}
#endif

#endif
