// The parser: every construct of the language, the precedence table, the
// contextual and reserved words, and located syntax errors. Trees are compared
// as dumps without locations; every expected dump is written out by hand from
// the rules of the language.
#include "TestSupport.h"
#include "syntax/AstDump.h"
#include "syntax/Printer.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

using namespace mech;

namespace {

// Joins lines, each followed by a newline: the layout of a dump.
std::string lines(std::initializer_list<const char *> items) {
  std::string out;
  for (const char *item : items) {
    out += item;
    out += '\n';
  }
  return out;
}

// One parse of a whole file, with the source and diagnostics it refers to.
struct ParsedFile {
  std::unique_ptr<SourceFile> source;
  Diagnostics diagnostics;
  std::unique_ptr<ast::File> file;

  std::string messages() const {
    std::string out;
    for (const Diagnostic &d : diagnostics.all())
      out += std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + ": " +
             d.message + "\n";
    return out;
  }
};

std::unique_ptr<ParsedFile> parseText(const std::string &text) {
  auto parsed = std::make_unique<ParsedFile>();
  parsed->source = std::make_unique<SourceFile>("test.mech", text);
  parsed->file = parseFile(*parsed->source, parsed->diagnostics);
  return parsed;
}

// The dump of a whole file, or the syntax errors when it does not parse.
std::string fileTree(const std::string &text) {
  auto parsed = parseText(text);
  if (!parsed->file)
    return "syntax errors:\n" + parsed->messages();
  return dumpAst(*parsed->file, false);
}

// The dump of declarations placed in `model M { ... }`, without the two
// lines of the file and the model and with their indentation removed.
std::string declTree(const std::string &declarations) {
  std::string dump = fileTree("model M {\n" + declarations + "\n}\n");
  const std::string head = "File\n  Model M\n";
  if (dump.compare(0, head.size(), head) != 0)
    return dump;
  std::string out;
  size_t pos = head.size();
  while (pos < dump.size()) {
    size_t end = dump.find('\n', pos);
    std::string line = dump.substr(pos, end - pos);
    out += (line.compare(0, 4, "    ") == 0 ? line.substr(4) : line) + "\n";
    pos = end + 1;
  }
  return out;
}

// The dump of one expression parsed on its own.
std::string exprTree(const std::string &text) {
  SourceFile source("expr.mech", text);
  Diagnostics diagnostics;
  ast::ExprPtr expr = parseExpression(source, diagnostics);
  if (!expr) {
    std::string out = "syntax errors:\n";
    for (const Diagnostic &d : diagnostics.all())
      out += d.message + "\n";
    return out;
  }
  return dumpExpr(*expr, false);
}

const ast::Decl &onlyDecl(const ParsedFile &parsed) {
  REQUIRE(parsed.file);
  const ast::ModelDecl *model = parsed.file->model();
  REQUIRE(model);
  REQUIRE(model->body.size() == 1);
  return model->body[0];
}

} // namespace

// ---------------------------------------------------------------------------
// Files

TEST_CASE("a file holds imports, top-level defs and a model", "[parser]") {
  std::string text = "import \"planar.mech\"\n"
                     "import \"lib/extra.mech\"\n"
                     "def sq(x) = x^2\n"
                     "def zero() = 0\n"
                     "model Pendulum {\n"
                     "}\n"
                     "def after(a, b) = a * b\n";
  CHECK(fileTree(text) == lines({
                              "File",
                              "  Import \"planar.mech\"",
                              "  Import \"lib/extra.mech\"",
                              "  Def sq(x)",
                              "    Pow",
                              "      base: Name x",
                              "      exponent: Number 2",
                              "  Def zero()",
                              "    Number 0",
                              "  Model Pendulum",
                              "  Def after(a, b)",
                              "    Mul",
                              "      *: Name a",
                              "      *: Name b",
                          }));

  auto parsed = parseText(text);
  REQUIRE(parsed->file);
  REQUIRE(parsed->file->items.size() == 6);
  auto &import = std::get<ast::ImportDecl>(parsed->file->items[0].node);
  CHECK(import.path == "planar.mech");
  CHECK(import.location.line == 1);
  CHECK(import.location.column == 8);
  REQUIRE(parsed->file->model());
  CHECK(parsed->file->model()->name == "Pendulum");
  CHECK(parsed->file->model()->body.empty());
}

TEST_CASE("a library has no model, and an empty file is an empty library", "[parser]") {
  auto library = parseText("def double(x) = 2 * x\n");
  REQUIRE(library->file);
  CHECK(library->file->model() == nullptr);
  CHECK(library->file->items.size() == 1);

  auto empty = parseText("");
  REQUIRE(empty->file);
  CHECK(empty->file->items.empty());
  CHECK(dumpAst(*empty->file, false) == "File\n");

  auto blank = parseText("  \n\t\n");
  REQUIRE(blank->file);
  CHECK(blank->file->items.empty());
}

TEST_CASE("semicolons separate declarations and are otherwise ignored", "[parser]") {
  CHECK(fileTree(";; import \"a.mech\"; def f() = 1;\n"
                 "model M { param a = 1; param b = 2;; ; coord x; } ;\n") ==
        lines({
            "File",
            "  Import \"a.mech\"",
            "  Def f()",
            "    Number 1",
            "  Model M",
            "    Param a",
            "      value: Number 1",
            "    Param b",
            "      value: Number 2",
            "    Coord x",
        }));
}

TEST_CASE("newlines are not significant", "[parser]") {
  std::string oneLine = "model M { param a = 1, b = 2 coord x [m] kinetic T = a * x'^2 }";
  std::string spread = "model\nM\n{\nparam\na\n=\n1\n,\nb\n=\n2\ncoord\nx\n[\nm\n]\nkinetic\nT\n=\n"
                       "a\n*\nx\n'\n^\n2\n}\n";
  CHECK(fileTree(oneLine) == fileTree(spread));
  CHECK(fileTree(oneLine) == lines({
                                 "File",
                                 "  Model M",
                                 "    Param a",
                                 "      value: Number 1",
                                 "    Param b",
                                 "      value: Number 2",
                                 "    Coord x",
                                 "      unit [m]",
                                 "    Kinetic T",
                                 "      value: Mul",
                                 "        *: Name a",
                                 "        *: Pow",
                                 "          base: Prime order 1",
                                 "            Name x",
                                 "          exponent: Number 2",
                             }));
}

TEST_CASE("comments are skipped by the tree and kept on the declarations", "[parser]") {
  std::string text = "# about the model\n"
                     "model M {  # header\n"
                     "  # about a\n"
                     "  param a = 1  # a is one\n"
                     "  param b = 2 # b\n"
                     "  # closing\n"
                     "}  # end of model\n"
                     "# end of file\n";
  CHECK(fileTree(text) == lines({
                              "File",
                              "  Model M",
                              "    Param a",
                              "      value: Number 1",
                              "    Param b",
                              "      value: Number 2",
                          }));
  auto parsed = parseText(text);
  REQUIRE(parsed->file);
  const ast::TopItem &item = parsed->file->items.at(0);
  CHECK(item.comments.leading == std::vector<std::string>{"# about the model"});
  CHECK(item.comments.trailing == std::optional<std::string>("# end of model"));
  const ast::ModelDecl *model = parsed->file->model();
  REQUIRE(model);
  REQUIRE(model->body.size() == 2);
  CHECK(model->body[0].comments.leading == std::vector<std::string>{"# header", "# about a"});
  CHECK(model->body[0].comments.trailing == std::optional<std::string>("# a is one"));
  CHECK(model->body[1].comments.leading.empty());
  CHECK(model->body[1].comments.trailing == std::optional<std::string>("# b"));
  CHECK(model->closingComments == std::vector<std::string>{"# closing"});
  CHECK(parsed->file->trailingComments == std::vector<std::string>{"# end of file"});
}

