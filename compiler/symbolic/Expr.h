// The symbolic expression engine: immutable, hash-consed nodes behind the
// Expr handle. Nodes are created only by the Context's factories, which put
// every expression in canonical form and intern it, so pointer equality is
// structural equality and every pass can memoise on node identity.
//
// Canonical forms (SymEngine-style):
//   Add: a numeric constant plus terms, each term -> coefficient, terms
//        coefficient-free; like terms collected.
//   Mul: a numeric coefficient times bases, each base -> exponent; equal
//        bases merged; x^1 * y^1 with coefficient 1 is a Mul, a lone x^e is a
//        Pow, a lone x is x.
// Terms and factors are stored in an order derived from a content hash that
// does not depend on pointers or seeds, so output is the same on every run.
#pragma once

#include "support/ElementaryFunctions.h"
#include "symbolic/Number.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace mech::sym {

#define MECH_SYM_KINDS(X) X(Number) X(Symbol) X(Add) X(Mul) X(Pow) X(Func)

enum class Kind : uint8_t {
#define MECH_SYM_KIND(name) name,
  MECH_SYM_KINDS(MECH_SYM_KIND)
#undef MECH_SYM_KIND
};

// The engine's functions are the language's elementary functions, then
// the piecewise choice select(g, a, b) (a where g > 0, else b: `if`, `min`,
// `max` and `clamp` are written with it) and smooth(x), x itself, whose
// choices the runs do not treat as switches (mechanics/Switches.h). Last,
// the numeric path of det and inv above the cofactor sizes
// (symbolic/MatrixFunctions.h): matrix(a11, ..., ann) packs a square
// matrix (any arity n^2; it is an operand, not a value of its own),
// det(M) is its determinant and inv(i, j, M) the entry (i, j) of its
// inverse, 1-based; the back ends factor each packed matrix once.
#define MECH_SYM_FUNCS(X)                                                                          \
  MECH_ELEMENTARY_FUNCTIONS(X)                                                                     \
  X(Select, "select", 3)                                                                           \
  X(Smooth, "smooth", 1) X(Matrix, "matrix", 0) X(Det, "det", 1) X(InvEntry, "inv", 3)

enum class Fn : uint8_t {
#define MECH_SYM_FN(id, name, arity) id,
  MECH_SYM_FUNCS(MECH_SYM_FN)
#undef MECH_SYM_FN
};

const char *fnName(Fn fn);
// An elementary function's value (not Select, Smooth or the matrix functions).
inline double evaluateFn(Fn fn, double x, double y = 0) {
  return evaluateElementary(static_cast<ElementaryFunction>(fn), x, y);
}
// Whether fn is one of the matrix functions (Matrix, Det, InvEntry).
inline bool isMatrixFn(Fn fn) {
  return fn == Fn::Matrix || fn == Fn::Det || fn == Fn::InvEntry;
}

// What a symbol stands for; coordinates have one symbol per derivative order.
enum class SymbolKind : uint8_t { Param, Coord, Time, Multiplier, Constant, Free };

// Bits of Node::mask: which kinds of symbols an expression contains.
enum SymbolMask : uint8_t {
  kHasCoord = 1,
  kHasVelocity = 2,
  kHasAcceleration = 4,
  kHasTime = 8,
  kHasMultiplier = 16,
  kHasParam = 32,
  kHasFree = 64,
};

struct SymbolInfo {
  std::string name; // as printed: th[1], x
  SymbolKind kind;
  int index = -1;   // coordinate, param or multiplier index
  int order = 0;    // derivative order of a coordinate
  double value = 0; // Constant (pi)
  // Display only: the LaTeX of a free symbol that stands for something the
  // printer cannot spell from its name (a table's call, drive(th')).
  std::string latex;
};

class Context;

struct Node {
  Kind kind;
  Fn fn = Fn::Sin;
  uint8_t mask = 0;
  uint32_t symbol = 0;
  uint64_t hash = 0;
  Num num;                       // Number; Add: constant; Mul: coefficient
  std::vector<const Node *> ops; // Add: term, coef, ...; Mul: base, exp, ...;
                                 // Pow: base, exp; Func: args
  double treeSize = 1;           // size of the expression written as a tree
  Context *context = nullptr;
};

class Expr {
public:
  Expr() = default;
  explicit Expr(const Node *node) : node_(node) {}

  const Node *node() const { return node_; }
  const Node *operator->() const { return node_; }
  explicit operator bool() const { return node_ != nullptr; }
  Kind kind() const { return node_->kind; }
  Context &context() const { return *node_->context; }

  bool isNumber() const { return node_->kind == Kind::Number; }
  bool isZero() const { return isNumber() && node_->num.isZero(); }
  bool isOne() const { return isNumber() && node_->num.isOne(); }
  bool has(uint8_t mask) const { return (node_->mask & mask) != 0; }

