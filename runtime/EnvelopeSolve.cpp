// The envelope solve of the first-kind equations (runtime/EnvelopeSolve.h):
// the plan (a reverse Cuthill-McKee order of the coordinates and the
// envelope of M + s C^T C in it), the LDL^T factorization within the
// envelope, and the solve that mirrors solveConstrained step by step.
#include "runtime/EnvelopeSolve.h"

#include "runtime/DenseSolve.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace mech::runtime {

namespace {

// The plan's fields, in this order after a header of n, m, the envelope's
// entries and C's structural entries.
struct PlanView {
  size_t n, m, entries, cEntries;
  const int32_t *perm;      // position -> coordinate
  const int32_t *position;  // coordinate -> position
  const int32_t *rowStart;  // n + 1: where row p's envelope starts; it ends at its diagonal
  const int32_t *cRowStart; // m + 1
  const int32_t *cColumns;  // C's structural entries by rows, as coordinates

  explicit PlanView(const int32_t *plan)
      : n(static_cast<size_t>(plan[0])), m(static_cast<size_t>(plan[1])),
        entries(static_cast<size_t>(plan[2])), cEntries(static_cast<size_t>(plan[3])),
        perm(plan + 4), position(perm + n), rowStart(position + n), cRowStart(rowStart + n + 1),
        cColumns(cRowStart + m + 1) {}

  // The first column of row p's envelope.
  size_t first(size_t p) const {
    return p + 1 - static_cast<size_t>(rowStart[p + 1] - rowStart[p]);
  }
  // The place of entry (p, q), q in [first(p), p], in the envelope's values.
  size_t at(size_t p, size_t q) const { return static_cast<size_t>(rowStart[p]) + q - first(p); }
};

using Graph = std::vector<std::vector<size_t>>;

// The coordinates coupled in M or by a row of C (both enter M + s C^T C).
Graph couplings(size_t n, size_t m, const std::vector<bool> &nonzeroM,
                const std::vector<bool> &nonzeroC) {
  Graph graph(n);
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b)
      if (a != b && (nonzeroM[a * n + b] || nonzeroM[b * n + a]))
        graph[a].push_back(b);
  for (size_t r = 0; r < m; ++r) {
    std::vector<size_t> row;
    for (size_t a = 0; a < n; ++a)
      if (nonzeroC[r * n + a])
        row.push_back(a);
    for (size_t a : row)
      for (size_t b : row)
        if (a != b)
          graph[a].push_back(b);
  }
  for (std::vector<size_t> &neighbours : graph) {
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
  }
  return graph;
}

// Breadth-first from `start` over the unvisited coordinates, neighbours by
// increasing degree (Cuthill-McKee); appends them to `order`.
void visitFrom(size_t start, const Graph &graph, std::vector<bool> &visited,
               std::vector<size_t> &order) {
  std::queue<size_t> pending;
  pending.push(start);
  visited[start] = true;
  while (!pending.empty()) {
    size_t a = pending.front();
    pending.pop();
    order.push_back(a);
    std::vector<size_t> next;
    for (size_t b : graph[a])
      if (!visited[b]) {
        visited[b] = true;
        next.push_back(b);
      }
    std::stable_sort(next.begin(), next.end(),
                     [&](size_t x, size_t y) { return graph[x].size() < graph[y].size(); });
    for (size_t b : next)
      pending.push(b);
  }
}

// The last coordinate a breadth-first search from `start` reaches: repeated,
// a start at one end of the graph (a pseudo-peripheral node), so that the
// levels are many and narrow.
size_t farthest(size_t start, const Graph &graph) {
  std::vector<bool> visited(graph.size(), false);
  std::vector<size_t> order;
  visitFrom(start, graph, visited, order);
  return order.back();
}