TEST_CASE("a comment may hold any text, including words and brackets", "[parser]") {
  CHECK(declTree("param a = 1 # model } { ( [ param 'x' \"s\" θ\n  param b = 2") ==
        lines({
            "Param a",
            "  value: Number 1",
            "Param b",
            "  value: Number 2",
        }));
}

// ---------------------------------------------------------------------------
// Declarations

TEST_CASE("param, with the unit on the literal or on the name", "[parser]") {
  CHECK(declTree("param m = 1.5 [kg], g = 9.81 [m/s^2]") == lines({
                                                                "Param m",
                                                                "  value: Number 1.5 [kg]",
                                                                "Param g",
                                                                "  value: Number 9.81 [m/s^2]",
                                                            }));
  CHECK(declTree("param w [1/s] = 2*pi") == lines({
                                                "Param w",
                                                "  unit [1/s]",
                                                "  value: Mul",
                                                "    *: Number 2",
                                                "    *: Pi",
                                            }));
  CHECK(declTree("param n = 10, l2 = 0.8 * l1") == lines({
                                                       "Param n",
                                                       "  value: Number 10",
                                                       "Param l2",
                                                       "  value: Mul",
                                                       "    *: Number 0.8",
                                                       "    *: Name l1",
                                                   }));

  auto parsed = parseText("model M { param J [kg*m^2] = 2 [kg/(m*s)] }");
  const ast::Decl &decl = onlyDecl(*parsed);
  auto &param = std::get<ast::ParamDecl>(decl.node);
  REQUIRE(param.items.size() == 1);
  const ast::ParamItem &item = param.items[0];
  CHECK(item.name == "J");
  REQUIRE(item.unit);
  REQUIRE(item.unit->factors.size() == 2);
  CHECK(item.unit->factors[0].symbol == "kg");
  CHECK(item.unit->factors[0].exponent == 1);
  CHECK(item.unit->factors[1].symbol == "m");
  CHECK(item.unit->factors[1].exponent == 2);
  REQUIRE(item.value->kind == ast::ExprKind::Number);
  auto &number = static_cast<const ast::Number &>(*item.value);
  CHECK(number.text == "2");
  REQUIRE(number.unit);
  REQUIRE(number.unit->factors.size() == 3);
  CHECK(number.unit->factors[0].symbol == "kg");
  CHECK(number.unit->factors[0].exponent == 1);
  CHECK(number.unit->factors[1].symbol == "m");
  CHECK(number.unit->factors[1].exponent == -1);
  CHECK(number.unit->factors[2].symbol == "s");
  CHECK(number.unit->factors[2].exponent == -1);
}

TEST_CASE("units: products, quotients, powers, parentheses and 1", "[parser]") {
  // The dump shows units in their canonical spelling.
  CHECK(exprTree("9.81 [m/s^2]") == "Number 9.81 [m/s^2]\n");
  CHECK(exprTree("1 [1/s]") == "Number 1 [1/s]\n");
  CHECK(exprTree("1 [s^-1]") == "Number 1 [1/s]\n");
  CHECK(exprTree("1 [(kg*m)/s^2]") == "Number 1 [kg*m/s^2]\n");
  CHECK(exprTree("1 [kg/(m*s)]") == "Number 1 [kg/(m*s)]\n");
  CHECK(exprTree("0.05 [N*m*s]") == "Number 0.05 [N*m*s]\n");
  CHECK(exprTree("30 [cm]") == "Number 30 [cm]\n");
  CHECK(exprTree("90 [deg]") == "Number 90 [deg]\n");
  CHECK(exprTree("2 [ kg * m ^ 2 ]") == "Number 2 [kg*m^2]\n");

  SourceFile source("expr.mech", "1 [kg*m^2/s^+2]");
  Diagnostics diagnostics;
  ast::ExprPtr expr = parseExpression(source, diagnostics);
  REQUIRE(expr);
  REQUIRE(expr->kind == ast::ExprKind::Number);
  auto &number = static_cast<const ast::Number &>(*expr);
  REQUIRE(number.unit);
  REQUIRE(number.unit->factors.size() == 3);
  CHECK(number.unit->factors[2].symbol == "s");
  CHECK(number.unit->factors[2].exponent == -2);
}

TEST_CASE("coord: plain, with a unit, and an indexed family", "[parser]") {
  CHECK(declTree("coord x [m], th [rad], s") == lines({
                                                    "Coord x",
                                                    "  unit [m]",
                                                    "Coord th",
                                                    "  unit [rad]",
                                                    "Coord s",
                                                }));
  CHECK(declTree("coord th[1..n] [rad]") == lines({
                                                "Coord th",
                                                "  from: Number 1",
                                                "  to: Name n",
                                                "  unit [rad]",
                                            }));
  CHECK(declTree("coord q[0..n-1], r[1..3] [m]") == lines({
                                                        "Coord q",
                                                        "  from: Number 0",
                                                        "  to: Add",
                                                        "    +: Name n",
                                                        "    -: Number 1",
                                                        "Coord r",
                                                        "  from: Number 1",
                                                        "  to: Number 3",
                                                        "  unit [m]",
                                                    }));
}

TEST_CASE("let: plain, family, indexed inside for, multi-index", "[parser]") {
  CHECK(declTree("let p1 = l1 * [sin(th1), -cos(th1)]") == lines({
                                                               "Let p1",
                                                               "  value: Mul",
                                                               "    *: Name l1",
                                                               "    *: Vector",
                                                               "      Call sin",
                                                               "        Name th1",
                                                               "      Neg",
                                                               "        Call cos",
                                                               "          Name th1",
                                                           }));
  CHECK(declTree("let x[k in 1..n] = sum(i in 1..k, l * sin(th[i]))") ==
        lines({
            "Let x",
            "  family index k",
            "  from: Number 1",
            "  to: Name n",
            "  value: SumOver sum i",
            "    from: Number 1",
            "    to: Name k",
            "    body: Mul",
            "      *: Name l",
            "      *: Call sin",
            "        Index",
            "          of: Name th",
            "          index: Name i",
        }));
  CHECK(declTree("let y[k in 1..n] [m] = k") == lines({
                                                    "Let y",
                                                    "  family index k",
                                                    "  from: Number 1",
                                                    "  to: Name n",
                                                    "  unit [m]",
                                                    "  value: Name k",
                                                }));
  CHECK(declTree("for k in 2..n { let d[k] = x[k] - x[k-1] }") == lines({
                                                                      "For k",
                                                                      "  from: Number 2",
                                                                      "  to: Name n",
                                                                      "  Let d",
                                                                      "    index: Name k",
                                                                      "    value: Add",
                                                                      "      +: Index",
                                                                      "        of: Name x",
                                                                      "        index: Name k",
                                                                      "      -: Index",
                                                                      "        of: Name x",
                                                                      "        index: Add",
                                                                      "          +: Name k",
                                                                      "          -: Number 1",
                                                                  }));
  CHECK(declTree("for k in 1..n { let h[k] [m] = k }") == lines({
                                                              "For k",
                                                              "  from: Number 1",
                                                              "  to: Name n",
                                                              "  Let h",
                                                              "    index: Name k",
                                                              "    unit [m]",
                                                              "    value: Name k",
                                                          }));
  CHECK(declTree("for i in 1..n { for j in 1..n { let d[i, j] = norm(p[i] - p[j]) } }") ==
        lines({
            "For i",
            "  from: Number 1",
            "  to: Name n",
            "  For j",
            "    from: Number 1",
            "    to: Name n",
            "    Let d",
            "      index: Name i",
            "      index: Name j",
            "      value: Call norm",
            "        Add",
            "          +: Index",
            "            of: Name p",
            "            index: Name i",
            "          -: Index",
            "            of: Name p",
            "            index: Name j",
        }));
}

