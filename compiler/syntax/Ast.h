// The abstract syntax tree of a .mech file: typed nodes, each with a source
// Location. Built from the ANTLR parse tree by AstBuilder; nothing past this
// folder sees an ANTLR type. Operator chains are stored flat (Add, Mul) so a
// 100 000-term sum is one node with 100 000 children, never a deep tree.
#pragma once

#include "support/SourceFile.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mech::ast {

// One list of expression kinds drives the enum, the printer and the dumper.
#define MECH_AST_EXPR_KINDS(X)                                                                     \
  X(Number)                                                                                        \
  X(Time)                                                                                          \
  X(Pi)                                                                                            \
  X(Name)                                                                                          \
  X(Call)                                                                                          \
  X(SumOver)                                                                                       \
  X(Vector)                                                                                        \
  X(Add)                                                                                           \
  X(Mul)                                                                                           \
  X(Neg)                                                                                           \
  X(Pow)                                                                                           \
  X(Prime)                                                                                         \
  X(Component)                                                                                     \
  X(Index)                                                                                         \
  X(Colon)                                                                                         \
  X(Compare)                                                                                       \
  X(Logic)

enum class ExprKind {
#define MECH_AST_ENUM(name) name,
  MECH_AST_EXPR_KINDS(MECH_AST_ENUM)
#undef MECH_AST_ENUM
};

const char *exprKindName(ExprKind kind);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// A unit such as kg*m^2/s^2, flattened: each factor with a signed exponent.
struct UnitFactor {
  std::string symbol; // "1" for a plain number
  int exponent = 1;
  Location location;
};
struct Unit {
  std::vector<UnitFactor> factors;
  Location location;
};

struct Expr {
  ExprKind kind;
  Location location;
  int depth = 1; // height of the tree below and including this node

  explicit Expr(ExprKind k, Location loc) : kind(k), location(loc) {}
  virtual ~Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;
};

struct Number : Expr {
  std::string text; // as written: 0.5, 6.02e23
  std::optional<Unit> unit;
  Number(Location loc, std::string t) : Expr(ExprKind::Number, loc), text(std::move(t)) {}
};

struct Time : Expr {
  explicit Time(Location loc) : Expr(ExprKind::Time, loc) {}
};

struct Pi : Expr {
  explicit Pi(Location loc) : Expr(ExprKind::Pi, loc) {}
};

struct Name : Expr {
  std::string name;
  Name(Location loc, std::string n) : Expr(ExprKind::Name, loc), name(std::move(n)) {}
};

struct Call : Expr {
  std::string callee; // f, or I.f for a def of a file imported as I
  Location calleeLocation;
  std::vector<ExprPtr> args;
  Call(Location loc, std::string c) : Expr(ExprKind::Call, loc), callee(std::move(c)) {}
};

// sum(i in from..to, body); `function` is the name written before the
// parenthesis, checked to be `sum` by sema.
struct SumOver : Expr {
  std::string function;
  std::string index;
  Location indexLocation;
  ExprPtr from, to, body;
  SumOver(Location loc) : Expr(ExprKind::SumOver, loc) {}
};

// [a, b, c]; a matrix is a vector of row vectors.
struct Vector : Expr {
  std::vector<ExprPtr> elements;
  explicit Vector(Location loc) : Expr(ExprKind::Vector, loc) {}
};

// a + b - c: each term with its sign (the first is always added).
struct Add : Expr {
  struct Term {
    bool negated = false;
    ExprPtr value;
  };
  std::vector<Term> terms;
  explicit Add(Location loc) : Expr(ExprKind::Add, loc) {}
};

// a * b / c: each factor multiplies or divides (the first multiplies).
struct Mul : Expr {
  struct Factor {
    bool divides = false;
    ExprPtr value;
  };
  std::vector<Factor> factors;
  explicit Mul(Location loc) : Expr(ExprKind::Mul, loc) {}
};

struct Neg : Expr {
  ExprPtr operand;
  Neg(Location loc, ExprPtr o) : Expr(ExprKind::Neg, loc), operand(std::move(o)) {}
};

struct Pow : Expr {
  ExprPtr base, exponent;
  Pow(Location loc, ExprPtr b, ExprPtr e)
      : Expr(ExprKind::Pow, loc), base(std::move(b)), exponent(std::move(e)) {}
};

