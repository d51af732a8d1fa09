// The analyzer of one model, internal to compiler/sema (the public entry
// points are in Analyzer.h). It declares every name of the model, expanding
// for blocks and families, then checks each declaration's values. Its member
// functions are defined by concern, in the Analyze*.cpp file named beside each
// group below; Resolver.h resolves the expressions they hold.
#pragma once

#include "sema/Analyzer.h"
#include "sema/Resolver.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mech::sema {

// "x" or a family member "x[1, 2]", as messages and the model name them.
std::string memberName(const std::string &name, const std::vector<long> &indices);

// True when e names `name` anywhere (a declared index mentions a loop
// variable).
bool mentionsName(const ast::Expr &e, const std::string &name);

// A copy of an index expression, for a temporary ast::Index resolved in its
// place (init items and let targets keep theirs in the AST).
ast::ExprPtr cloneIndex(const ast::Expr &e);

// Names in a def outside a model must be its parameters, sum indices, defs
// or built-ins: checked once, since such a def is expanded only where called.
void checkLibraryDef(Diagnostics &diagnostics, const FileScope &scope, const ast::DefDecl &def);

// One declaration to check, with the loop indices it was expanded under.
struct Instance {
  const ast::Decl *decl;
  Bindings bindings;
  std::string name; // the declared name after expansion, if any
  int slot = -1;    // its entry (constraint index) where declared early
};

// A for block's variable or a let family's index, where it was introduced.
struct LoopVariable {
  std::string name;
  Location location;
};

class Analyzer {
public:
  Analyzer(Compilation &compilation, const LoadedFile &file, const ast::ModelDecl &modelDecl,
           const AnalysisOptions &options);

  // The passes over the model, in order (Analyzer.cpp).
  std::unique_ptr<CheckedModel> run();

private:
  // ---- names and scopes (AnalyzeNames.cpp) ---------------------------------
  Env baseEnv(const Bindings &bindings) const;
  bool reservedName(const std::string &name, Location loc);
  bool declareSymbol(const std::string &name, const std::vector<long> &indices, SymbolKind kind,
                     int index, Location loc);
  void declareModelDefs();
  void collectDeclaredNames(const std::vector<ast::Decl> &decls);
  static const ast::DeclName *declaredName(const ast::Decl &decl);
  void checkLoopVariables();

  // ---- params and coordinates (AnalyzeParamsAndCoords.cpp) -----------------
  void declareParams();
  void declareParam(const ast::ParamItem &item);
  void declareParamFamily(const ast::ParamItem &item);
  void declareParamMembers(const ast::ParamItem &item, long first, long last);
  void addParam(const ast::ParamItem &item, const std::string &name,
                const std::vector<long> &indices, const ExprRef &value, long ordinal, long count);
  void declareInput(const ast::InputItem &item);
  std::optional<double> paramValue(const ast::ParamItem &item, const std::string &name,
                                   const ExprRef &value);
  bool applyParamUnit(const ast::ParamItem &item, const ExprRef &value, double &number,
                      Param &param);
  void applyOverride(Param &param, long ordinal, long count);
  std::vector<const Param *> overrideTargets(const ParamOverride &override) const;
  bool familyOverridden(const std::string &family, long count) const;
  void applyOverrides();
  void declareCoord(const ast::CoordItem &item);

  // ---- tables (AnalyzeTables.cpp) -------------------------------------------
  void declareTables();
  void declareTable(const ast::TableDecl &decl, Location at);
  bool tableRows(const ast::TableDecl &decl, Table &table);
  bool tableRowsFromFile(const ast::TableDecl &decl, Table &table);
  bool tableRowsInline(const ast::TableDecl &decl, Table &table);
  bool addTableRow(const ast::TableDecl &decl, Table &table, const double (&row)[2],
                   const std::string &x, Location at);
  bool headerUnitsAgree(const ast::TableDecl &decl, const std::string &argument,
                        const std::string &value, Location at);

  // ---- declarations (AnalyzeDeclarations.cpp) -----------------------------
  void declare(const ast::Decl &decl, const Bindings &bindings,
               const std::vector<LoopVariable> &loops);
  bool declareNamed(const ast::DeclName &name, Instance &instance,
                    const std::vector<LoopVariable> &loops);
  void nameUnnamedConstraint(Instance &instance);
  static SymbolKind symbolKindOf(const ast::Decl &decl);
  int reserveSlot(const ast::Decl &decl);

  // ---- for blocks and families (AnalyzeFamilies.cpp) -----------------------
  bool carriesLoopIndices(const ast::DeclName &name, const std::vector<LoopVariable> &loops);
  std::optional<std::vector<long>> declaredIndices(const ast::DeclName &name,
                                                   const Bindings &bindings,
                                                   const std::vector<LoopVariable> &loops);
  std::optional<std::pair<long, long>> range(const ast::Range &r, const Bindings &bindings,
                                             Location where);
  std::optional<std::pair<long, long>> familyRange(const std::string &name, const ast::Range &r,
                                                   Location where);
  void declareFor(const ast::ForDecl &loop, const Bindings &bindings,
                  const std::vector<LoopVariable> &loops);
  void recordLoopVariable(const std::string &name, Location loc);