// The language puts a unit on the name of a let as on a param: `let h [m] =
// l * cos(th)`, `let d [cm] = 30`.
TEST_CASE("a let with a unit on a plain name checks", "[parser]") {
  test::Session session;
  sema::Analysis analysis = session.analyze("model M {\n"
                                            "  param l = 1 [m], m = 1 [kg], g = 9.81 [m/s^2]\n"
                                            "  coord th [rad]\n"
                                            "  let h [m] = l * cos(th)\n"
                                            "  let d [cm] = 30\n"
                                            "  kinetic T = m/2 * (l * th')^2\n"
                                            "  potential V = -m * g * h\n"
                                            "  output depth = h + d\n"
                                            "}\n");
  INFO(session.messages());
  CHECK(analysis.ok);
}

// The unit of a plain let is a unit in the tree, as for a param or a family,
// and `mech fmt` keeps it apart from the name.
TEST_CASE("a let with a unit on a plain name has the unit in its tree", "[parser][!mayfail]") {
  CHECK(declTree("let h [m] = l * cos(th)") == lines({
                                                   "Let h",
                                                   "  unit [m]",
                                                   "  value: Mul",
                                                   "    *: Name l",
                                                   "    *: Call cos",
                                                   "      Name th",
                                               }));
  auto parsed = parseText("model M {\n  let d [cm] = 30\n}\n");
  REQUIRE(parsed->file);
  CHECK(formatFile(*parsed->file) == "model M {\n  let d [cm] = 30\n}\n");
}

TEST_CASE("def inside the model", "[parser]") {
  CHECK(declTree("def f(a, b) = a^2 + b") == lines({
                                                 "Def f(a, b)",
                                                 "  Add",
                                                 "    +: Pow",
                                                 "      base: Name a",
                                                 "      exponent: Number 2",
                                                 "    +: Name b",
                                             }));
  CHECK(declTree("def unit_x() = [1, 0]") == lines({
                                                 "Def unit_x()",
                                                 "  Vector",
                                                 "    Number 1",
                                                 "    Number 0",
                                             }));
}

TEST_CASE("kinetic, potential and dissipation, with and without names", "[parser]") {
  CHECK(declTree("kinetic T = m/2 * x'^2\nkinetic m/2 * y'^2") == lines({
                                                                      "Kinetic T",
                                                                      "  value: Mul",
                                                                      "    *: Name m",
                                                                      "    /: Number 2",
                                                                      "    *: Pow",
                                                                      "      base: Prime order 1",
                                                                      "        Name x",
                                                                      "      exponent: Number 2",
                                                                      "Kinetic",
                                                                      "  value: Mul",
                                                                      "    *: Name m",
                                                                      "    /: Number 2",
                                                                      "    *: Pow",
                                                                      "      base: Prime order 1",
                                                                      "        Name y",
                                                                      "      exponent: Number 2",
                                                                  }));
  CHECK(declTree("potential V = k/2 * x^2\npotential m*g*y") == lines({
                                                                    "Potential V",
                                                                    "  value: Mul",
                                                                    "    *: Name k",
                                                                    "    /: Number 2",
                                                                    "    *: Pow",
                                                                    "      base: Name x",
                                                                    "      exponent: Number 2",
                                                                    "Potential",
                                                                    "  value: Mul",
                                                                    "    *: Name m",
                                                                    "    *: Name g",
                                                                    "    *: Name y",
                                                                }));
  CHECK(declTree("dissipation D = c/2 * phi'^2\ndissipation b * x'^2") ==
        lines({
            "Dissipation D",
            "  value: Mul",
            "    *: Name c",
            "    /: Number 2",
            "    *: Pow",
            "      base: Prime order 1",
            "        Name phi",
            "      exponent: Number 2",
            "Dissipation",
            "  value: Mul",
            "    *: Name b",
            "    *: Pow",
            "      base: Prime order 1",
            "        Name x",
            "      exponent: Number 2",
        }));
  CHECK(declTree("for k in 1..n { potential V[k] = k }") == lines({
                                                                "For k",
                                                                "  from: Number 1",
                                                                "  to: Name n",
                                                                "  Potential V",
                                                                "    index: Name k",
                                                                "    value: Name k",
                                                            }));

  auto parsed = parseText("model M { dissipation R = c * x'^2 }");
  auto &energy = std::get<ast::EnergyDecl>(onlyDecl(*parsed).node);
  CHECK(energy.kind == ast::EnergyKind::Dissipation);
  REQUIRE(energy.name);
  CHECK(energy.name->name == "R");
}

TEST_CASE("force ... at, torque ... on, generalized ... on", "[parser]") {
  CHECK(declTree("force F * [cos(phi), sin(phi)] at [x, y]") == lines({
                                                                    "Force",
                                                                    "  force: Mul",
                                                                    "    *: Name F",
                                                                    "    *: Vector",
                                                                    "      Call cos",
                                                                    "        Name phi",
                                                                    "      Call sin",
                                                                    "        Name phi",
                                                                    "  at: Vector",
                                                                    "    Name x",
                                                                    "    Name y",
                                                                }));
  CHECK(declTree("torque A*cos(w*t) on phi") == lines({
                                                    "Torque",
                                                    "  moment: Mul",
                                                    "    *: Name A",
                                                    "    *: Call cos",
                                                    "      Mul",
                                                    "        *: Name w",
                                                    "        *: Time",
                                                    "  on: Name phi",
                                                }));
  CHECK(declTree("generalized -c * x' on x") == lines({
                                                    "Generalized",
                                                    "  value: Mul",
                                                    "    *: Neg",
                                                    "      Name c",
                                                    "    *: Prime order 1",
                                                    "      Name x",
                                                    "  on: Name x",
                                                }));
}

TEST_CASE("particle, planar body and spatial body", "[parser]") {
  CHECK(declTree("particle bead mass m at s * [sin(phi), -cos(phi)]") == lines({
                                                                             "Particle bead",
                                                                             "  mass: Name m",
                                                                             "  at: Mul",
                                                                             "    *: Name s",
                                                                             "    *: Vector",
                                                                             "      Call sin",
                                                                             "        Name phi",
                                                                             "      Neg",
                                                                             "        Call cos",
                                                                             "          Name phi",
                                                                         }));
  CHECK(declTree("body rod mass M at a/2 * [sin(phi), -cos(phi)] angle phi inertia M*a^2/12") ==
        lines({
            "PlanarBody rod",
            "  mass: Name M",
            "  at: Mul",
            "    *: Name a",
            "    /: Number 2",
            "    *: Vector",
            "      Call sin",
            "        Name phi",
            "      Neg",
            "        Call cos",
            "          Name phi",
            "  angle: Name phi",
            "  inertia: Mul",
            "    *: Name M",
            "    *: Pow",
            "      base: Name a",
            "      exponent: Number 2",
            "    /: Number 12",
        }));
  CHECK(declTree("body top mass m at [0, 0, h] rotation rot_z(psi) * rot_x(th) inertia "
                 "diag(A, A, C)") == lines({
                                         "SpatialBody top",
                                         "  mass: Name m",
                                         "  at: Vector",
                                         "    Number 0",
                                         "    Number 0",
                                         "    Name h",
                                         "  rotation: Mul",
                                         "    *: Call rot_z",
                                         "      Name psi",
                                         "    *: Call rot_x",
                                         "      Name th",
                                         "  inertia: Call diag",
                                         "    Name A",
                                         "    Name A",
                                         "    Name C",
                                     }));

  auto planar = parseText("model M { body b mass 1 at [x, 0] angle x inertia 2 }");
  CHECK(std::get<ast::BodyDecl>(onlyDecl(*planar).node).kind == ast::BodyKind::Planar);
  auto spatial = parseText("model M { body b mass 1 at [x, 0, 0] rotation R inertia I }");
  CHECK(std::get<ast::BodyDecl>(onlyDecl(*spatial).node).kind == ast::BodyKind::Spatial);
}

