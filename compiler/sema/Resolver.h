// Resolves AST expressions into the checked IR: names looked up, for/sum
// indices and def calls expanded, units converted to SI, and shapes and
// dimensions inferred and checked. Errors are reported and yield null.
// Resolver.cpp holds the dispatch over expression kinds; the rules live in
// Resolve*.cpp, one file per concern, as grouped in the private section below.
#pragma once

#include "sema/Model.h"
#include "sema/Scope.h"
#include "support/Diagnostics.h"

#include <map>
#include <optional>
#include <set>

namespace mech::sema {

// The largest model accepted after expansion, in IR nodes, and the largest
// range of one index.
inline constexpr long kMaxNodes = 2'000'000;
inline constexpr long kMaxRange = 100'000;
// The deepest chain of lets defined through lets, or defs calling defs.
inline constexpr int kMaxDefinitionNesting = 256;
// The largest expression as a tree (Node::treeSize): defs that call one
// another twice over double it with each level of nesting.
inline constexpr double kMaxTreeSize = 1 << 24;

// Thrown when expansion exceeds kMaxNodes, or an expression's tree
// kMaxTreeSize (`tree`); analysis stops with a diagnostic.
struct ExpansionLimit {
  bool tree = false;
  Location at; // the expression, for `tree`
};

// The value of a scalar expression of numbers, pi and the model's params
// (and of t, when `time` is given); nullopt for anything else.
std::optional<double> evaluateScalar(const CheckedModel &model, const ExprRef &e,
                                     std::optional<double> time);

struct Env {
  Bindings indices;                                  // loop and sum variables
  std::vector<std::pair<std::string, ExprRef>> args; // def parameters
  const FileScope *defs = nullptr;
  bool modelNames = true;
  bool allowMultipliers = false;
  bool allowInputs = false; // forces, torques, generalized forces, outputs, lets
  // t as a plain number of seconds, as the command line gives times
  // (`--input "u = sin(2*t)"` needs no unit on 2).
  bool plainTime = false;
  // The declaration whose value is being resolved, for hints on misplaced units.
  std::string declaringKeyword; // "param" or "let"
  std::string declaringName;
  const ast::Expr *declaringValue = nullptr;
};

class Resolver {
public:
  Resolver(CheckedModel &model, Diagnostics &diagnostics);

  std::map<std::string, Symbol> symbols;

  ExprRef resolve(const ast::Expr &expr, const Env &env);
  // Resolves and evaluates an integer-valued constant (ranges, indices);
  // marks the params it uses as structural (ResolveConstants.cpp).
  std::optional<long> resolveInteger(const ast::Expr &expr, const Env &env, const char *what);
  // Evaluates a scalar constant (no coordinates, no t); nullopt otherwise.
  std::optional<double> evaluateConstant(const ExprRef &expr);

  // Lazily resolved lets: registered when declared, resolved on first use
  // (ResolveDefinitions.cpp).
  // An output's let (`output`) is resolved as outputs are: multipliers and
  // inputs allowed.
  int declareLet(std::string name, Location location, const ast::Expr *value, const ast::Unit *unit,
                 Bindings bindings, const FileScope *defs, bool output = false);
  ExprRef letReference(int index, Location use);
  void resolveAllLets();

  ExprRef number(double value, std::optional<Rational> exact, Location loc);
  ExprRef make(ExprKind kind, Shape shape, DimInfo dim, Location loc,
               std::vector<ExprRef> children);

  // The dimension of a value of the given dimension summed with another;
  // reports a mismatch and returns nullopt (ResolveUnits.cpp).
  std::optional<DimInfo> sumDimension(const DimInfo &a, const DimInfo &b, Location loc,
                                      const std::string &context, bool plural = false);
  static DimInfo productDimension(const DimInfo &a, const DimInfo &b);

  Diagnostics &diagnostics() { return diagnostics_; }
  CheckedModel &model() { return model_; }

  // "did you mean" for an unknown name, from the names in scope
  // (ResolveNames.cpp).
  std::string suggestion(const std::string &name, const Env &env) const;
  // The same among the functions: built-ins, sum and the defs in scope.
  std::string functionSuggestion(const std::string &name, const Env &env) const;

private:
  // Names and scopes (ResolveNames.cpp).
  ExprRef resolveName(const ast::Name &name, const Env &env);
  ExprRef resolveSymbol(const ast::Name &name, const Symbol &symbol, const Env &env);
  ExprRef familyVector(const ast::Name &name, const Symbol &symbol, const Env &env);
  ExprRef allowedInput(ExprRef value, const std::string &name, const Env &env);
  bool outputAllowed(const std::string &name, Location loc, const Env &env);
  ExprRef resolveCall(const ast::Call &call, const Env &env);
  ExprRef reference(SymbolKind kind, int index, Location loc);
  void checkShadowing(const std::string &name, Location loc, const Env &env);

