// The numeric path of det and inv (symbolic/MatrixFunctions.h): the dense
// Gauss-Jordan against Eigen's LU, exact values of matrices of numbers
// against closed forms (Hilbert's inverse, Vandermonde's determinant), the
// interpreter's evaluation of packed matrices, and the printed forms.
// Derivatives are checked against finite differences with the random
// expressions of SymbolicDiffTest.
#include "SymbolicTestSupport.h"

#include "symbolic/MatrixFunctions.h"
#include "symbolic/Print.h"

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace mech;
using namespace mech::symtest;

namespace {

int64_t binomial(int64_t n, int64_t k) {
  int64_t r = 1;
  for (int64_t i = 1; i <= k; ++i)
    r = r * (n - k + i) / i;
  return r;
}

} // namespace

TEST_CASE("Gauss-Jordan inverts like Eigen's LU", "[symbolic][matrix]") {
  Random random(4242);
  for (size_t n = 5; n <= 16; ++n) {
    Eigen::MatrixXd A(n, n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        A(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = random.uniform(-1, 1);
    std::vector<double> a(n * n), inverse(n * n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        a[i * n + j] = A(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    double det = sym::invertDense(n, a.data(), inverse.data());
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(A);
    INFO("n = " << n);
    CHECK(std::abs(det - lu.determinant()) <= 1e-12 * std::abs(lu.determinant()));
    Eigen::MatrixXd reference = lu.inverse();
    double scale = reference.cwiseAbs().maxCoeff();
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        CHECK(std::abs(inverse[i * n + j] -
                       reference(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))) <=
              1e-11 * scale);
  }
}

TEST_CASE("a singular matrix has determinant 0 and a non-finite inverse", "[symbolic][matrix]") {
  std::vector<double> a = {1, 2, 3, 4, 5, 2, 4, 6, 8, 10, 0, 1, 0,
                           1, 0, 3, 0, 1, 0, 2, 1, 1, 1,  1, 1}; // row 2 = 2 * row 1
  std::vector<double> inverse(25);
  CHECK(sym::invertDense(5, a.data(), inverse.data()) == 0);
  bool finite = true;
  for (double v : inverse)
    finite = finite && std::isfinite(v);
  CHECK_FALSE(finite);
}

TEST_CASE("det and inv of matrices of numbers are exact", "[symbolic][matrix]") {
  Context c;
  // The 6x6 Hilbert matrix: its inverse has the integer entries
  // (-1)^(i+j) (i+j-1) C(n+i-1, n-j) C(n+j-1, n-i) C(i+j-2, i-1)^2.
  const int64_t n = 6;
  std::vector<Expr> hilbert;
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= n; ++j)
      hilbert.push_back(c.rational(1, i + j - 1));
  Expr packed = sym::packMatrix(c, hilbert);
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= n; ++j) {
      int64_t root = binomial(i + j - 2, i - 1);
      int64_t want = ((i + j) % 2 ? -1 : 1) * (i + j - 1) * binomial(n + i - 1, n - j) *
                     binomial(n + j - 1, n - i) * root * root;
      Expr entry =
          sym::packedInverseEntry(packed, static_cast<int>(i - 1), static_cast<int>(j - 1));
      INFO("(" << i << ", " << j << ")");
      CHECK(entry == c.integer(want));
    }
  // det H6 = 1 / 186313420339200000
  CHECK(sym::packedDeterminant(packed) == c.rational(1, 186313420339200000));
  // Vandermonde of 1..5: the product of the differences, 288.
  std::vector<Expr> vandermonde;
  for (int64_t x = 1; x <= 5; ++x)
    for (int64_t k = 0; k < 5; ++k)
      vandermonde.push_back(c.integer(static_cast<int64_t>(std::pow(x, k))));
  CHECK(sym::packedDeterminant(sym::packMatrix(c, vandermonde)) == c.integer(288));
}

TEST_CASE("the interpreter factors a packed matrix once for its det and inverse",
          "[symbolic][matrix]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  std::vector<Expr> entries;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      entries.push_back(i == j ? x + c.integer(i + 2) : c.rational(1, i + j + 2));
  Expr packed = sym::packMatrix(c, entries);
  std::vector<Expr> outputs = {sym::packedDeterminant(packed)};
  for (int k = 0; k < 25; ++k)
    outputs.push_back(sym::packedInverseEntry(packed, k / 5, k % 5));
  Inputs in;
  in.add(x);
  sym::Program program(outputs, in.map());
  size_t factored = 0;
  for (const sym::Instruction &instr : program.instructions())
    factored += instr.op == sym::Instruction::Op::Function && instr.fn == sym::Fn::Matrix;
  CHECK(factored == 1);
  std::vector<double> values = program.evaluate({0.75});
  Eigen::MatrixXd A(5, 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      A(i, j) = i == j ? 0.75 + i + 2 : 1.0 / (i + j + 2);
  CHECK(std::abs(values[0] - A.determinant()) <= 1e-12 * std::abs(A.determinant()));
  Eigen::MatrixXd inverse = A.inverse();
  for (int k = 0; k < 25; ++k)
    CHECK(std::abs(values[static_cast<size_t>(k + 1)] - inverse(k / 5, k % 5)) <= 1e-13);
}

TEST_CASE("det and inv print with their matrix", "[symbolic][matrix]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  std::vector<Expr> entries;
  for (int k = 0; k < 25; ++k)
    entries.push_back(k == 0 ? x : c.integer(k % 6 == 0 ? 1 : 0));
  Expr packed = sym::packMatrix(c, entries);
  std::string matrix = "[[x, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], "
                       "[0, 0, 0, 0, 1]]";
  CHECK(sym::toMech(sym::packedDeterminant(packed)) == "det(" + matrix + ")");
  CHECK(sym::toMech(sym::packedInverseEntry(packed, 0, 2)) == "inv(" + matrix + ")[1, 3]");
  CHECK(sym::toLatex(sym::packedDeterminant(packed)) ==
        "\\det \\begin{pmatrix} x & 0 & 0 & 0 & 0 \\\\ 0 & 1 & 0 & 0 & 0 \\\\ 0 & 0 & 1 & 0 & 0 "
        "\\\\ 0 & 0 & 0 & 1 & 0 \\\\ 0 & 0 & 0 & 0 & 1 \\end{pmatrix}");
}
