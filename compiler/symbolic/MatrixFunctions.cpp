// Packed matrices, their determinant and inverse entries
// (symbolic/MatrixFunctions.h).
#include "symbolic/MatrixFunctions.h"

#include "support/Diagnostics.h"

#include <cmath>
#include <utility>

namespace mech::sym {

namespace {

const Node *matrixOf(const Node *n) {
  return n->fn == Fn::Det ? n->ops[0] : n->ops[2];
}

bool isIndex(const Node *n, int size) {
  if (n->kind != Kind::Number || !n->num.isInteger())
    return false;
  int64_t k = n->num.rational().num();
  return k >= 1 && k <= size;
}

// Rows k and p of the matrix and of the inverse being built, swapped.
template <class T> void swapRows(size_t n, T *a, T *inverse, size_t k, size_t p) {
  for (size_t j = 0; j < n; ++j) {
    std::swap(a[k * n + j], a[p * n + j]);
    std::swap(inverse[k * n + j], inverse[p * n + j]);
  }
}

// Gauss-Jordan on exact or inexact numbers, as invertDense does on doubles
// (the pivot of largest magnitude, so inexact entries round as there).
// Returns false for a singular matrix (det is then 0).
bool invertNumbers(size_t n, std::vector<Num> a, std::vector<Num> &inverse, Num &det) {
  inverse.assign(n * n, Num(0));
  for (size_t k = 0; k < n; ++k)
    inverse[k * n + k] = Num(1);
  det = Num(1);
  for (size_t k = 0; k < n; ++k) {
    size_t p = k;
    for (size_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k].toDouble()) > std::fabs(a[p * n + k].toDouble()))
        p = i;
    if (a[p * n + k].isZero()) {
      det = Num(0);
      return false;
    }
    if (p != k) {
      swapRows(n, a.data(), inverse.data(), k, p);
      det = -det;
    }
    Num pivot = a[k * n + k];
    det = det * pivot;
    for (size_t j = 0; j < n; ++j) {
      a[k * n + j] = a[k * n + j] / pivot;
      inverse[k * n + j] = inverse[k * n + j] / pivot;
    }
    for (size_t i = 0; i < n; ++i) {
      Num f = a[i * n + k];
      if (i == k || f.isZero())
        continue;
      for (size_t j = 0; j < n; ++j) {
        a[i * n + j] = a[i * n + j] - f * a[k * n + j];
        inverse[i * n + j] = inverse[i * n + j] - f * inverse[k * n + j];
      }
    }
  }
  return true;
}

} // namespace

Expr packMatrix(Context &context, const std::vector<Expr> &entries) {
  return context.function(Fn::Matrix, entries);
}

int packedSize(const Node *matrix) {
  return static_cast<int>(packedSide(matrix->ops.size()));
}

Expr packedDeterminant(const Expr &matrix) {
  return matrix.context().function(Fn::Det, {matrix});
}

Expr packedInverseEntry(const Expr &matrix, int i, int j) {
  Context &c = matrix.context();
  return c.function(Fn::InvEntry, {c.integer(i + 1), c.integer(j + 1), matrix});
}

std::pair<int, int> inverseEntryIndex(const Node *entry) {
  return {static_cast<int>(entry->ops[0]->num.rational().num()) - 1,
          static_cast<int>(entry->ops[1]->num.rational().num()) - 1};
}

bool matrixOperandsFit(Fn fn, const std::vector<const Node *> &ops) {
  if (fn == Fn::Matrix) {
    size_t n = static_cast<size_t>(kMaxPackedSize);
    return !ops.empty() && ops.size() <= n * n;
  }
  const Node *matrix = fn == Fn::Det ? ops[0] : ops[2];
  if (matrix->kind != Kind::Func || matrix->fn != Fn::Matrix)
    return false;
  int size = packedSize(matrix);
  return fn == Fn::Det || (isIndex(ops[0], size) && isIndex(ops[1], size));
}

Expr foldMatrixFunction(Context &context, Fn fn, const std::vector<Expr> &args) {
  if (fn == Fn::Matrix)
    return Expr();
  const Node *matrix = fn == Fn::Det ? args[0].node() : args[2].node();
  std::vector<Num> entries;
  for (const Node *entry : matrix->ops) {
    if (entry->kind != Kind::Number)
      return Expr();
    entries.push_back(entry->num);
  }
  size_t n = static_cast<size_t>(packedSize(matrix));
  std::vector<Num> inverse;
  Num det;
  bool regular = invertNumbers(n, std::move(entries), inverse, det);
  if (fn == Fn::Det)
    return context.number(det);
  if (!regular)
    return Expr();
  size_t i = static_cast<size_t>(args[0]->num.rational().num() - 1);
  size_t j = static_cast<size_t>(args[1]->num.rational().num() - 1);
  return context.number(inverse[i * n + j]);
}

Expr matrixFunctionDerivative(const Node *n, const std::function<Expr(const Node *)> &derive) {
  const Node *matrix = matrixOf(n);
  Expr packed(matrix);
  int size = packedSize(matrix);
  std::vector<Expr> terms;
  auto [i, j] = n->fn == Fn::InvEntry ? inverseEntryIndex(n) : std::pair<int, int>{0, 0};
  for (int k = 0; k < size; ++k)
    for (int l = 0; l < size; ++l) {
      Expr da = derive(matrix->ops[static_cast<size_t>(k * size + l)]);
      if (da.isZero())
        continue;
      if (n->fn == Fn::Det) // det(A) (A^-1)[l, k] dA[k, l]
        terms.push_back(packedInverseEntry(packed, l, k) * da);
      else // -(A^-1)[i, k] dA[k, l] (A^-1)[l, j]
        terms.push_back(packedInverseEntry(packed, i, k) * packedInverseEntry(packed, l, j) * da);
    }
  Context &c = *n->context;
  if (terms.empty())
    return c.zero();
  return n->fn == Fn::Det ? Expr(n) * c.add(terms) : -c.add(terms);
}

double invertDense(size_t n, double *a, double *inverse) {
  for (size_t k = 0; k < n * n; ++k)
    inverse[k] = 0;
  for (size_t k = 0; k < n; ++k)
    inverse[k * n + k] = 1;
  double det = 1;
  bool singular = false;
  for (size_t k = 0; k < n; ++k) {
    size_t p = k;
    double best = std::fabs(a[k * n + k]);
    for (size_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > best) {
        best = std::fabs(a[i * n + k]);
        p = i;
      }
    singular = singular || best == 0;
    if (p != k) {
      swapRows(n, a, inverse, k, p);
      det = -det;
    }
    double pivot = a[k * n + k];
    det *= pivot;
    double r = 1 / pivot;
    for (size_t j = 0; j < n; ++j) {
      a[k * n + j] *= r;
      inverse[k * n + j] *= r;
    }
    for (size_t i = 0; i < n; ++i) {
      if (i == k)
        continue;
      double f = a[i * n + k];
      for (size_t j = 0; j < n; ++j) {
        a[i * n + j] -= f * a[k * n + j];
        inverse[i * n + j] -= f * inverse[k * n + j];
      }
    }
  }
  return singular ? 0.0 : det;
}

} // namespace mech::sym