// operand followed by `order` primes: the order-th total time derivative.
struct Prime : Expr {
  ExprPtr operand;
  int order = 1;
  Prime(Location loc, ExprPtr o, int n)
      : Expr(ExprKind::Prime, loc), operand(std::move(o)), order(n) {}
};

struct Component : Expr {
  ExprPtr operand;
  std::string component; // x, y or z (checked by sema)
  Location componentLocation;
  Component(Location loc, ExprPtr o, std::string c)
      : Expr(ExprKind::Component, loc), operand(std::move(o)), component(std::move(c)) {}
};

// operand[i, j]: a member of an indexed family, an entry, row or column of
// a vector or matrix (counted from 1), or a misplaced unit.
struct Index : Expr {
  ExprPtr operand;
  std::vector<ExprPtr> indices;
  Index(Location loc, ExprPtr o) : Expr(ExprKind::Index, loc), operand(std::move(o)) {}
};

// `:` as an index: the whole row or column (W[:, 2]).
struct Colon : Expr {
  explicit Colon(Location loc) : Expr(ExprKind::Colon, loc) {}
};

// a < b, a <= b, a > b, a >= b: a comparison in the condition of
// if(cond, a, b), the one place the grammar allows conditions (`if` is a
// Call whose first argument is a Compare or a Logic).
struct Compare : Expr {
  enum class Op { Less, LessEqual, Greater, GreaterEqual };
  Op op;
  ExprPtr lhs, rhs;
  Compare(Location loc, Op o, ExprPtr l, ExprPtr r)
      : Expr(ExprKind::Compare, loc), op(o), lhs(std::move(l)), rhs(std::move(r)) {}
};
const char *compareSpelling(Compare::Op op); // "<", "<=", ...

// c1 and c2 and ..., c1 or c2 or ..., not c: conditions combined.
struct Logic : Expr {
  enum class Op { And, Or, Not };
  Op op;
  std::vector<ExprPtr> operands; // one for Not
  Logic(Location loc, Op o) : Expr(ExprKind::Logic, loc), op(o) {}
};

// ---------------------------------------------------------------------------
// Declarations

// A declared name, possibly indexed (bob[k] inside a for block).
struct DeclName {
  std::string name;
  Location location;
  std::vector<ExprPtr> indices;
};

struct Range {
  ExprPtr from, to;
};

// param m = 2; a family param m[k in 1..n] = e(k) or c[1..3] = [10, 20, 30].
struct ParamItem {
  std::string name;
  Location location;
  std::optional<std::string> familyIndex; // k in m[k in 1..n]
  Location familyIndexLocation;
  std::optional<Range> family;
  std::optional<Unit> unit;
  ExprPtr value;
};
struct ParamDecl {
  std::vector<ParamItem> items;
};

// input u [N*m]: an external input, 0 unless given from outside.
struct InputItem {
  std::string name;
  Location location;
  std::optional<Unit> unit;
};
struct InputDecl {
  std::vector<InputItem> items;
};

struct CoordItem {
  std::string name;
  Location location;
  std::optional<Range> family; // th[1..n]
  std::optional<Unit> unit;
};
struct CoordDecl {
  std::vector<CoordItem> items;
};

// let x = e; let x[k in a..b] = e; let x[k] = e (inside for).
struct LetDecl {
  DeclName target;
  std::optional<std::string> familyIndex;
  Location familyIndexLocation;
  std::optional<Range> family;
  std::optional<Unit> unit;
  ExprPtr value;
};

struct DefDecl {
  std::string name;
  Location location;
  std::vector<std::string> params;
  std::vector<Location> paramLocations;
  ExprPtr body;
};

enum class EnergyKind { Kinetic, Potential, Dissipation };
struct EnergyDecl {
  EnergyKind kind;
  std::optional<DeclName> name;
  ExprPtr value;
};

