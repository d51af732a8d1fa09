/* The impact law of the runtime of built libraries (LibraryImpact.c): the
 * velocities just after an impact and the contacts' impulses, by Newton's
 * law of restitution for the contacts that touch at one instant, as the
 * CLI's runtime/ImpactLaw.cpp computes them. Hidden in a built library. */
#ifndef MECH_LIBRARY_IMPACT_H
#define MECH_LIBRARY_IMPACT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The impulsive equations of an impact with Newton's law (see the C++
 * runtime/ImpactLaw.h for the math). */
typedef struct {
  long n, m, k;            /* coordinates, bilateral rows, contacts */
  const double *M;         /* n*n row-major mass matrix */
  const double *A, *a;     /* m*n rows and m offsets: A v+ + a = 0 after the impact */
  const double *G, *b, *r; /* k*n rows, k offsets, k least rates after the impact */
  const double *velocity;  /* v-, n values */
} mechrt_impact_problem;

enum {
  MECHRT_IMPACT_SOLVED = 0,
  MECHRT_IMPACT_SINGULAR = 1,    /* no set of pushing contacts gives a solvable system */
  MECHRT_IMPACT_NO_SOLUTION = 2, /* some do, but every one pulls or lets a contact close */
  MECHRT_IMPACT_TOO_MANY_CONTACTS = 3,
  MECHRT_IMPACT_OUT_OF_MEMORY = 4
};

/* The most contacts of one impact: the sets of pushing contacts are tried
 * one by one, 2^k of them. */
#define MECHRT_MAX_IMPACT_CONTACTS 12

/* v+ into velocity (n), Lambda into impulse (k, 0 for contacts that do not
 * push); returns one of the codes above. The outputs are written only when
 * the impact is solved, and last: velocity may be problem->velocity. */
int mechrt_solve_impact(const mechrt_impact_problem *problem, double *velocity, double *impulse);

#ifdef __cplusplus
}
#endif

#endif