  // ---- lets (AnalyzeLets.cpp) ----------------------------------------------
  void declareLet(const ast::LetDecl &let, const Bindings &bindings,
                  const std::vector<LoopVariable> &loops);
  void declareLetFamily(const ast::LetDecl &let, const Bindings &bindings,
                        const std::vector<LoopVariable> &loops);

  // ---- what every checked value is held to (AnalyzeChecks.cpp) -------------
  void check(const Instance &instance);
  ExprRef resolve(const ast::Expr &e, const Instance &instance, bool allowMultipliers = false,
                  bool allowInputs = false);
  bool expectDimension(const ExprRef &value, const Location &loc, const std::string &what,
                       const Dimension &expected, const std::string &expectedName);
  bool expectShape(const ExprRef &value, const Location &loc, const std::string &what,
                   bool (*predicate)(const Shape &), const std::string &expected);
  bool expectOrder(const ExprRef &value, const Location &loc, const std::string &what,
                   int maxOrder);
  bool expectWork(const ExprRef &a, const ExprRef &b, const Location &loc, const std::string &what);
  static bool isScalar(const Shape &s) { return s.isScalar(); }
  static bool isVector(const Shape &s) { return s.isVector(); }
  static bool isPosition(const Shape &s) { return s.isScalar() || s.isVector(); }
  static bool is3Vector(const Shape &s) { return s.isVector() && s.rows == 3; }
  static bool is3x3(const Shape &s) { return s.isMatrix() && s.rows == 3 && s.cols == 3; }

  // The checks of each kind of declaration; kinds declared without a check
  // (params, coordinates, lets, defs, for blocks) have nothing more to do.
  template <typename T> void checkDecl(const T &, const Instance &) {}

  // ---- energies and forces (AnalyzeEnergiesAndForces.cpp) ------------------
  void checkDecl(const ast::EnergyDecl &e, const Instance &instance);
  void checkDecl(const ast::ForceDecl &f, const Instance &instance);
  void checkDecl(const ast::TorqueDecl &t, const Instance &instance);
  void checkDecl(const ast::GeneralizedDecl &g, const Instance &instance);
  void checkDecl(const ast::SpringDecl &s, const Instance &instance);

  // ---- particles, bodies and gravity (AnalyzeBodies.cpp) -------------------
  void checkDecl(const ast::ParticleDecl &p, const Instance &instance);
  void checkDecl(const ast::BodyDecl &b, const Instance &instance);
  void checkDecl(const ast::GravityDecl &g, const Instance &instance);
  void checkDecl(const ast::DrawDecl &d, const Instance &instance); // AnalyzeDrawings.cpp
  void checkGravityShapes();

  // ---- constraints and outputs (AnalyzeConstraints.cpp) --------------------
  void checkDecl(const ast::ConstraintDecl &c, const Instance &instance);
  void checkDecl(const ast::OutputDecl &o, const Instance &instance);
  void checkDecl(const ast::EventDecl &e, const Instance &instance);
  void checkDecl(const ast::ContactDecl &c, const Instance &instance);
  void checkDecl(const ast::FrictionDecl &f, const Instance &instance);
  std::string normalContact(const ast::FrictionDecl &f) const;
  void checkFrictionNormals();
  std::vector<Reset> checkResets(const ast::EventDecl &e, const Instance &instance);
  bool checkRestitution(const ExprRef &value, const Location &at, const std::string &what);

  // ---- initial values (AnalyzeInit.cpp) ------------------------------------
  void checkDecl(const ast::InitDecl &init, const Instance &instance);
  void checkInitItem(const ast::InitItem &item, const Instance &instance);
  ExprRef initTarget(const ast::InitItem &item, const Env &env, const char *sets);
  ExprRef coordinateNamed(const ast::InitItem &item, const Env &env);
  static DimInfo stateDimension(const Coord &coord, int order);

  Compilation &compilation_;
  Diagnostics &diagnostics_;
  const LoadedFile &file_;
  const ast::ModelDecl &modelDecl_;
  const AnalysisOptions &options_;
  std::unique_ptr<CheckedModel> model_;
  Resolver resolver_;
  FileScope modelScope_;
  std::vector<Instance> instances_;
  std::vector<LoopVariable> loopVariables_;
  int unnamedConstraints_ = 0;
  std::set<std::string> declaredNames_;
  std::vector<std::unique_ptr<ast::Unit>> convertedUnits_;
};

} // namespace mech::sema