struct ForceDecl {
  ExprPtr force, point;
};
struct TorqueDecl {
  ExprPtr moment, angle;
};
struct GeneralizedDecl {
  ExprPtr value, coordinate;
};
struct ParticleDecl {
  DeclName name;
  ExprPtr mass, position;
};
enum class BodyKind { Planar, Spatial };
struct BodyDecl {
  DeclName name;
  BodyKind kind;
  ExprPtr mass, position;
  ExprPtr orientation; // angle (planar) or rotation matrix (spatial)
  ExprPtr inertia;
  ExprPtr about; // the point the inertia is given about; null: the centre of mass
};
struct GravityDecl {
  ExprPtr acceleration;
};
struct SpringDecl {
  ExprPtr stiffness, from, to;
  ExprPtr rest; // may be null: rest length 0
};
struct ConstraintDecl {
  std::optional<DeclName> name;
  ExprPtr lhs, rhs;
};
struct InitItem {
  std::string name;
  Location location;
  std::vector<ExprPtr> indices;
  int primes = 0;
  ExprPtr value;
};
struct InitDecl {
  std::vector<InitItem> items;
};
struct OutputDecl {
  DeclName name;
  ExprPtr value;
};
// event name: lhs == rhs [stop] [direction up|down] [then q' = ..., ...]:
// where lhs - rhs changes sign during a simulation, and the state reset
// there (assignments to coordinates and velocities, as init writes them).
enum class EventDirection { Either, Up, Down };
struct EventDecl {
  DeclName name;
  ExprPtr lhs, rhs;
  bool stop = false;
  EventDirection direction = EventDirection::Either;
  std::vector<InitItem> resets;
};

// contact name: lhs >= rhs restitution e (or lhs <= rhs): a unilateral
// contact whose gap lhs - rhs (rhs - lhs for <=) stays nonnegative.
struct ContactDecl {
  DeclName name;
  ExprPtr lhs, rhs;
  bool atLeast = true; // >=; false for <=
  ExprPtr restitution;
};

// friction name: slip s normal N static mu_s [kinetic mu_k]: Coulomb
// friction on the slip velocity s (affine in the velocities), with the
// normal force N; mu_k is mu_s when not given.
struct FrictionDecl {
  DeclName name;
  ExprPtr slip, normal, staticCoefficient, kineticCoefficient; // the last may be null
};

// table name(argument [unit]) [unit] from "file.csv" | = [[x, y], ...],
// then `linear` (the default) or `cubic` (monotone), and `extrapolate hold`
// (the default: the end values) or `extrapolate linear`.
struct TableDecl {
  std::string name, argument;
  Location nameLocation, argumentLocation;
  std::optional<Unit> argumentUnit, unit;
  std::optional<std::string> path; // from "path"
  Location pathLocation;
  ExprPtr rows; // = [[x, y], ...]
  bool cubic = false, linearExtrapolation = false;
};

// draw shape(args): what `mech animate` draws besides what it derives from
// the model (docs/language.md "draw"): rod(a, b), spring(a, b), point(p),
// disk(c, r[, angle]), box(c, size[, angle]), ground(h).
struct DrawDecl {
  std::string shape;
  Location shapeLocation;
  std::vector<ExprPtr> args;
};

struct Decl;
struct ForDecl {
  std::string index;
  Location indexLocation;
  Range range;
  std::vector<Decl> body;
  std::vector<std::string> closingComments; // comments before the final }
};

// Comments kept for `mech fmt`: those on lines before a declaration, and one
// at the end of the declaration's last line.
struct Comments {
  std::vector<std::string> leading;
  std::optional<std::string> trailing;
  bool blankLineBefore = false;
};

struct Decl {
  std::variant<ParamDecl, InputDecl, CoordDecl, LetDecl, DefDecl, EnergyDecl, ForceDecl, TorqueDecl,
               GeneralizedDecl, ParticleDecl, BodyDecl, GravityDecl, SpringDecl, ConstraintDecl,
               InitDecl, OutputDecl, EventDecl, ContactDecl, FrictionDecl, TableDecl, DrawDecl,
               ForDecl>
      node;
  Location location; // the declaration's first token
  Comments comments;
};

// import "file.mech", or import "file.mech" as I (its defs called I.f(...)).
struct ImportDecl {
  std::string path; // without the quotes
  Location location;
  std::optional<std::string> alias;
  Location aliasLocation;
};

struct ModelDecl {
  std::string name;
  Location location;
  std::vector<Decl> body;
  std::vector<std::string> closingComments; // comments before the final }
};

// A top-level item in source order.
struct TopItem {
  std::variant<ImportDecl, DefDecl, ModelDecl> node;
  Location location;
  Comments comments;
};

struct File {
  const SourceFile *source = nullptr;
  std::vector<TopItem> items;
  std::vector<std::string> trailingComments; // after the last item

  const ModelDecl *model() const;
};

} // namespace mech::ast
