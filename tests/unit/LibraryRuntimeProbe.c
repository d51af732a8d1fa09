/* Test-only wrappers around the static routines of the library runtime: the
 * file is included whole, so that the tests exercise exactly the code that
 * `mech build` links into every library (see LibraryRuntimeProbe.h), and the
 * workspaces are laid out as `simulate` lays them out. */
#include "runtime/library/LibraryRuntime.c"

#include "LibraryRuntimeProbe.h"

/* A stepper over one block of 15 * size doubles, as `simulate` makes it. */
static double *make_stepper(stepper *s, const mechrt_model *model, const double *p) {
  long N = 2 * model->nq;
  double *block = calloc((size_t)(15 * N > 0 ? 15 * N : 1), sizeof(double));
  if (!block)
    return NULL;
  double *next = block;
  s->sys.model = model;
  s->sys.p = p;
  s->sys.size = N;
  s->sys.inputs = NULL; /* the inputs stay as p holds them */
  s->sys.inputs_context = NULL;
  s->sys.driven = NULL;
  s->sys.switching = NULL; /* a run without events or contacts */
  s->steps = 0;
  s->y = next, next += N;
  s->y1 = next, next += N;
  s->tmp = next, next += N;
  for (int i = 0; i < 7; ++i)
    s->k[i] = next, next += N;
  for (int i = 0; i < 5; ++i)
    s->dense[i] = next, next += N;
  return block;
}

int probe_dopri5_step(const mechrt_model *model, const double *p, double t, const double *y,
                      double h, double rtol, double atol, double *y1, double *error,
                      const double *thetas, long count, double *dense) {
  stepper s;
  double *block = make_stepper(&s, model, p);
  if (!block)
    return MECHRT_OUT_OF_MEMORY;
  memcpy(s.y, y, sizeof(double) * (size_t)s.sys.size);
  int status = evaluate(&s, t, s.y, s.k[0]);
  if (status == MECHRT_OK)
    status = attempt(&s, t, h, rtol, atol, error);
  if (status == MECHRT_OK) {
    memcpy(y1, s.y1, sizeof(double) * (size_t)s.sys.size);
    prepare_dense_output(&s, h);
    for (long i = 0; i < count; ++i)
      interpolate(&s, thetas[i], dense + i * s.sys.size);
  }
  free(block);
  return status;
}

double probe_initial_step(const mechrt_model *model, const double *p, double t, const double *y,
                          double rtol, double atol, double hmax, int *status) {
  stepper s;
  double *block = make_stepper(&s, model, p);
  if (!block) {
    *status = MECHRT_OUT_OF_MEMORY;
    return 0;
  }
  memcpy(s.y, y, sizeof(double) * (size_t)s.sys.size);
  double h = 0;
  *status = evaluate(&s, t, s.y, s.k[0]);
  if (*status == MECHRT_OK)
    h = mechrt_initial_step(&s.sys, t, s.y, s.k[0], s.tmp, s.k[1], 5, rtol, atol, hmax);
  free(block);
  return h;
}

/* The projection workspace of `simulate`: Phi, psi, C, then the Gram
 * matrix, y, the metric's factor and W^-1 C^T. */
static double *make_projection(projection *w, const mechrt_model *model, const double *p) {
  long m = model->nc, n = model->nq;
  size_t doubles = (size_t)(2 * m + m * n + m * m + m + n * n + m * n);
  double *block = calloc(doubles > 0 ? doubles : 1, sizeof(double));
  if (!block)
    return NULL;
  w->model = model;
  w->p = p;
  w->m = m; /* the model's rows: no contact rests */
  w->holonomic = model->holonomic;
  w->switching = NULL;
  w->values = block;
  w->gram = block + 2 * m + m * n;
  w->y = w->gram + m * m;
  w->metric = w->y + m;
  w->z = w->metric + n * n;
  w->weighted = 0;
  return block;
}

int probe_least_change(long nq, long nc, const double *C, const unsigned char *rows,
                       const double *r, double *v, double *y) {
  mechrt_model model;
  memset(&model, 0, sizeof model);
  model.nq = nq;
  model.nc = nc;
  projection w;
  double *block = make_projection(&w, &model, NULL);
  if (!block)
    return MECHRT_OUT_OF_MEMORY;
  if (nc * nq > 0)
    memcpy(w.values + 2 * nc, C, sizeof(double) * (size_t)(nc * nq));
  int status = least_change(&w, rows, r, v);
  if (status == MECHRT_OK) {
    long k = 0;
    for (long i = 0; i < nc; ++i)
      if (!rows || rows[i])
        ++k;
    if (k > 0)
      memcpy(y, w.y, sizeof(double) * (size_t)k);
  }
  free(block);
  return status;
}

int probe_project(const mechrt_model *model, const double *p, double t, double *x) {
  projection w;
  double *block = make_projection(&w, model, p);
  if (!block)
    return MECHRT_OUT_OF_MEMORY;
  int status = mechrt_project(&w, t, x);
  free(block);
  return status;
}