// Reverse Cuthill-McKee: position -> coordinate.
std::vector<size_t> reverseCuthillMcKee(const Graph &graph) {
  const size_t n = graph.size();
  std::vector<bool> visited(n, false);
  std::vector<size_t> order;
  for (size_t a = 0; a < n; ++a) {
    if (visited[a])
      continue;
    size_t start = farthest(farthest(a, graph), graph);
    visitFrom(start, graph, visited, order);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// LDL^T of the envelope in place (L below the diagonal, D on it), row by
// row; false on a pivot not above `tolerance`. `t` has n places.
bool factorEnvelope(const PlanView &plan, double *L, double *t, double tolerance) {
  for (size_t p = 0; p < plan.n; ++p) {
    const size_t fp = plan.first(p);
    double *row = L + plan.at(p, fp) - fp; // row[q] is entry (p, q)
    double d = row[p];
    for (size_t q = fp; q < p; ++q) {
      // t[q] = L(p, q) D(q), from the entries of row p already found.
      const size_t fq = plan.first(q);
      const double *other = L + plan.at(q, fq) - fq;
      double s = row[q];
      for (size_t k = std::max(fp, fq); k < q; ++k)
        s -= t[k] * other[k];
      t[q] = s;
      row[q] = s / other[q];
      d -= s * row[q];
    }
    if (!(d > tolerance))
      return false;
    row[p] = d;
  }
  return true;
}

// Solves with the factored envelope, b in positions, in place; b's entries
// before `from` are 0 (a row of C's), which the forward pass skips.
void substituteEnvelope(const PlanView &plan, const double *L, double *b, size_t from = 0) {
  const size_t n = plan.n;
  for (size_t p = from; p < n; ++p) {
    const size_t fp = std::max(plan.first(p), from);
    const double *row = L + plan.at(p, plan.first(p)) - plan.first(p);
    double s = b[p];
    for (size_t q = fp; q < p; ++q)
      s -= row[q] * b[q];
    b[p] = s;
  }
  for (size_t p = 0; p < n; ++p)
    b[p] /= L[plan.at(p, p)];
  for (size_t p = n; p-- > 0;) {
    const size_t fp = plan.first(p);
    const double *row = L + plan.at(p, fp) - fp;
    for (size_t q = fp; q < p; ++q)
      b[q] -= row[q] * b[p];
  }
}

// M + s C^T C within the envelope, and f + s C^T gamma, in positions.
void assemble(const PlanView &plan, const double *M, const double *f, const double *C,
              const double *gamma, double s, double *L, double *y) {
  const size_t n = plan.n;
  for (size_t p = 0; p < n; ++p) {
    const size_t a = static_cast<size_t>(plan.perm[p]);
    y[p] = f[a];
    for (size_t q = plan.first(p); q <= p; ++q)
      L[plan.at(p, q)] = M[a * n + static_cast<size_t>(plan.perm[q])];
  }
  for (size_t r = 0; r < plan.m; ++r) {
    const double *row = C + r * n;
    for (int32_t i = plan.cRowStart[r]; i < plan.cRowStart[r + 1]; ++i) {
      const size_t a = static_cast<size_t>(plan.cColumns[i]), pa = plan.position[a];
      y[pa] += s * row[a] * gamma[r];
      for (int32_t j = plan.cRowStart[r]; j < plan.cRowStart[r + 1]; ++j) {
        const size_t b = static_cast<size_t>(plan.cColumns[j]), pb = plan.position[b];
        if (pb <= pa)
          L[plan.at(pa, pb)] += s * row[a] * row[b];
      }
    }
  }
}

double largestDiagonal(const PlanView &plan, const std::vector<double> &L) {
  double largest = 0;
  for (size_t p = 0; p < plan.n; ++p)
    largest = std::max(largest, std::abs(L[plan.at(p, p)]));
  return largest;
}

// The buffers of one thread's solves, kept between calls.
struct Workspace {
  std::vector<double> L, y, Z, S, r, t;
};

} // namespace

std::vector<int32_t> planEnvelopeSolve(size_t n, size_t m, const std::vector<bool> &nonzeroM,
                                       const std::vector<bool> &nonzeroC) {
  if (n < (m == 0 ? kEnvelopeMassFrom : kEnvelopeSolveFrom))
    return {};
  const Graph graph = couplings(n, m, nonzeroM, nonzeroC);
  std::vector<size_t> perm = reverseCuthillMcKee(graph);
  std::vector<size_t> position(n);
  for (size_t p = 0; p < n; ++p)
    position[perm[p]] = p;
  // Row p's envelope starts at its leftmost coupled position.
  std::vector<int32_t> rowStart{0};
  for (size_t p = 0; p < n; ++p) {
    size_t first = p;
    for (size_t b : graph[perm[p]])
      first = std::min(first, position[b]);
    rowStart.push_back(rowStart.back() + static_cast<int32_t>(p - first + 1));
  }
  const size_t entries = static_cast<size_t>(rowStart.back());
  if (static_cast<double>(entries) > kEnvelopeFillLimit * static_cast<double>(n * (n + 1) / 2))
    return {};
  std::vector<int32_t> cRowStart{0}, cColumns;
  for (size_t r = 0; r < m; ++r) {
    for (size_t a = 0; a < n; ++a)
      if (nonzeroC[r * n + a])
        cColumns.push_back(static_cast<int32_t>(a));
    cRowStart.push_back(static_cast<int32_t>(cColumns.size()));
  }
  std::vector<int32_t> plan{static_cast<int32_t>(n), static_cast<int32_t>(m),
                            static_cast<int32_t>(entries), static_cast<int32_t>(cColumns.size())};
  for (size_t a : perm)
    plan.push_back(static_cast<int32_t>(a));
  for (size_t p : position)
    plan.push_back(static_cast<int32_t>(p));
  plan.insert(plan.end(), rowStart.begin(), rowStart.end());
  plan.insert(plan.end(), cRowStart.begin(), cRowStart.end());
  plan.insert(plan.end(), cColumns.begin(), cColumns.end());
  return plan;
}

size_t envelopeEntries(const int32_t *plan) {
  return PlanView(plan).entries;
}

void envelopeMultiply(const int32_t *planData, const double *M, const double *x, double *y) {
  const PlanView plan(planData);
  const size_t n = plan.n;
  std::fill(y, y + n, 0.0);
  for (size_t p = 0; p < n; ++p) {
    const size_t a = static_cast<size_t>(plan.perm[p]);
    y[a] += M[a * n + a] * x[a];
    for (size_t q = plan.first(p); q < p; ++q) {
      const size_t b = static_cast<size_t>(plan.perm[q]);
      y[a] += M[a * n + b] * x[b];
      y[b] += M[b * n + a] * x[a];
    }
  }
}

PlanRows planConstraintRows(const int32_t *plan) {
  const PlanView view(plan);
  return {view.cRowStart, view.cColumns};
}

bool EnvelopeFactor::factor(const int32_t *planData, const double *Mf, double s,
                            double relativeTolerance) {
  const PlanView plan(planData);
  plan_ = planData;
  const size_t n = plan.n, m = plan.m;
  L_.resize(plan.entries);
  work_.resize(n);
  const double *f = Mf + n * n, *C = f + n;
  assemble(plan, Mf, f, C, C + m * n, s, L_.data(), work_.data());
  return factorEnvelope(plan, L_.data(), work_.data(),
                        relativeTolerance * largestDiagonal(plan, L_));
}

void EnvelopeFactor::solve(double *b) {
  const PlanView plan(plan_);
  for (size_t p = 0; p < plan.n; ++p)
    work_[p] = b[plan.perm[p]];
  substituteEnvelope(plan, L_.data(), work_.data());
  for (size_t p = 0; p < plan.n; ++p)
    b[plan.perm[p]] = work_[p];
}

int solveConstrainedEnvelope(const int32_t *planData, const double *Mf, double *qdd,
                             double *lambda) {
  const PlanView plan(planData);
  const size_t n = plan.n, m = plan.m;
  const double *M = Mf, *f = M + n * n, *C = f + n, *gamma = C + m * n;
  thread_local Workspace w;
  w.L.resize(plan.entries);
  w.y.resize(n);
  w.Z.assign(m * n, 0.0);
  w.S.resize(m * m);
  w.r.resize(m);
  w.t.resize(n);
  assemble(plan, M, f, C, gamma, constraintScale(n, m, M, C), w.L.data(), w.y.data());
  if (!factorEnvelope(plan, w.L.data(), w.t.data(), kPivotTolerance * largestDiagonal(plan, w.L)))
    return kSolveSingular;
  substituteEnvelope(plan, w.L.data(), w.y.data());
  if (m == 0) { // M q'' = f
    for (size_t p = 0; p < n; ++p)
      qdd[plan.perm[p]] = w.y[p];
    return kSolveOk;
  }
  // Z = (M + s C^T C)^-1 C^T, one row of C at a time, in positions.
  for (size_t r = 0; r < m; ++r) {
    double *z = w.Z.data() + r * n;
    size_t from = n;
    for (int32_t i = plan.cRowStart[r]; i < plan.cRowStart[r + 1]; ++i) {
      const size_t a = static_cast<size_t>(plan.cColumns[i]), pa = plan.position[a];
      z[pa] = C[r * n + a];
      from = std::min(from, pa);
    }
    substituteEnvelope(plan, w.L.data(), z, std::min(from, n));
  }
  for (size_t i = 0; i < m; ++i) {
    const int32_t begin = plan.cRowStart[i], end = plan.cRowStart[i + 1];
    w.r[i] = -gamma[i];
    for (int32_t k = begin; k < end; ++k) {
      const size_t a = static_cast<size_t>(plan.cColumns[k]);
      w.r[i] += C[i * n + a] * w.y[plan.position[a]];
    }
    for (size_t j = 0; j < m; ++j) {
      double sum = 0;
      for (int32_t k = begin; k < end; ++k) {
        const size_t a = static_cast<size_t>(plan.cColumns[k]);
        sum += C[i * n + a] * w.Z[j * n + plan.position[a]];
      }
      w.S[i * m + j] = sum;
    }
  }
  solveRegularizedSchur(m, w.S.data(), w.r.data()); // r = mu = -lambda
  for (size_t p = 0; p < n; ++p) {
    double value = w.y[p];
    for (size_t i = 0; i < m; ++i)
      value -= w.Z[i * n + p] * w.r[i];
    qdd[plan.perm[p]] = value;
  }
  for (size_t i = 0; i < m; ++i)
    lambda[i] = -w.r[i];
  return kSolveOk;
}

} // namespace mech::runtime

extern "C" int mech_solve_constrained_envelope(const int32_t *plan, const double *Mf, double *qdd,
                                               double *lambda) {
  return mech::runtime::solveConstrainedEnvelope(plan, Mf, qdd, lambda);
}
