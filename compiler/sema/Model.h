// The checked model: what semantic analysis hands to the mechanics layer.
// Names are resolved, for/sum/def are expanded, units are converted to SI,
// and every expression carries its shape, dimension and source location.
// Expressions form an immutable DAG of shared nodes (lets are referenced by
// index, never copied), so no expansion duplicates a subexpression.
#pragma once

#include "sema/Dimension.h"
#include "support/ElementaryFunctions.h"
#include "support/Rational.h"
#include "support/SourceFile.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::sema {

// scalar (0, 0), vector of n (n, 0), matrix r x c (r, c).
struct Shape {
  int rows = 0;
  int cols = 0;

  static Shape scalar() { return {0, 0}; }
  static Shape vector(int n) { return {n, 0}; }
  static Shape matrix(int r, int c) { return {r, c}; }
  bool isScalar() const { return rows == 0; }
  bool isVector() const { return rows > 0 && cols == 0; }
  bool isMatrix() const { return cols > 0; }
  int size() const { return isScalar() ? 1 : isVector() ? rows : rows * cols; }
  std::string toString() const; // "a scalar", "a 2-vector", "a 3x3 matrix"
  friend bool operator==(const Shape &, const Shape &) = default;
};

// The built-in functions: the elementary ones, then those on vectors and
// matrices.
#define MECH_BUILTINS(X)                                                                           \
  MECH_ELEMENTARY_FUNCTIONS(X)                                                                     \
  X(Sqrt, "sqrt", 1)                                                                               \
  X(Dot, "dot", 2)                                                                                 \
  X(Cross, "cross", 2)                                                                             \
  X(Norm, "norm", 1)                                                                               \
  X(Transpose, "transpose", 1)                                                                     \
  X(Diag, "diag", -1)                                                                              \
  X(Det, "det", 1)                                                                                 \
  X(Trace, "trace", 1)                                                                             \
  X(Inv, "inv", 1)                                                                                 \
  X(Solve, "solve", 2)                                                                             \
  X(Min, "min", -1)                                                                                \
  X(Max, "max", -1)                                                                                \
  X(Clamp, "clamp", 3)                                                                             \
  X(If, "if", 3)                                                                                   \
  X(Smooth, "smooth", 1)

enum class Builtin {
#define MECH_BUILTIN_ENUM(id, name, arity) id,
  MECH_BUILTINS(MECH_BUILTIN_ENUM)
#undef MECH_BUILTIN_ENUM
};

const char *builtinName(Builtin b);
std::optional<Builtin> findBuiltin(const std::string &name);
std::vector<std::string> builtinNames();

// det, inv and solve expand by cofactors, exact and symbolic, up to this
// many rows (the terms grow as n!); above, up to kMaxMatrixSolveSize, they
// are computed numerically in the kernels (symbolic/MatrixFunctions.h).
constexpr int kMaxCofactorSize = 4;
constexpr int kMaxMatrixSolveSize = 16;

// The rule of det, trace, inv and solve's matrix, shared by the checker and the REPL so that
// both say the same: why `b` cannot take an argument of shape `s`
// ("det expects a square matrix, found a 2x3 matrix"), or nullopt when it can.
std::optional<std::string> squareMatrixProblem(Builtin b, Shape s);

// One list of IR node kinds drives the enum and the printers.
#define MECH_SEMA_EXPR_KINDS(X)                                                                    \
  X(Number) /* value, exact */                                                                     \
  X(Pi)                                                                                            \
  X(Time)                                                                                          \
  X(Param)      /* index into CheckedModel::params */                                              \
  X(Coord)      /* index into CheckedModel::coords */                                              \
  X(Let)        /* index into CheckedModel::lets */                                                \
  X(Multiplier) /* index into CheckedModel::constraints */                                         \
  X(Neg)                                                                                           \
  X(Add) /* n-ary */                                                                               \
  X(Mul) /* n-ary, left to right; a/b is a*b^-1 */                                                 \
  X(Pow)                                                                                           \
  X(Call) /* builtin */                                                                            \
  X(Vector)                                                                                        \
  X(Matrix)     /* children row-major */                                                           \
  X(Component)  /* index = axis 0, 1, 2 */                                                         \
  X(Derivative) /* total time derivative along the motion */                                       \
  X(Compare)    /* if's condition: index 0 <, 1 <=, 2 >, 3 >=; lhs and rhs */                      \
  X(Logic)      /* if's condition: index 0 and, 1 or, 2 not; the operands */                       \
  X(TableCall)  /* index into CheckedModel::tables; the argument */