TEST_CASE("gravity and springs with and without a rest length", "[parser]") {
  CHECK(declTree("gravity [0, -g]") == lines({
                                           "Gravity",
                                           "  Vector",
                                           "    Number 0",
                                           "    Neg",
                                           "      Name g",
                                       }));
  CHECK(declTree("spring k between [0, 0] and [x, y] rest L0\nspring 2*k between p and q") ==
        lines({
            "Spring",
            "  stiffness: Name k",
            "  between: Vector",
            "    Number 0",
            "    Number 0",
            "  and: Vector",
            "    Name x",
            "    Name y",
            "  rest: Name L0",
            "Spring",
            "  stiffness: Mul",
            "    *: Number 2",
            "    *: Name k",
            "  between: Name p",
            "  and: Name q",
        }));
  auto parsed = parseText("model M { spring k between p and q }");
  CHECK(std::get<ast::SpringDecl>(onlyDecl(*parsed).node).rest == nullptr);
}

TEST_CASE("constraints, named and unnamed", "[parser]") {
  CHECK(declTree("constraint rod: x^2 + y^2 == l^2") == lines({
                                                            "Constraint rod",
                                                            "  lhs: Add",
                                                            "    +: Pow",
                                                            "      base: Name x",
                                                            "      exponent: Number 2",
                                                            "    +: Pow",
                                                            "      base: Name y",
                                                            "      exponent: Number 2",
                                                            "  rhs: Pow",
                                                            "    base: Name l",
                                                            "    exponent: Number 2",
                                                        }));
  CHECK(declTree("constraint x' * sin(phi) - y' * cos(phi) == 0") == lines({
                                                                         "Constraint",
                                                                         "  lhs: Add",
                                                                         "    +: Mul",
                                                                         "      *: Prime order 1",
                                                                         "        Name x",
                                                                         "      *: Call sin",
                                                                         "        Name phi",
                                                                         "    -: Mul",
                                                                         "      *: Prime order 1",
                                                                         "        Name y",
                                                                         "      *: Call cos",
                                                                         "        Name phi",
                                                                         "  rhs: Number 0",
                                                                     }));
  CHECK(declTree("for k in 1..n { constraint c[k]: q[k] == 0 }") == lines({
                                                                        "For k",
                                                                        "  from: Number 1",
                                                                        "  to: Name n",
                                                                        "  Constraint c",
                                                                        "    index: Name k",
                                                                        "    lhs: Index",
                                                                        "      of: Name q",
                                                                        "      index: Name k",
                                                                        "    rhs: Number 0",
                                                                    }));
}

TEST_CASE("init with primes and indices", "[parser]") {
  CHECK(declTree("init th1 = 0.5, th2 = -0.3, th1' = 0, th[2]'' = 1, q[1, 2] = 2 [m]") ==
        lines({
            "Init th1",
            "  value: Number 0.5",
            "Init th2",
            "  value: Neg",
            "    Number 0.3",
            "Init th1'",
            "  value: Number 0",
            "Init th''",
            "  index: Number 2",
            "  value: Number 1",
            "Init q",
            "  index: Number 1",
            "  index: Number 2",
            "  value: Number 2 [m]",
        }));
  auto parsed = parseText("model M { init th[1]' = 1 }");
  auto &init = std::get<ast::InitDecl>(onlyDecl(*parsed).node);
  REQUIRE(init.items.size() == 1);
  CHECK(init.items[0].name == "th");
  CHECK(init.items[0].primes == 1);
  CHECK(init.items[0].indices.size() == 1);
}

TEST_CASE("output", "[parser]") {
  CHECK(declTree("output tension = -2 * l * rod") == lines({
                                                         "Output tension",
                                                         "  value: Mul",
                                                         "    *: Neg",
                                                         "      Number 2",
                                                         "    *: Name l",
                                                         "    *: Name rod",
                                                     }));
  CHECK(declTree("output vx = p'.x") == lines({
                                            "Output vx",
                                            "  value: Component .x",
                                            "    Prime order 1",
                                            "      Name p",
                                        }));
}

TEST_CASE("for blocks, nested and with several declarations", "[parser]") {
  CHECK(declTree("for k in 1..n { particle bob[k] mass m at [x[k], y[k]] }") ==
        lines({
            "For k",
            "  from: Number 1",
            "  to: Name n",
            "  Particle bob",
            "    index: Name k",
            "    mass: Name m",
            "    at: Vector",
            "      Index",
            "        of: Name x",
            "        index: Name k",
            "      Index",
            "        of: Name y",
            "        index: Name k",
        }));
  CHECK(declTree("for i in 1..2 {\n"
                 "  for j in i..3 { let a[i, j] = i * j; output o[i, j] = a[i, j] }\n"
                 "  spring k between p[i] and p[i+1]\n"
                 "}\n"
                 "for e in 1..0 { }") == lines({
                                             "For i",
                                             "  from: Number 1",
                                             "  to: Number 2",
                                             "  For j",
                                             "    from: Name i",
                                             "    to: Number 3",
                                             "    Let a",
                                             "      index: Name i",
                                             "      index: Name j",
                                             "      value: Mul",
                                             "        *: Name i",
                                             "        *: Name j",
                                             "    Output o",
                                             "      index: Name i",
                                             "      index: Name j",
                                             "      value: Index",
                                             "        of: Name a",
                                             "        index: Name i",
                                             "        index: Name j",
                                             "  Spring",
                                             "    stiffness: Name k",
                                             "    between: Index",
                                             "      of: Name p",
                                             "      index: Name i",
                                             "    and: Index",
                                             "      of: Name p",
                                             "      index: Add",
                                             "        +: Name i",
                                             "        +: Number 1",
                                             "For e",
                                             "  from: Number 1",
                                             "  to: Number 0",
                                         }));
}

TEST_CASE("the n-link chain of the brief", "[parser]") {
  std::string chain = "model Chain {\n"
                      "  param n = 10, m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]\n"
                      "  coord th[1..n] [rad]\n"
                      "  let x[k in 1..n] = sum(i in 1..k, l * sin(th[i]))\n"
                      "  let y[k in 1..n] = -sum(i in 1..k, l * cos(th[i]))\n"
                      "  for k in 1..n { particle bob[k] mass m at [x[k], y[k]] }\n"
                      "  gravity [0, -g]\n"
                      "  init th[1] = 0.5\n"
                      "}\n";
  CHECK(fileTree(chain) == lines({
                               "File",
                               "  Model Chain",
                               "    Param n",
                               "      value: Number 10",
                               "    Param m",
                               "      value: Number 1 [kg]",
                               "    Param l",
                               "      value: Number 1 [m]",
                               "    Param g",
                               "      value: Number 9.81 [m/s^2]",
                               "    Coord th",
                               "      from: Number 1",
                               "      to: Name n",
                               "      unit [rad]",
                               "    Let x",
                               "      family index k",
                               "      from: Number 1",
                               "      to: Name n",
                               "      value: SumOver sum i",
                               "        from: Number 1",
                               "        to: Name k",
                               "        body: Mul",
                               "          *: Name l",
                               "          *: Call sin",
                               "            Index",
                               "              of: Name th",
                               "              index: Name i",
                               "    Let y",
                               "      family index k",
                               "      from: Number 1",
                               "      to: Name n",
                               "      value: Neg",
                               "        SumOver sum i",
                               "          from: Number 1",
                               "          to: Name k",
                               "          body: Mul",
                               "            *: Name l",
                               "            *: Call cos",
                               "              Index",
                               "                of: Name th",
                               "                index: Name i",
                               "    For k",
                               "      from: Number 1",
                               "      to: Name n",
                               "      Particle bob",
                               "        index: Name k",
                               "        mass: Name m",
                               "        at: Vector",
                               "          Index",
                               "            of: Name x",
                               "            index: Name k",
                               "          Index",
                               "            of: Name y",
                               "            index: Name k",
                               "    Gravity",
                               "      Vector",
                               "        Number 0",
                               "        Neg",
                               "          Name g",
                               "    Init th",
                               "      index: Number 1",
                               "      value: Number 0.5",
                           }));
}

