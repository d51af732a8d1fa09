/* The consistency of a contact mode where a resting contact's force also
 * drives a sliding friction (`normal CONTACT`): the contact must respond
 * to its own acceleration as a contact does, or its force has no unique
 * value (Painleve's paradox), as the CLI's runtime::solveWithReactions
 * checks. */
#include "LibrarySwitches.h"

#include <string.h>

long mechrt_contact_row(const mechrt_switching *w, long c) {
  long row = w->n + w->m;
  for (long i = 0; i < c; ++i)
    row += w->resting[i] ? 1 : 0;
  return row;
}

/* Whether resting contact c's force drives a sliding friction. */
static int drives_sliding(const mechrt_switching *w, long c) {
  for (long f = 0; f < w->F; ++f)
    if (mechrt_friction_contact(w, f) == c && (w->friction[f] == 1 || w->friction[f] == -1))
      return 1;
  return 0;
}

/* Whether every principal minor of the r*r matrix B is positive. */
static int p_matrix(const double *B, long r) {
  for (unsigned long subset = 1; subset < (1ul << r); ++subset) {
    long size = 0, rows[r];
    for (long i = 0; i < r; ++i)
      if (subset & (1ul << i))
        rows[size++] = i;
    double A[size * size], det = 1;
    long pivots[size];
    for (long i = 0; i < size; ++i)
      for (long j = 0; j < size; ++j)
        A[i * size + j] = B[rows[i] * r + rows[j]];
    if (!mechrt_lu_factor(A, size, pivots))
      return 0;
    for (long i = 0; i < size; ++i)
      det *= (pivots[i] != i ? -1 : 1) * A[i * size + i];
    if (!(det > 0))
      return 0;
  }
  return 1;
}

int mechrt_contacts_consistent(mechrt_switching *w, long s) {
  long rows[w->k > 0 ? w->k : 1], r = 0;
  for (long c = 0; c < w->k; ++c)
    if (w->resting[c] && drives_sliding(w, c))
      rows[r++] = mechrt_contact_row(w, c);
  if (r == 0)
    return 1;
  double B[r * r];
  for (long b = 0; b < r; ++b) {
    memset(w->kkt_probe, 0, sizeof(double) * (size_t)s);
    w->kkt_probe[rows[b]] = 1;
    mechrt_lu_solve(w->kkt, s, w->pivots, w->kkt_probe);
    for (long a = 0; a < r; ++a)
      B[a * r + b] = w->kkt_probe[rows[a]];
  }
  for (long a = 0; a < r; ++a)
    if (!(B[a * r + a] > 0))
      return 0;
  return r == 1 || r > 16 || p_matrix(B, r);
}
