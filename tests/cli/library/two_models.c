/* two_models.c: two compiled models in one process.
 *   two_models LIBDP_MECH.so LIBCP_MECH.so
 * Links libdp.so (prefix dp, the double pendulum) and libcp.so (prefix cp,
 * the Cartesian pendulum). Computes reference results single-threaded, then
 * runs both models from two threads at once, many times (and then one model
 * from two threads), and checks every result is bit-identical to the
 * reference. Then loads the two libraries
 * given on the command line, built from the same models with the default
 * prefix mech, with dlopen(RTLD_LOCAL): each library's mech_* functions
 * must give the results of dp_* and cp_* respectively, also from two threads
 * at once. Prints "ok" lines; exits 1 on any mismatch. */
#include "cp.h"
#include "dp.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 1000
#define MAXW 16

typedef int (*rhs_fn)(double, const double *, const double *, double *);
typedef int (*energy_fn)(double, const double *, const double *, double *);
typedef int (*simulate_fn)(const double *, const double *, double, double, double, double,
                           double *, size_t, size_t *);

/* One model's entry points and its reference results. */
typedef struct {
  const char *label;
  int nq;
  const double *x0, *p;
  rhs_fn rhs;
  energy_fn energy;
  simulate_fn simulate;
  double ref_xdot[MAXW], ref_tv[2], ref_sim[64 * MAXW];
  size_t ref_rows;
  int mismatches;
} model;

static int run_once(model *m, double *xdot, double *tv, double *sim, size_t *rows) {
  if (m->rhs(0.25, m->x0, m->p, xdot) != 0) return 1;
  if (m->energy(0.25, m->x0, m->p, tv) != 0) return 1;
  return m->simulate(m->x0, m->p, 1.0, 0.1, 1e-9, 1e-11, sim, 64, rows) != 0;
}

static void reference(model *m) {
  if (run_once(m, m->ref_xdot, m->ref_tv, m->ref_sim, &m->ref_rows) != 0) {
    printf("FAIL %s: reference call failed\n", m->label);
    exit(1);
  }
}

static int same(const model *m, const double *xdot, const double *tv, const double *sim,
                size_t rows) {
  size_t w = 1 + 2 * m->nq;
  return rows == m->ref_rows && memcmp(xdot, m->ref_xdot, 2 * m->nq * sizeof(double)) == 0 &&
         memcmp(tv, m->ref_tv, sizeof m->ref_tv) == 0 &&
         memcmp(sim, m->ref_sim, rows * w * sizeof(double)) == 0;
}

static void *hammer(void *arg) {
  model *m = arg;
  double xdot[MAXW], tv[2], sim[64 * MAXW];
  size_t rows;
  for (int i = 0; i < ROUNDS; ++i)
    if (run_once(m, xdot, tv, sim, &rows) != 0 || !same(m, xdot, tv, sim, rows)) ++m->mismatches;
  return NULL;
}

static int concurrently(model *a, model *b, const char *what) {
  pthread_t ta, tb;
  a->mismatches = b->mismatches = 0;
  if (pthread_create(&ta, NULL, hammer, a) != 0 || pthread_create(&tb, NULL, hammer, b) != 0) {
    printf("FAIL %s: pthread_create\n", what);
    return 1;
  }
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  if (a->mismatches || b->mismatches) {
    printf("FAIL %s: %d and %d of %d rounds differ from the single-threaded results\n", what,
           a->mismatches, b->mismatches, ROUNDS);
    return 1;
  }
  printf("ok %s: %d rounds each, all equal\n", what, ROUNDS);
  return 0;
}

static void *load(const char *path, model *m, const char *expected_name) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("FAIL dlopen %s: %s\n", path, dlerror());
    exit(1);
  }
  const dp_model_info *(*info)(void) = (const dp_model_info *(*)(void))dlsym(h, "mech_model");
  m->rhs = (rhs_fn)dlsym(h, "mech_rhs");
  m->energy = (energy_fn)dlsym(h, "mech_energy");
  m->simulate = (simulate_fn)dlsym(h, "mech_simulate");
  if (!info || !m->rhs || !m->energy || !m->simulate) {
    printf("FAIL %s: mech_* symbols missing\n", path);
    exit(1);
  }
  if (strcmp(info()->name, expected_name) != 0) {
    printf("FAIL %s: mech_model()->name is %s, expected %s\n", path, info()->name,
           expected_name);
    exit(1);
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: two_models LIBDP_MECH.so LIBCP_MECH.so\n");
    return 2;
  }
  const dp_model_info *di = dp_model();
  const cp_model_info *ci = cp_model();
  if (strcmp(di->name, "DoublePendulum") != 0 || strcmp(ci->name, "CartesianPendulum") != 0) {
    printf("FAIL names: %s, %s\n", di->name, ci->name);
    return 1;
  }
  double dx[4] = {0.4, -0.2, 0.3, 0.1}, cx[4] = {0.6, -0.8, 0.5, 0.375};
  model dp = {.label = "dp", .nq = di->nq, .x0 = dx, .p = di->param_defaults, .rhs = dp_rhs,
              .energy = dp_energy, .simulate = dp_simulate};
  model cp = {.label = "cp", .nq = ci->nq, .x0 = cx, .p = ci->param_defaults, .rhs = cp_rhs,
              .energy = cp_energy, .simulate = cp_simulate};
  reference(&dp);
  reference(&cp);
  if (dp.ref_rows != 11 || cp.ref_rows != 11) {
    printf("FAIL rows: %zu, %zu, expected 11\n", dp.ref_rows, cp.ref_rows);
    return 1;
  }
  int failed = concurrently(&dp, &cp, "dp and cp from two threads");
  model dp2 = dp;  /* the same library from two threads */
  failed |= concurrently(&dp, &dp2, "dp from two threads");

  /* The same models built with the default prefix, side by side via dlopen. */
  model dm = dp, cm = cp;
  dm.label = "mech (double pendulum)";
  cm.label = "mech (cartesian pendulum)";
  void *h1 = load(argv[1], &dm, "DoublePendulum");
  void *h2 = load(argv[2], &cm, "CartesianPendulum");
  failed |= concurrently(&dm, &cm, "two mech-prefixed libraries via dlopen(RTLD_LOCAL)");
  dlclose(h2);
  dlclose(h1);
  return failed;
}