TEST_CASE("locations of declarations and expressions", "[parser]") {
  auto parsed = parseText("model M {\n  param a = b + c\n  coord θ [rad]\n}\n");
  REQUIRE(parsed->file);
  CHECK(dumpAst(*parsed->file, true) == lines({
                                            "File",
                                            "  Model M @1:7",
                                            "    Param a @2:9",
                                            "      value: Add @2:13",
                                            "        +: Name b @2:13",
                                            "        +: Name c @2:17",
                                            "    Coord θ @3:9",
                                            "      unit [rad] @3:11",
                                        }));
}

// ---------------------------------------------------------------------------
// Expressions

TEST_CASE("primaries: numbers, t, pi, names, calls, sums, vectors, matrices", "[parser]") {
  CHECK(exprTree("2") == "Number 2\n");
  CHECK(exprTree("0.5") == "Number 0.5\n");
  CHECK(exprTree("1e-3") == "Number 1e-3\n");
  CHECK(exprTree("6.02e23") == "Number 6.02e23\n");
  CHECK(exprTree("2E+3") == "Number 2E+3\n");
  CHECK(exprTree("t") == "Time\n");
  CHECK(exprTree("pi") == "Pi\n");
  CHECK(exprTree("e") == "Name e\n");
  CHECK(exprTree("x_1") == "Name x_1\n");
  CHECK(exprTree("f()") == "Call f\n");
  CHECK(exprTree("atan2(y, x)") == lines({"Call atan2", "  Name y", "  Name x"}));
  CHECK(exprTree("sum(i in 1..n, x[i])") == lines({
                                                "SumOver sum i",
                                                "  from: Number 1",
                                                "  to: Name n",
                                                "  body: Index",
                                                "    of: Name x",
                                                "    index: Name i",
                                            }));
  CHECK(exprTree("sum(i in 3..1, i)") == lines({
                                             "SumOver sum i",
                                             "  from: Number 3",
                                             "  to: Number 1",
                                             "  body: Name i",
                                         }));
  CHECK(exprTree("[a, b, c]") == lines({"Vector", "  Name a", "  Name b", "  Name c"}));
  CHECK(exprTree("[[a, b], [c, d]]") == lines({
                                            "Vector",
                                            "  Vector",
                                            "    Name a",
                                            "    Name b",
                                            "  Vector",
                                            "    Name c",
                                            "    Name d",
                                        }));
  CHECK(exprTree("((x))") == "Name x\n");
}

TEST_CASE("numbers never end in '.', so 1..n is a range", "[parser]") {
  CHECK(exprTree("sum(i in 1..n, i)") == lines({
                                             "SumOver sum i",
                                             "  from: Number 1",
                                             "  to: Name n",
                                             "  body: Name i",
                                         }));
  CHECK(exprTree("sum(i in 1.5..3, i)") == lines({
                                               "SumOver sum i",
                                               "  from: Number 1.5",
                                               "  to: Number 3",
                                               "  body: Name i",
                                           }));
  CHECK(exprTree("sum(i in 1..2.5, i)") == lines({
                                               "SumOver sum i",
                                               "  from: Number 1",
                                               "  to: Number 2.5",
                                               "  body: Name i",
                                           }));
  CHECK(declTree("coord q[1..10]") == lines({
                                          "Coord q",
                                          "  from: Number 1",
                                          "  to: Number 10",
                                      }));
  // `1.` and `.5` are not numbers.
  CHECK(exprTree("1.").rfind("syntax errors", 0) == 0);
  CHECK(exprTree(".5").rfind("syntax errors", 0) == 0);
  // `1.e5` is not a number: either an error or 1 followed by a component.
  std::string dotE = exprTree("1.e5");
  CHECK((dotE.rfind("syntax errors", 0) == 0 || dotE == lines({"Component .e5", "  Number 1"})));
}

TEST_CASE("postfix: primes of any order, components and indices", "[parser]") {
  CHECK(exprTree("x'") == lines({"Prime order 1", "  Name x"}));
  CHECK(exprTree("x''") == lines({"Prime order 2", "  Name x"}));
  // Order 3 parses; semantic analysis rejects it for a coordinate.
  CHECK(exprTree("x'''") == lines({"Prime order 3", "  Name x"}));
  CHECK(exprTree("x''''") == lines({"Prime order 4", "  Name x"}));
  CHECK(exprTree("p.x") == lines({"Component .x", "  Name p"}));
  CHECK(exprTree("p.y") == lines({"Component .y", "  Name p"}));
  CHECK(exprTree("p.z") == lines({"Component .z", "  Name p"}));
  CHECK(exprTree("p1'.y") == lines({"Component .y", "  Prime order 1", "    Name p1"}));
  CHECK(exprTree("(p.x)'") == lines({"Prime order 1", "  Component .x", "    Name p"}));
  CHECK(exprTree("th[i]'") == lines({
                                  "Prime order 1",
                                  "  Index",
                                  "    of: Name th",
                                  "    index: Name i",
                              }));
  CHECK(exprTree("x[k-1]") == lines({
                                  "Index",
                                  "  of: Name x",
                                  "  index: Add",
                                  "    +: Name k",
                                  "    -: Number 1",
                              }));
  CHECK(exprTree("v[1][2]'.x") == lines({
                                      "Component .x",
                                      "  Prime order 1",
                                      "    Index",
                                      "      of: Index",
                                      "        of: Name v",
                                      "        index: Number 1",
                                      "      index: Number 2",
                                  }));
  CHECK(exprTree("d[i, j]") == lines({
                                   "Index",
                                   "  of: Name d",
                                   "  index: Name i",
                                   "  index: Name j",
                               }));
  CHECK(exprTree("(x^2 + y^2)'") == lines({
                                        "Prime order 1",
                                        "  Add",
                                        "    +: Pow",
                                        "      base: Name x",
                                        "      exponent: Number 2",
                                        "    +: Pow",
                                        "      base: Name y",
                                        "      exponent: Number 2",
                                    }));
  CHECK(exprTree("sin(x)'") == lines({"Prime order 1", "  Call sin", "    Name x"}));
  CHECK(exprTree("[x, y]'.x") == lines({
                                     "Component .x",
                                     "  Prime order 1",
                                     "    Vector",
                                     "      Name x",
                                     "      Name y",
                                 }));
}

TEST_CASE("a third derivative parses and is rejected by analysis", "[parser]") {
  test::Session session;
  sema::Analysis analysis = session.analyze("model M {\n"
                                            "  coord x [m]\n"
                                            "  kinetic T = 1 [kg] * x'^2\n"
                                            "  output jerk = x'''\n"
                                            "}\n");
  REQUIRE(session.file);
  REQUIRE(session.file->ast); // it parses
  CHECK_FALSE(analysis.ok);
  REQUIRE(session.diagnostics().errorCount() == 1);
  const Diagnostic &error = session.diagnostics().all()[0];
  CHECK(error.location.line == 4);
  CHECK(error.location.column == 17);
  CHECK(error.message.find("order 3") != std::string::npos);
}

