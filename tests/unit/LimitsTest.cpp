// The limits that keep inputs from exhausting the machine, at the level of
// the functions that enforce them: checked exponents (Rational, Dimension),
// reading only regular files of a bounded size (InputFile), and the REPL's
// calculator on empty derived quantities and on free symbols beside a model.
#include "repl/Expressions.h"
#include "sema/Dimension.h"
#include "support/InputFile.h"
#include "support/Rational.h"
#include "support/TemporaryFolder.h"
#include "syntax/Parser.h"

#include <catch2/catch.hpp>

#include <climits>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace mech;

TEST_CASE("pow is exact up to the 64-bit limit and fails past it", "[limits][rational]") {
  // 2^62 = 4611686018427387904 fits; 2^63 does not.
  REQUIRE(pow(Rational(2), 62));
  CHECK(pow(Rational(2), 62)->num() == 4611686018427387904LL);
  CHECK_FALSE(pow(Rational(2), 63));
  // (1/2)^-3 = 8, 3^5 = 243.
  CHECK(*pow(*Rational::make(1, 2), -3) == Rational(8));
  CHECK(*pow(Rational(3), 5) == Rational(243));
  // Square and multiply: a huge exponent of 1 or -1 is answered at once.
  CHECK(*pow(Rational(1), INT_MAX) == Rational(1));
  CHECK(*pow(Rational(-1), INT_MAX) == Rational(-1));
  CHECK(*pow(Rational(-1), INT_MIN) == Rational(1));
}

TEST_CASE("written exponents are clamped one past the limit", "[limits][rational]") {
  CHECK(clampedExponent("1000") == 1000);
  CHECK(clampedExponent("1001") == 1001);
  CHECK(clampedExponent("2147483648") == 1001);
  CHECK(clampedExponent("99999999999999999999999") == 1001);
  CHECK(clampedExponentProduct(30, 30) == 900);
  CHECK(clampedExponentProduct(999, 999) == 1001);
  CHECK(clampedExponentProduct(-999, 999) == -1001);
  CHECK(clampedExponentProduct(1001, -1001) == -1001);
  CHECK(Rational(1000).withinExponentLimit());
  CHECK_FALSE(Rational(-1001).withinExponentLimit());
  CHECK(Rational::make(1, 1000)->withinExponentLimit());
  CHECK_FALSE(Rational::make(1, 1024)->withinExponentLimit());
}

TEST_CASE("dimension exponents stay within the limit", "[limits][units]") {
  using sema::Dimension;
  Dimension length = Dimension::length();
  REQUIRE(length.raisedTo(Rational(1000)));
  CHECK(length.raisedTo(Rational(1000))->exponent(Dimension::Length) == Rational(1000));
  CHECK_FALSE(length.raisedTo(Rational(1001)));
  Dimension big = *length.raisedTo(Rational(600));
  CHECK_FALSE(big.times(big));
  CHECK(big.over(big)->isDimensionless());
  // Ten square roots: m^(1/1024) is past the denominator's limit.
  std::optional<Dimension> root = length;
  for (int i = 0; i < 9 && root; ++i)
    root = root->raisedTo(*Rational::make(1, 2));
  REQUIRE(root);
  CHECK(root->exponent(Dimension::Length) == *Rational::make(1, 512));
  CHECK_FALSE(root->raisedTo(*Rational::make(1, 2)));
}

TEST_CASE("only regular files of a bounded size are read", "[limits][files]") {
  TemporaryFolder folder("mech-limits-test");
  std::string file = (folder.path() / "m.mech").string();
  std::ofstream(file) << "0123456789";
  std::string error;
  auto text = readInputFile(file, 10, error);
  REQUIRE(text);
  CHECK(*text == "0123456789");
  CHECK_FALSE(readInputFile(file, 9, error));
  CHECK(error == "'" + file + "' is larger than the limit of 9 bytes");
  CHECK_FALSE(readInputFile("/dev/zero", 1 << 20, error));
  CHECK(error.find("is not a regular file") != std::string::npos);
  std::string fifo = (folder.path() / "fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(readInputFile(fifo, 1 << 20, error)); // returns: no writer is awaited
  CHECK(error.find("is not a regular file") != std::string::npos);
  CHECK_FALSE(readInputFile(folder.path().string(), 1 << 20, error));
  CHECK(error.find("is a directory") != std::string::npos);
  std::string missing = (folder.path() / "none.mech").string();
  CHECK_FALSE(readInputFile(missing, 1 << 20, error));
  CHECK(error == "cannot open '" + missing + "': No such file or directory");
  // A regular file whose read fails is an error, not an empty text.
  CHECK_FALSE(readInputFile("/proc/self/mem", 1 << 20, error));
  CHECK(error == "cannot read '/proc/self/mem': Input/output error");
}

namespace {

struct Calculator {
  sym::Context context;
  repl::Scope scope;
  SourceManager sources;
  Calculator() { scope.context = &context; }

  std::optional<repl::Tensor> run(const std::string &text, Diagnostics &diagnostics) {
    const SourceFile &source = sources.add("<test>", text);
    ast::ExprPtr tree = parseExpression(source, diagnostics);
    REQUIRE(tree);
    return repl::evaluate(*tree, scope, diagnostics);
  }
};

} // namespace

TEST_CASE("empty derived quantities are an error, not a value", "[limits][repl]") {
  Calculator calc;
  // A model without coordinates: M, f and Q have no entries.
  calc.scope.eom = {{"M", repl::Tensor{0, 0, {}}},
                    {"f", repl::Tensor{0, 0, {}}},
                    {"T", repl::Tensor::scalar(calc.context.number(sym::Num(Rational(0))))}};
  for (const char *name : {"M", "f"}) {
    Diagnostics diagnostics;
    CHECK_FALSE(calc.run(std::string("eom.") + name, diagnostics));
    REQUIRE(diagnostics.hasErrors());
    CHECK(diagnostics.all().front().message ==
          std::string("eom.") + name +
              " is empty: the model has no coordinates (declare one with coord NAME [unit])");
  }
  CHECK(repl::format(repl::Tensor{0, 0, {}}) == "[]");
}

TEST_CASE("free symbols are reported to the session", "[limits][repl]") {
  Calculator calc;
  calc.scope.names["th"] = repl::Tensor::scalar(calc.context.number(sym::Num(Rational(1))));
  std::vector<std::string> told;
  calc.scope.onFreeSymbol = [&](const std::string &name, const std::string &suggestion) {
    told.push_back(name + suggestion);
  };
  Diagnostics diagnostics;
  auto value = calc.run("th + x + thx", diagnostics);
  REQUIRE(value);
  CHECK(told == std::vector<std::string>{"x", "thx (did you mean 'th'?)"});
  calc.scope.freeSymbols = false;
  Diagnostics refused;
  CHECK_FALSE(calc.run("y", refused));
  CHECK(refused.all().front().message == "unknown name 'y'");
}