  // Indexed families and sums (ResolveFamilies.cpp).
  ExprRef resolveIndex(const ast::Index &index, const Env &env);
  const Symbol *indexedSymbol(const ast::Name *base, const Env &env) const;
  void reportNotAFamily(const ast::Index &index, const ast::Name *base, const Symbol *symbol,
                        const Env &env);
  std::optional<std::vector<long>> resolveIndices(const ast::Index &index, const Env &env);
  // Entries, rows and columns of vectors and matrices (ResolveEntries.cpp).
  ExprRef resolveEntry(const ast::Index &index, const Env &env);
  std::optional<long> entryIndex(const ast::Index &index, size_t which, long size, const Env &env,
                                 const Shape &shape);
  ExprRef entry(const ExprRef &value, int flat, Location loc);
  bool namesInScope(const ast::Expr &e, const Env &env) const;
  // omega(R) and omega_body(R) (ResolveFrames.cpp).
  ExprRef resolveAngularVelocity(const ast::Call &call, std::vector<ExprRef> args);
  bool checkRotationArgument(const ast::Call &call, const std::vector<ExprRef> &args);
  ExprRef resolveSum(const ast::SumOver &sum, const Env &env);

  // if's condition (ResolveConditions.cpp): scalars of one dimension
  // compared, joined by `and`, `or` and `not`.
  ExprRef resolveComparison(const ast::Compare &compare, const Env &env);
  ExprRef resolveLogic(const ast::Logic &logic, const Env &env);
  // A table's value at its one scalar argument (ResolveConditions.cpp).
  ExprRef resolveTableCall(const ast::Call &call, int table, std::vector<ExprRef> args);

  // Built-in functions (ResolveBuiltins.cpp).
  ExprRef resolveBuiltin(Builtin builtin, const ast::Call &call, std::vector<ExprRef> args);

  // Lets and defs, expanded where used (ResolveDefinitions.cpp).
  ExprRef expandDef(const DefEntry &def, const ast::Call &call, std::vector<ExprRef> args);
  bool resolvePendingLet(size_t let, Location use);
  bool enterDefinition(Location use);

  // Units written in the source (ResolveUnits.cpp).
  ExprRef resolveNumber(const ast::Number &number);
  ExprRef applyLetUnit(size_t let, ExprRef value, std::optional<DeclaredUnit> &declared);
  void reportMisplacedUnit(const ast::Index &index, const Env &env);

  // Operators: + - * / ^, vectors and matrices, components, derivatives
  // (ResolveOperators.cpp).
  ExprRef resolveVector(const ast::Vector &vector, const Env &env);
  ExprRef resolveMatrix(const ast::Vector &vector, const std::vector<ExprRef> &elements,
                        DimInfo dim);
  ExprRef resolveAdd(const ast::Add &add, const Env &env);
  ExprRef resolveMul(const ast::Mul &mul, const Env &env);
  ExprRef resolvePow(const ast::Pow &pow, const Env &env);
  ExprRef resolvePrime(const ast::Prime &prime, const Env &env);
  ExprRef resolveComponent(const ast::Component &component, const Env &env);

  struct PendingLet {
    const ast::Expr *value = nullptr;
    const ast::Unit *unit = nullptr;
    Bindings bindings;
    const FileScope *defs = nullptr;
    enum State { Pending, Resolving, Done } state = Pending;
  };

  CheckedModel &model_;
  Diagnostics &diagnostics_;
  std::vector<PendingLet> pendingLets_;
  std::vector<const ast::DefDecl *> defStack_;
  // Expansions of def calls by (def, argument nodes); the arguments are kept
  // alive with the result so the pointers in the key stay valid.
  std::map<std::pair<const ast::DefDecl *, std::vector<const Node *>>,
           std::pair<std::vector<ExprRef>, ExprRef>>
      defCache_;
  long nodeCount_ = 0;
  int nesting_ = 0; // lets being resolved and defs being expanded, innermost last
  bool nestingReported_ = false;
};

} // namespace mech::sema