TEST_CASE("precedence: ' binds tightest", "[parser]") {
  CHECK(exprTree("phi'^2") == lines({
                                  "Pow",
                                  "  base: Prime order 1",
                                  "    Name phi",
                                  "  exponent: Number 2",
                              }));
  CHECK(exprTree("a^b'") == lines({
                                "Pow",
                                "  base: Name a",
                                "  exponent: Prime order 1",
                                "    Name b",
                            }));
  CHECK(exprTree("-x'") == lines({"Neg", "  Prime order 1", "    Name x"}));
  CHECK(exprTree("2*x'") == lines({"Mul", "  *: Number 2", "  *: Prime order 1", "    Name x"}));
}

TEST_CASE("precedence: ^ is right-associative and takes a signed exponent", "[parser]") {
  CHECK(exprTree("x^-2") == lines({
                                "Pow",
                                "  base: Name x",
                                "  exponent: Neg",
                                "    Number 2",
                            }));
  CHECK(exprTree("x^+2") == lines({"Pow", "  base: Name x", "  exponent: Number 2"}));
  CHECK(exprTree("a^b^c") == lines({
                                 "Pow",
                                 "  base: Name a",
                                 "  exponent: Pow",
                                 "    base: Name b",
                                 "    exponent: Name c",
                             }));
  // a^-b^c is a^(-(b^c)).
  CHECK(exprTree("a^-b^c") == lines({
                                  "Pow",
                                  "  base: Name a",
                                  "  exponent: Neg",
                                  "    Pow",
                                  "      base: Name b",
                                  "      exponent: Name c",
                              }));
  CHECK(exprTree("a^b^-c") == lines({
                                  "Pow",
                                  "  base: Name a",
                                  "  exponent: Pow",
                                  "    base: Name b",
                                  "    exponent: Neg",
                                  "      Name c",
                              }));
  CHECK(exprTree("a^(-b)^c") == lines({
                                    "Pow",
                                    "  base: Name a",
                                    "  exponent: Pow",
                                    "    base: Neg",
                                    "      Name b",
                                    "    exponent: Name c",
                                }));
  CHECK(exprTree("(a^b)^c") == lines({
                                   "Pow",
                                   "  base: Pow",
                                   "    base: Name a",
                                   "    exponent: Name b",
                                   "  exponent: Name c",
                               }));
  CHECK(exprTree("2 [m]^2") == lines({"Pow", "  base: Number 2 [m]", "  exponent: Number 2"}));
  CHECK(exprTree("a^b*c") == lines({
                                 "Mul",
                                 "  *: Pow",
                                 "    base: Name a",
                                 "    exponent: Name b",
                                 "  *: Name c",
                             }));
}

TEST_CASE("precedence: unary minus is looser than ^ and tighter than *", "[parser]") {
  CHECK(exprTree("-x^2") == lines({
                                "Neg",
                                "  Pow",
                                "    base: Name x",
                                "    exponent: Number 2",
                            }));
  CHECK(exprTree("(-x)^2") == lines({
                                  "Pow",
                                  "  base: Neg",
                                  "    Name x",
                                  "  exponent: Number 2",
                              }));
  CHECK(exprTree("-a*b") == lines({"Mul", "  *: Neg", "    Name a", "  *: Name b"}));
  CHECK(exprTree("a * -b") == lines({"Mul", "  *: Name a", "  *: Neg", "    Name b"}));
  CHECK(exprTree("a - -b") == lines({"Add", "  +: Name a", "  -: Neg", "    Name b"}));
  CHECK(exprTree("-(a + b)") == lines({"Neg", "  Add", "    +: Name a", "    +: Name b"}));
  CHECK(exprTree("-(-a)") == lines({"Neg", "  Neg", "    Name a"}));
  // Runs of signs fold by parity.
  CHECK(exprTree("- -a") == "Name a\n");
  CHECK(exprTree("+a") == "Name a\n");
  CHECK(exprTree("-+-a") == "Name a\n");
  CHECK(exprTree("---a") == lines({"Neg", "  Name a"}));
}

TEST_CASE("precedence: * and / left to right in one flat node, + and - flat", "[parser]") {
  CHECK(exprTree("a*b/c*d") == lines({
                                   "Mul",
                                   "  *: Name a",
                                   "  *: Name b",
                                   "  /: Name c",
                                   "  *: Name d",
                               }));
  CHECK(exprTree("a/b/c") == lines({"Mul", "  *: Name a", "  /: Name b", "  /: Name c"}));
  CHECK(exprTree("a - b + c - d") == lines({
                                         "Add",
                                         "  +: Name a",
                                         "  -: Name b",
                                         "  +: Name c",
                                         "  -: Name d",
                                     }));
  CHECK(exprTree("a + b*c - d/e") == lines({
                                         "Add",
                                         "  +: Name a",
                                         "  +: Mul",
                                         "    *: Name b",
                                         "    *: Name c",
                                         "  -: Mul",
                                         "    *: Name d",
                                         "    /: Name e",
                                     }));
  CHECK(exprTree("(a + b) * c") == lines({
                                       "Mul",
                                       "  *: Add",
                                       "    +: Name a",
                                       "    +: Name b",
                                       "  *: Name c",
                                   }));
  CHECK(exprTree("a - (b - c)") == lines({
                                       "Add",
                                       "  +: Name a",
                                       "  -: Add",
                                       "    +: Name b",
                                       "    -: Name c",
                                   }));
  CHECK(exprTree("-a + b") == lines({"Add", "  +: Neg", "    Name a", "  +: Name b"}));
  CHECK(exprTree("a / (b * c)") == lines({
                                       "Mul",
                                       "  *: Name a",
                                       "  /: Mul",
                                       "    *: Name b",
                                       "    *: Name c",
                                   }));
}

TEST_CASE("an opening bracket right after a name is an index, even when it looks like a unit",
          "[parser]") {
  // In an expression a unit only follows a number; after a name it is an
  // index, which semantic analysis reports as a misplaced unit.
  CHECK(exprTree("2*pi [1/s]") == lines({
                                      "Mul",
                                      "  *: Number 2",
                                      "  *: Index",
                                      "    of: Pi",
                                      "    index: Mul",
                                      "      *: Number 1",
                                      "      /: Name s",
                                  }));
  CHECK(exprTree("x [m]") == lines({"Index", "  of: Name x", "  index: Name m"}));
  CHECK(exprTree("3 [m]") == "Number 3 [m]\n");
}

// ---------------------------------------------------------------------------
// Names

TEST_CASE("Unicode identifiers", "[parser]") {
  CHECK(declTree("param θ1 = 1, φ = 2, th₁ = 3, x\u0307 = 4, 質量 = 5, Ω_0 = 6\n"
                 "let ω = θ1 + φ * th₁ - x\u0307 / 質量") == lines({
                                                                 "Param θ1",
                                                                 "  value: Number 1",
                                                                 "Param φ",
                                                                 "  value: Number 2",
                                                                 "Param th₁",
                                                                 "  value: Number 3",
                                                                 "Param x\u0307",
                                                                 "  value: Number 4",
                                                                 "Param 質量",
                                                                 "  value: Number 5",
                                                                 "Param Ω_0",
                                                                 "  value: Number 6",
                                                                 "Let ω",
                                                                 "  value: Add",
                                                                 "    +: Name θ1",
                                                                 "    +: Mul",
                                                                 "      *: Name φ",
                                                                 "      *: Name th₁",
                                                                 "    -: Mul",
                                                                 "      *: Name x\u0307",
                                                                 "      /: Name 質量",
                                                             }));
  CHECK(fileTree("model Маятник { coord φ [rad] }") == lines({
                                                           "File",
                                                           "  Model Маятник",
                                                           "    Coord φ",
                                                           "      unit [rad]",
                                                       }));
  // A name cannot start with a digit or a subscript digit.
  CHECK(exprTree("1x").rfind("syntax errors", 0) == 0);
  CHECK(exprTree("₁x").rfind("syntax errors", 0) == 0);
}