  friend bool operator==(const Expr &a, const Expr &b) { return a.node_ == b.node_; }
  friend bool operator!=(const Expr &a, const Expr &b) { return a.node_ != b.node_; }

private:
  const Node *node_ = nullptr;
};

Expr operator+(const Expr &a, const Expr &b);
Expr operator-(const Expr &a, const Expr &b);
Expr operator*(const Expr &a, const Expr &b);
Expr operator/(const Expr &a, const Expr &b);
Expr operator-(const Expr &a);
Expr pow(const Expr &base, const Expr &exponent);
Expr pow(const Expr &base, int64_t exponent);
Expr sqrt(const Expr &x);
// select(g, a, b): a where g > 0, else b.
Expr select(const Expr &g, const Expr &a, const Expr &b);
Expr apply(Fn fn, const Expr &x);
Expr atan2(const Expr &y, const Expr &x);

// A total order on nodes that depends only on their content.
bool canonicalLess(const Node *a, const Node *b);

// True when -e has a simpler canonical form than e (a negative leading
// coefficient), so that sin(-x) can become -sin(x).
bool isNegativeForm(const Expr &e);

class Context {
public:
  Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  Expr number(const Num &value);
  Expr integer(int64_t value) { return number(Num(value)); }
  Expr rational(int64_t num, int64_t den);
  Expr zero() { return zero_; }
  Expr one() { return one_; }
  Expr pi() { return pi_; }
  Expr time() { return time_; }

  // A symbol with this name and kind, created once.
  Expr symbol(const std::string &name, SymbolKind kind, int index = -1, int order = 0);
  // A coordinate with its velocity and acceleration symbols.
  struct Coordinate {
    Expr q, qd, qdd;
  };
  Coordinate coordinate(const std::string &name, int index);
  const SymbolInfo &symbolInfo(const Node *symbol) const { return symbols_[symbol->symbol]; }
  // Sets SymbolInfo::latex of a free symbol.
  void setLatex(const Expr &symbol, std::string latex) {
    symbols_[symbol->symbol].latex = std::move(latex);
  }
  // The time derivative of a symbol: q -> q', q' -> q'', t -> 1, others 0.
  Expr symbolDerivative(const Node *symbol);

  Expr add(const std::vector<Expr> &terms);
  Expr mul(const std::vector<Expr> &factors);
  // A node as another context made it, from its fields (symbolic/ExprCodec.h):
  // no canonicalisation, as the fields already are a canonical form.
  Expr restore(Kind kind, Fn fn, const Num &num, std::vector<const Node *> ops);
  Expr power(const Expr &base, const Expr &exponent);
  Expr function(Fn fn, const std::vector<Expr> &args);

  size_t nodeCount() const { return arena_.size(); }

  // A bound on the work of one computation on this context (a REPL
  // evaluation): past `maxNewNodes` new nodes, or when `stop` answers true
  // (polled every 1024 new nodes: Ctrl-C), the factories throw WorkStopped
  // before making the next node, so that a computation that would grow
  // without bound ends at once and the context stays whole. One at a time.
  class WorkLimit {
  public:
    WorkLimit(Context &context, size_t maxNewNodes, bool (*stop)());
    ~WorkLimit();
    WorkLimit(const WorkLimit &) = delete;
    WorkLimit &operator=(const WorkLimit &) = delete;

  private:
    Context &context_;
  };

private:
  friend Expr coefficientFree(const Expr &e);
  const Node *intern(Node &&candidate);
  Expr matrixFunction(Fn fn, const std::vector<Expr> &args);
  Expr functionNode(Fn fn, const std::vector<Expr> &args);
  Expr makeMul(const Num &coef, std::vector<std::pair<const Node *, const Node *>> factors);
  Expr scaled(const Num &coef, const Node *term);
  Expr primitive(const Node *sum, const Num &content);

  struct NodeHash {
    size_t operator()(const Node *n) const { return n->hash; }
  };
  struct NodeEqual {
    bool operator()(const Node *a, const Node *b) const;
  };

  std::deque<Node> arena_;
  std::unordered_set<const Node *, NodeHash, NodeEqual> table_;
  std::vector<SymbolInfo> symbols_;
  std::map<std::tuple<std::string, SymbolKind, int>, uint32_t> symbolIds_; // name, kind, order
  std::vector<const Node *> derivatives_; // by symbol id: d/dt of a coordinate symbol
  Expr zero_, one_, pi_, time_;
  // Set by a WorkLimit: the arena size that stops the work, and the poll.
  size_t workEnd_ = SIZE_MAX;
  bool (*workStop_)() = nullptr;
};

// What a WorkLimit throws: `interrupted` when its stop answered true, else
// the computation made more nodes than it allows.
struct WorkStopped {
  bool interrupted = false;
  size_t limit = 0;
};

// The coefficient and coefficient-free part of a term: 3*x*y -> (3, x*y).
std::pair<Num, Expr> splitCoefficient(const Expr &e);
Expr coefficientFree(const Expr &e);

} // namespace mech::sym