enum class ExprKind {
#define MECH_SEMA_ENUM(name) name,
  MECH_SEMA_EXPR_KINDS(MECH_SEMA_ENUM)
#undef MECH_SEMA_ENUM
};

const char *exprKindName(ExprKind kind);

struct Node;
using ExprRef = std::shared_ptr<const Node>;

struct Node {
  ExprKind kind;
  Shape shape;
  DimInfo dim;
  Location location;
  std::vector<ExprRef> children;

  double value = 0;               // Number
  std::optional<Rational> exact;  // Number, when exactly rational
  int index = -1;                 // Param, Coord, Let, Multiplier, Component
  Builtin builtin = Builtin::Sin; // Call

  // Facts for later checks, computed when the node is made (through lets).
  int coordOrder = -1;   // highest derivative order of a coordinate; -1: none
  bool usesTime = false; // explicit t
  bool usesMultiplier = false;
  bool usesInput = false; // an input, through lets and defs
  // The nodes of the expression as a tree: each call of a def counts its
  // body again (the resolver shares one expansion per distinct arguments),
  // a let's reference counts 1. What later passes that walk the expression
  // as a tree would meet.
  double treeSize = 1;
};

// The unit a name was declared in, as the source wrote it: `N/m` for
// `param k = 40 [N/m]`, `1/s` for `param w [1/s] = 2*pi`. Values stay in SI;
// listings show them in this unit (ModelPrinter's unitOf and valueIn).
struct DeclaredUnit {
  std::string text; // as formatUnit prints it: "N/m", "g", "1/s"
  double scale = 1; // the SI value of one declared unit
};

struct Param {
  std::string name;   // m[2] for a member of a family
  std::string family; // m for a member of a family, else empty
  std::vector<long> indices;
  Location location;
  double value = 0;
  DimInfo dim;
  std::optional<DeclaredUnit> unit; // on the name or on a literal default
  bool structural = false;          // used as a range bound or index
  bool overridden = false;          // set from outside (--set)
  // An input (`input u [N*m]`): a value given from outside while the model
  // runs (0 by default), allowed only in forces, torques, generalized forces
  // and outputs. Inputs follow every other param in CheckedModel::params, so
  // that kernels read them where the parameters end.
  bool input = false;
};

struct Coord {
  std::string name;   // th[2] for a member of a family
  std::string family; // th
  std::vector<long> indices;
  Location location;
  DimInfo dim;
  std::optional<DeclaredUnit> unit; // always coherent SI (scale 1)
};

struct Let {
  std::string name;
  Location location;
  ExprRef value;
  std::optional<DeclaredUnit> unit; // `let h [m] = ...`
  // The value of an output, held as a let so that later (or earlier)
  // outputs can use it; listed with the outputs, not the lets.
  bool output = false;
};

struct Term {
  std::string name; // may be empty
  Location location;
  ExprRef value;
};

struct PointForce {
  Location location;
  ExprRef force, point;
};

struct Torque {
  Location location;
  ExprRef moment, angle;
};

struct GeneralizedForce {
  Location location;
  ExprRef value;
  int coord = -1;
};

struct Particle {
  std::string name;
  Location location;
  ExprRef mass, position;
};

struct Body {
  std::string name;
  Location location;
  bool planar = true;
  ExprRef mass, position;
  ExprRef orientation; // planar: angle; spatial: rotation matrix body -> world
  ExprRef inertia;     // planar: scalar J; spatial: 3x3 tensor in body axes
  // The point (world components) the inertia is given about, fixed in the
  // body; null when it is given about the centre of mass. The mechanics
  // layer shifts it to the centre (mechanics/BodyInertia).
  ExprRef about;
};

struct Gravity {
  Location location;
  ExprRef acceleration;
};

struct Spring {
  Location location;
  ExprRef stiffness, from, to, rest;
};

struct Constraint {
  std::string name;
  Location location;
  ExprRef lhs, rhs;
  DimInfo multiplierDim; // work over the dimension of lhs - rhs
};