TEST_CASE("the clause words stay usable as names", "[parser]") {
  const char *words[] = {"mass",    "at",  "angle", "rotation", "inertia",
                         "between", "and", "rest",  "on",       "in"};
  for (const char *word : words) {
    std::string w = word;
    INFO(w);
    CHECK(declTree("param " + w + " = 1\nlet y = 2 * " + w + " + " + w + "^2") ==
          "Param " + w +
              "\n  value: Number 1\nLet y\n  value: Add\n    +: Mul\n      *: Number 2\n"
              "      *: Name " +
              w + "\n    +: Pow\n      base: Name " + w + "\n      exponent: Number 2\n");
    CHECK(exprTree(w + "(" + w + ")") == "Call " + w + "\n  Name " + w + "\n");
    CHECK(exprTree("v." + w) == "Component ." + w + "\n  Name v\n");
  }

  CHECK(declTree("particle p mass mass at at") == lines({
                                                      "Particle p",
                                                      "  mass: Name mass",
                                                      "  at: Name at",
                                                  }));
  CHECK(declTree("particle mass mass mass at at") == lines({
                                                         "Particle mass",
                                                         "  mass: Name mass",
                                                         "  at: Name at",
                                                     }));
  CHECK(declTree("body angle mass mass at at angle angle inertia inertia") ==
        lines({
            "PlanarBody angle",
            "  mass: Name mass",
            "  at: Name at",
            "  angle: Name angle",
            "  inertia: Name inertia",
        }));
  CHECK(declTree("body rotation mass mass at at rotation rotation inertia inertia") ==
        lines({
            "SpatialBody rotation",
            "  mass: Name mass",
            "  at: Name at",
            "  rotation: Name rotation",
            "  inertia: Name inertia",
        }));
  CHECK(declTree("spring between between between and and rest rest") ==
        lines({
            "Spring",
            "  stiffness: Name between",
            "  between: Name between",
            "  and: Name and",
            "  rest: Name rest",
        }));
  CHECK(declTree("force at at at\ntorque on on on\ngeneralized on on on") ==
        lines({
            "Force",
            "  force: Name at",
            "  at: Name at",
            "Torque",
            "  moment: Name on",
            "  on: Name on",
            "Generalized",
            "  value: Name on",
            "  on: Name on",
        }));
  CHECK(declTree("constraint in: in == on\nfor in in 1..3 { let and[in] = in }\n"
                 "init at = 1, at' = 2\noutput rest = sum(in in and..rest, in)\n"
                 "def at(mass, on) = mass * on\ncoord inertia [rad]") ==
        lines({
            "Constraint in",
            "  lhs: Name in",
            "  rhs: Name on",
            "For in",
            "  from: Number 1",
            "  to: Number 3",
            "  Let and",
            "    index: Name in",
            "    value: Name in",
            "Init at",
            "  value: Number 1",
            "Init at'",
            "  value: Number 2",
            "Output rest",
            "  value: SumOver sum in",
            "    from: Name and",
            "    to: Name rest",
            "    body: Name in",
            "Def at(mass, on)",
            "  Mul",
            "    *: Name mass",
            "    *: Name on",
            "Coord inertia",
            "  unit [rad]",
        }));
}

TEST_CASE("a model using every clause word as a param checks", "[parser]") {
  test::Session session;
  sema::Analysis analysis = session.analyze(
      "model Words {\n"
      "  param mass = 1 [kg], at = 2 [m], angle = 0.5, rotation = 0, inertia = 0.1 [kg*m^2]\n"
      "  param between = 10 [N/m], and = 1 [m], rest = 0.5 [m], on = 1 [N], in = 2\n"
      "  coord x [m]\n"
      "  particle p mass mass at [x, at]\n"
      "  body b mass mass at [x, 0 [m]] angle angle * x / at inertia inertia\n"
      "  spring between between [x, 0] and [and, 0] rest rest\n"
      "  generalized on * in on x\n"
      "  output w = mass * at + angle - rotation\n"
      "}\n");
  INFO(session.messages());
  CHECK(analysis.ok);
  REQUIRE(analysis.model);
  CHECK(analysis.model->params.size() == 10);
}

TEST_CASE("reserved words cannot be names", "[parser]") {
  const char *declarationWords[] = {"model",  "import",      "param",     "coord",       "let",
                                    "def",    "kinetic",     "potential", "dissipation", "force",
                                    "torque", "generalized", "particle",  "body",        "gravity",
                                    "spring", "constraint",  "init",      "output",      "for"};
  for (const char *word : declarationWords) {
    std::string w = word;
    INFO(w);
    auto asParam = parseText("model M {\n  param " + w + " = 1\n}\n");
    CHECK(asParam->file == nullptr);
    REQUIRE_FALSE(asParam->diagnostics.all().empty());
    CHECK(asParam->diagnostics.all()[0].location.line == 2);
    CHECK(asParam->diagnostics.all()[0].location.column == 9);

    auto inExpr = parseText("model M {\n  param a = 1 + " + w + "\n}\n");
    CHECK(inExpr->file == nullptr);
    REQUIRE_FALSE(inExpr->diagnostics.all().empty());
    CHECK(inExpr->diagnostics.all()[0].location.line == 2);
    CHECK(inExpr->diagnostics.all()[0].location.column == 17);

    CHECK(parseText("model M { coord " + w + " }")->file == nullptr);
    CHECK(parseText("model M { let " + w + " = 1 }")->file == nullptr);
    CHECK(parseText("def " + w + "(x) = x")->file == nullptr);
    CHECK(parseText("def f(" + w + ") = 1")->file == nullptr);
    CHECK(parseText("model " + w + " { }")->file == nullptr);
    CHECK(parseText("model M { for " + w + " in 1..2 { } }")->file == nullptr);
    CHECK(parseText("model M { particle " + w + " mass 1 at [0, 0] }")->file == nullptr);
    CHECK(parseText("model M { output a = v." + w + " }")->file == nullptr);
  }
  for (const char *word : {"t", "pi"}) {
    std::string w = word;
    INFO(w);
    auto asParam = parseText("model M {\n  param " + w + " = 1\n}\n");
    CHECK(asParam->file == nullptr);
    REQUIRE_FALSE(asParam->diagnostics.all().empty());
    CHECK(asParam->diagnostics.all()[0].location.line == 2);
    CHECK(asParam->diagnostics.all()[0].location.column == 9);
    CHECK(parseText("model M { coord " + w + " }")->file == nullptr);
    CHECK(parseText("model M { let " + w + " = 1 }")->file == nullptr);
    CHECK(parseText("def f(" + w + ") = 1")->file == nullptr);
    CHECK(parseText("model M { for " + w + " in 1..2 { } }")->file == nullptr);
    CHECK(parseText("model M { param a = sum(" + w + " in 1..2, 1) }")->file == nullptr);
  }
  // t and pi are expressions of their own.
  CHECK(exprTree("2*pi*t") == lines({"Mul", "  *: Number 2", "  *: Pi", "  *: Time"}));
  // Longer words that start with a reserved word are names.
  CHECK(declTree("param models = 1, time = 2, pie = 3, t1 = 4, for_k = 5") ==
        lines({
            "Param models",
            "  value: Number 1",
            "Param time",
            "  value: Number 2",
            "Param pie",
            "  value: Number 3",
            "Param t1",
            "  value: Number 4",
            "Param for_k",
            "  value: Number 5",
        }));
}

// ---------------------------------------------------------------------------
// Syntax errors

namespace {

struct Malformed {
  const char *text;
  int line, column;    // of the first error
  const char *message; // a part of the first error's message
};

} // namespace

TEST_CASE("malformed inputs give located syntax errors", "[parser]") {
  const Malformed cases[] = {
      {"model M {\n  param a =\n}\n", 3, 1, "expected an expression"},
      {"model M {\n  param = 1\n}\n", 2, 9, "expected a name"},
      {"model M {\n  param a 1\n}\n", 2, 11, "unexpected number 1"},
      {"model M {\n  let p = [1, 2\n}\n", 3, 1, "unexpected '}'"},
      {"model M {\n  kinetic T = (a + b\n}\n", 3, 1, "unexpected '}'"},
      {"model M {\n  particle p mass 1\n}\n", 3, 1, "'at'"},
      {"model M {\n  body b mass 1 at r inertia J\n}\n", 2, 22, "'angle' or 'rotation'"},
      {"model M {\n  spring k between a\n}\n", 3, 1, "'and'"},
      {"model M {\n  constraint c: x = 1\n}\n", 2, 19, "'=='"},
      {"model M {\n  for k 1..3 { }\n}\n", 2, 9, "'in'"},
      {"model M {\n  param a = 1 $ 2\n}\n", 2, 15, "unexpected character '$'"},
      {"model M {\n  param a = .5\n}\n", 2, 13, "numbers cannot end with '.'"},
      {"model M {\n  init x'' =\n}\n", 3, 1, "expected an expression"},
      {"model M\n  param a = 1\n}\n", 2, 3, "'{'"},
      {"model {\n}\n", 1, 7, "expected a name"},
      {"import planar.mech\n", 1, 8, "file name in quotes"},
      {"import \"planar.mech\n", 1, 8, "unterminated string"},
      {"param a = 1\n", 1, 1, "unexpected 'param'"},
      {"model M {\n  param a = 1 == 2\n}\n", 2, 15, "unexpected '=='"},
      {"model M {\n  param a = 1\n", 3, 1, "end of input"},
      {"model M {\n  param a = 1\n}\n}\n", 4, 1, "unexpected '}'"},
      {"model M {\n  param a = sin(x,)\n}\n", 2, 19, "unexpected ')'"},
      {"model M {\n  param a = x.1\n}\n", 2, 15, "unexpected number 1"},
      {"model M {\n  param a = 2 [m^1.5]\n}\n", 2, 18, "unit exponent"},
      {"model M {\n  let x[k in 1..n = 1\n}\n", 2, 19, "unexpected '='"},
      {"model M {\n  def f(a b) = a\n}\n", 2, 11, "unexpected name 'b'"},
      {"model M {\n  output = 1\n}\n", 2, 10, "unexpected '='"},
      {"model M {\n  gravity\n}\n", 3, 1, "expected an expression"},
      {"model M {\n  coord x [m\n}\n", 3, 1, "unexpected '}'"},
      {"model M {\n  param a = [1 2]\n}\n", 2, 16, "unexpected number 2"},
      {"model M {\n  param a = 2 [m s]\n}\n", 2, 18, "unexpected name 's'"},
      {"model M {\n  param a = 1 +\n}\n", 3, 1, "expected an expression"},
      {"model M {\n  param a = x^\n}\n", 3, 1, "expected an expression"},
      {"model M {\n  param a = x.t\n}\n", 2, 15, "unexpected 't'"},
      {"model M {\n  torque M at phi\n}\n", 2, 12, "unexpected 'at'"},
      {"model M {\n  param θ = 1 @\n}\n", 2, 15, "unexpected character '@'"},
      {"model M {\n  param a = 1\u00a0+ 2\n}\n", 2, 14, "unexpected character"},
  };
  for (const Malformed &c : cases) {
    auto parsed = parseText(c.text);
    INFO(c.text);
    INFO(parsed->messages());
    CHECK(parsed->file == nullptr);
    REQUIRE_FALSE(parsed->diagnostics.all().empty());
    CHECK(parsed->diagnostics.hasErrors());
    const Diagnostic &first = parsed->diagnostics.all()[0];
    CHECK(first.severity == Severity::Error);
    CHECK(first.location.file == parsed->source.get());
    CHECK(first.location.line == c.line);
    CHECK(first.location.column == c.column);
    CHECK(first.message.find(c.message) != std::string::npos);
    for (const Diagnostic &d : parsed->diagnostics.all()) {
      CHECK(d.location.valid());
      CHECK(d.location.column >= 1);
      std::string rendered = render(d);
      CHECK(rendered.find("test.mech:" + std::to_string(d.location.line) + ":" +
                          std::to_string(d.location.column) + ": error: ") == 0);
      CHECK(rendered.find('^') != std::string::npos);
    }
  }
}

TEST_CASE("several independent syntax errors are all reported", "[parser]") {
  auto parsed = parseText("model M {\n"
                          "  param a =\n"
                          "  coord x [m]\n"
                          "  param b = * 2\n"
                          "  let = 3\n"
                          "  kinetic T = x'^2\n"
                          "}\n");
  INFO(parsed->messages());
  CHECK(parsed->file == nullptr);
  CHECK(parsed->diagnostics.errorCount() >= 3);
  auto reportedAt = [&](int line, int column) {
    for (const Diagnostic &d : parsed->diagnostics.all())
      if (d.location.line == line && d.location.column == column)
        return true;
    return false;
  };
  CHECK(reportedAt(3, 3));  // coord where the value of a was expected
  CHECK(reportedAt(4, 13)); // *
  CHECK(reportedAt(5, 7));  // = where a name was expected

  auto characters = parseText("model M {\n  param a = 1 $ 2\n  param b = 3 ` 4\n}\n");
  INFO(characters->messages());
  CHECK(characters->file == nullptr);
  CHECK(characters->diagnostics.errorCount() == 2);
}

TEST_CASE("syntax errors are located in code points after Unicode names", "[parser]") {
  auto parsed = parseText("model M { param θ = $ }\n");
  REQUIRE_FALSE(parsed->diagnostics.all().empty());
  CHECK(parsed->diagnostics.all()[0].location.line == 1);
  CHECK(parsed->diagnostics.all()[0].location.column == 21);
  auto second = parseText("model M {\n  param φφφ = 1 ==\n}\n");
  REQUIRE_FALSE(second->diagnostics.all().empty());
  CHECK(second->diagnostics.all()[0].location.line == 2);
  CHECK(second->diagnostics.all()[0].location.column == 17);
}

// `1.` is not a number, and the message says so wherever the `.` is.
TEST_CASE("a number ending in '.' is explained", "[parser]") {
  auto parsed = parseText("model M {\n  param a = 1.\n  coord x\n}\n");
  INFO(parsed->messages());
  CHECK(parsed->file == nullptr);
  REQUIRE_FALSE(parsed->diagnostics.all().empty());
  CHECK(parsed->diagnostics.all()[0].message.find("numbers cannot end with '.'") !=
        std::string::npos);
}

TEST_CASE("expressions and declarations parsed on their own", "[parser]") {
  SourceFile source("repl", "param a = 1; coord x [m]\nkinetic T = a * x'^2");
  Diagnostics diagnostics;
  auto decls = parseDeclarations(source, diagnostics);
  REQUIRE(decls);
  CHECK(decls->size() == 3);
  CHECK(std::holds_alternative<ast::ParamDecl>((*decls)[0].node));
  CHECK(std::holds_alternative<ast::CoordDecl>((*decls)[1].node));
  CHECK(std::holds_alternative<ast::EnergyDecl>((*decls)[2].node));

  SourceFile bad("repl", "1 +");
  Diagnostics badDiagnostics;
  CHECK(parseExpression(bad, badDiagnostics) == nullptr);
  CHECK(badDiagnostics.hasErrors());
  CHECK(exprTree("1 2").rfind("syntax errors", 0) == 0);
}