struct Initial {
  int coord = -1;
  int order = 0; // 0: q, 1: q'
  double value = 0;
  Location location;
};

struct Output {
  std::string name;
  Location location;
  ExprRef value;
};

// An event: where lhs - rhs changes sign during a simulation (in the
// direction given: +1 rising, -1 falling, 0 either); a stop event ends the
// run there. It observes the motion as an output does.
// A state reset at an event (`then th' = -e * th'`): coordinate `coord`
// (order 0) or its velocity (order 1) takes `value`, computed from the
// state before the event; all of an event's resets at once.
struct Reset {
  int coord = -1;
  int order = 0;
  ExprRef value;
  Location location;
};

struct Event {
  std::string name;
  Location location;
  ExprRef lhs, rhs;
  int direction = 0;
  bool stop = false;
  std::vector<Reset> resets;
};

// A unilateral contact (`contact floor: y >= 0 restitution e`): the gap
// (lhs - rhs, or rhs - lhs for <=) of the coordinates and t stays
// nonnegative; `restitution` is a constant in [0, 1] (numbers and params).
struct Contact {
  std::string name;
  Location location;
  ExprRef lhs, rhs;
  bool atLeast = true; // the gap is lhs - rhs (>=), else rhs - lhs (<=)
  ExprRef restitution;
  Location restitutionLocation;
  DimInfo forceDim; // of its contact force, a multiplier's: work over the gap
};

// Coulomb friction (`friction belt: slip x' - vb normal m*g static mu_s
// kinetic mu_k`) on the slip velocity (a function of the coordinates, the
// velocities, affine in them, and t), with the normal force `normal` (no
// accelerations) and the constant coefficients mu_s >= mu_k >= 0.
struct Friction {
  std::string name;
  Location location;
  ExprRef slip, normal, staticCoefficient, kineticCoefficient;
  Location normalLocation;
  DimInfo forceDim; // of its force while it sticks, a multiplier's: power over the slip
  // `normal floor`: the name of the contact whose force is N (`normal` is
  // then 0); the friction acts while that contact rests. "" otherwise.
  std::string normalContact;
};

// A `draw` hint: a shape `mech animate` draws besides what it derives from
// the model (docs/language.md "draw"). args as the shape takes them,
// checked: positions (vectors of 2 or 3 lengths), lengths, an angle, a size.
struct Drawing {
  std::string shape; // rod, spring, point, disk, box, ground
  Location location;
  std::vector<ExprRef> args;
};

// A table (`table torque(w [rad/s]) [N*m] from "motor.csv"`): a function
// of one argument through its rows, the abscissae strictly increasing, all
// in SI; linear or monotone cubic (Fritsch-Carlson) between the rows, and
// beyond them the end values (hold) or the end rows' line.
struct Table {
  std::string name, argument;
  Location location;
  DimInfo argumentDim, dim;
  std::vector<double> x, y;
  bool cubic = false, linearExtrapolation = false;
  std::string source; // the file's path as written, empty for inline rows

  // Its value at `at` (the interpolant the kernels compute).
  double value(double at) const;
};

// The largest table: each row is a piece of the expression the kernels run.
inline constexpr size_t kMaxTableRows = 10000;

struct CheckedModel {
  std::string name;
  Location location;
  std::vector<Param> params;
  std::vector<Coord> coords;
  std::vector<Let> lets;
  std::vector<Term> kinetic, potential, dissipation;
  std::vector<PointForce> forces;
  std::vector<Torque> torques;
  std::vector<GeneralizedForce> generalized;
  std::vector<Particle> particles;
  std::vector<Body> bodies;
  std::vector<Gravity> gravity;
  std::vector<Spring> springs;
  std::vector<Constraint> constraints;
  std::vector<Initial> initial;
  std::vector<Output> outputs;
  std::vector<Event> events;
  std::vector<Contact> contacts;
  std::vector<Friction> frictions;
  std::vector<Drawing> drawings;
  std::vector<Table> tables;

  // The number of inputs, the last entries of params.
  size_t inputCount() const;
  size_t firstInput() const { return params.size() - inputCount(); }

  // The model's initial state (q, q'), defaults 0 where `init` is silent.
  std::vector<double> initialState() const;
};

} // namespace mech::sema
