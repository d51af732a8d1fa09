// The IR printer. Precedence follows the grammar so that printed expressions
// read back as the same value; output is capped so that a pathological DAG
// cannot produce gigabytes of text.
#include "sema/ModelPrinter.h"

#include "support/Diagnostics.h"

#include <charconv>
#include <cstdio>

namespace mech::sema {

namespace {

constexpr size_t kMaxPrintedLength = 200'000;

enum Level { kSum = 1, kProduct = 2, kSigned = 3, kPower = 4, kPostfix = 5 };

bool isReciprocal(const Node &e) {
  return e.kind == ExprKind::Pow && e.children[1]->kind == ExprKind::Number &&
         e.children[1]->value == -1;
}

class Printer {
public:
  explicit Printer(const CheckedModel &model) : model_(model) {}
  std::string out;

  void print(const Node &e, int level) {
    if (out.size() > kMaxPrintedLength) {
      if (!truncated_)
        out += " ...";
      truncated_ = true;
      return;
    }
    bool parens = levelOf(e) < level;
    if (parens)
      out += '(';
    bare(e);
    if (parens)
      out += ')';
  }

private:
  static int levelOf(const Node &e) {
    switch (e.kind) {
    case ExprKind::Add:
      return kSum;
    case ExprKind::Mul:
      return kProduct;
    case ExprKind::Neg:
      return kSigned;
    case ExprKind::Pow:
      return kPower;
    case ExprKind::Number:
      return e.value < 0 ? kSigned : kPostfix;
    default:
      return kPostfix;
    }
  }

  void list(const std::vector<ExprRef> &items, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (i > begin)
        out += ", ";
      print(*items[i], kSum);
    }
  }

  void bare(const Node &e) {
    switch (e.kind) {
    case ExprKind::Number:
      out += e.exact && !e.exact->isInteger()
                 ? std::to_string(e.exact->num()) + "/" + std::to_string(e.exact->den())
                 : formatNumber(e.value);
      return;
    case ExprKind::Pi:
      out += "pi";
      return;
    case ExprKind::Time:
      out += "t";
      return;
    case ExprKind::Param:
      out += model_.params[static_cast<size_t>(e.index)].name;
      return;
    case ExprKind::Coord:
      out += model_.coords[static_cast<size_t>(e.index)].name;
      return;
    case ExprKind::Let:
      out += model_.lets[static_cast<size_t>(e.index)].name;
      return;
    case ExprKind::Multiplier:
      out += model_.constraints[static_cast<size_t>(e.index)].name;
      return;
    case ExprKind::Neg:
      out += '-';
      print(*e.children[0], kPower);
      return;
    case ExprKind::Add:
      for (size_t i = 0; i < e.children.size(); ++i) {
        const Node &term = *e.children[i];
        if (i > 0 && term.kind == ExprKind::Neg) {
          out += " - ";
          print(*term.children[0], kProduct);
          continue;
        }
        if (i > 0)
          out += " + ";
        print(term, kProduct);
      }
      return;
    case ExprKind::Mul:
      for (size_t i = 0; i < e.children.size(); ++i) {
        const Node &factor = *e.children[i];
        if (i > 0 && isReciprocal(factor)) {
          out += " / ";
          print(*factor.children[0], kSigned + 1);
          continue;
        }
        if (i > 0)
          out += " * ";
        print(factor, kSigned);
      }
      return;
    case ExprKind::Pow:
      print(*e.children[0], kPostfix);
      out += '^';
      print(*e.children[1], kPostfix);
      return;
    case ExprKind::Call:
      out += builtinName(e.builtin);
      out += '(';
      list(e.children, 0, e.children.size());
      out += ')';
      return;
    case ExprKind::Vector:
      out += '[';
      list(e.children, 0, e.children.size());
      out += ']';
      return;
    case ExprKind::Matrix: {
      out += '[';
      size_t cols = static_cast<size_t>(e.shape.cols);
      for (size_t r = 0; r < static_cast<size_t>(e.shape.rows); ++r) {
        out += r > 0 ? ", [" : "[";
        list(e.children, r * cols, (r + 1) * cols);
        out += ']';
      }
      out += ']';
      return;
    }
    case ExprKind::Component: {
      // .x, .y, .z of a 2- or 3-vector; otherwise the entry counted from 1.
      const Shape &of = e.children[0]->shape;
      print(*e.children[0], kPostfix);
      if (of.isMatrix())
        out += "[" + std::to_string(e.index / of.cols + 1) + ", " +
               std::to_string(e.index % of.cols + 1) + "]";
      else if (of.rows <= 3)
        out += e.index == 0 ? ".x" : e.index == 1 ? ".y" : ".z";
      else
        out += "[" + std::to_string(e.index + 1) + "]";
      return;
    }
    case ExprKind::Derivative:
      print(*e.children[0], kPostfix);
      out += '\'';
      return;
    case ExprKind::TableCall:
      out += model_.tables[static_cast<size_t>(e.index)].name + "(";
      print(*e.children[0], 0);
      out += ')';
      return;
    case ExprKind::Compare: {
      static const char *ops[] = {" < ", " <= ", " > ", " >= "};
      print(*e.children[0], 0);
      out += ops[e.index];
      print(*e.children[1], 0);
      return;
    }
    case ExprKind::Logic:
      for (size_t i = 0; i < e.children.size(); ++i) {
        out += e.index == 2 ? "not " : i == 0 ? "" : e.index == 0 ? " and " : " or ";
        out += '(';
        print(*e.children[i], 0);
        out += ')';
      }
      return;
    }
    internalError("unhandled IR kind in printer");
  }

  const CheckedModel &model_;
  bool truncated_ = false;
};

// The dump keeps values in SI: a declared unit that is SI (N/m, 1/s) is
// shown as written, one that rescales (g, deg) after the base units.
std::string unitSuffix(const std::optional<DeclaredUnit> &declared, const DimInfo &dim) {
  bool coherent = declared && declared->scale == 1;
  std::string unit = unitOf(coherent ? declared : std::nullopt, dim);
  return unit.empty() ? "" : " [" + unit + "]";
}

std::string declaredNote(const std::optional<DeclaredUnit> &declared, const char *lead) {
  return declared && declared->scale != 1 ? lead + ("declared [" + declared->text + "]") : "";
}

std::string comment(const DimInfo &dim) {
  return dim.isKnown() ? "  # " + dim.dimension.toString() : "";
}

} // namespace

std::string unitOf(const std::optional<DeclaredUnit> &declared, const DimInfo &dim) {
  if (declared)
    return declared->text;
  return dim.isKnown() ? dim.dimension.toString() : "";
}

std::string valueIn(double si, const std::optional<DeclaredUnit> &declared) {
  if (!declared || declared->scale == 1)
    return formatNumber(si);
  return mech::formatNumber(si / declared->scale, 15);
}

std::string printExpr(const CheckedModel &model, const ExprRef &expr) {
  if (!expr)
    return "<error>";
  Printer printer(model);
  printer.print(*expr, kSum);
  return printer.out;
}

std::string dumpModel(const CheckedModel &model) {
  std::string out = "model " + model.name + "\n";
  auto line = [&](const std::string &text) { out += "  " + text + "\n"; };
  auto expr = [&](const ExprRef &e) { return printExpr(model, e); };
  for (const Param &p : model.params)
    if (p.input)
      line("input " + p.name + unitSuffix(p.unit, p.dim) + declaredNote(p.unit, "  # "));
    else
      line("param " + p.name + " = " + formatNumber(p.value) + unitSuffix(p.unit, p.dim) +
           declaredNote(p.unit, "  # ") + (p.structural ? "  # structural" : "") +
           (p.overridden ? "  # set" : ""));
  for (const Coord &q : model.coords)
    line("coord " + q.name + unitSuffix(q.unit, q.dim));
  for (const Let &l : model.lets)
    if (!l.output)
      line("let " + l.name + " = " + expr(l.value) +
           (l.value ? "  # " + l.value->shape.toString() + unitSuffix(l.unit, l.value->dim) +
                          declaredNote(l.unit, ", ")
                    : ""));
  auto terms = [&](const char *keyword, const std::vector<Term> &list) {
    for (const Term &t : list)
      line(std::string(keyword) + " " + (t.name.empty() ? "" : t.name + " = ") + expr(t.value) +
           comment(t.value->dim));
  };
  terms("kinetic", model.kinetic);
  terms("potential", model.potential);
  terms("dissipation", model.dissipation);
  for (const PointForce &f : model.forces)
    line("force " + expr(f.force) + " at " + expr(f.point));
  for (const Torque &t : model.torques)
    line("torque " + expr(t.moment) + " on " + expr(t.angle));
  for (const GeneralizedForce &g : model.generalized)
    line("generalized " + expr(g.value) + " on " + model.coords[static_cast<size_t>(g.coord)].name);
  for (const Particle &p : model.particles)
    line("particle " + p.name + " mass " + expr(p.mass) + " at " + expr(p.position));
  for (const Body &b : model.bodies)
    line("body " + b.name + " mass " + expr(b.mass) + " at " + expr(b.position) +
         (b.planar ? " angle " : " rotation ") + expr(b.orientation) + " inertia " +
         expr(b.inertia) + (b.about ? " about " + expr(b.about) : ""));
  for (const Gravity &g : model.gravity)
    line("gravity " + expr(g.acceleration));
  for (const Spring &s : model.springs)
    line("spring " + expr(s.stiffness) + " between " + expr(s.from) + " and " + expr(s.to) +
         " rest " + expr(s.rest));
  for (const Constraint &c : model.constraints)
    line("constraint " + c.name + ": " + expr(c.lhs) + " == " + expr(c.rhs) + "  # multiplier" +
         (c.multiplierDim.isKnown() ? " [" + c.multiplierDim.dimension.toString() + "]"
                                    : " unchecked"));
  for (const Initial &i : model.initial)
    line("init " + model.coords[static_cast<size_t>(i.coord)].name +
         std::string(static_cast<size_t>(i.order), '\'') + " = " + formatNumber(i.value));
  for (const Output &o : model.outputs)
    line("output " + o.name + " = " + expr(o.value) + comment(o.value->dim));
  for (const Drawing &d : model.drawings) {
    std::string args;
    for (const ExprRef &a : d.args)
      args += (args.empty() ? "" : ", ") + expr(a);
    line("draw " + d.shape + "(" + args + ")");
  }
  return out;
}

std::string summarizeModel(const CheckedModel &model) {
  auto count = [](size_t n, const char *singular, const char *plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
  };
  std::string coords;
  size_t shown = 0;
  for (const Coord &q : model.coords) {
    if (shown == 6) {
      coords += ", ...";
      break;
    }
    coords += (shown++ > 0 ? ", " : "") + q.name;
  }
  std::string text = model.name + ": " + count(model.coords.size(), "coordinate", "coordinates");
  if (!coords.empty())
    text += " (" + coords + ")";
  size_t inputs = model.inputCount();
  text += ", " + count(model.params.size() - inputs, "parameter", "parameters");
  if (inputs > 0)
    text += ", " + count(inputs, "input", "inputs");
  text += ", " + count(model.constraints.size(), "constraint", "constraints");
  text += ", " + count(model.particles.size() + model.bodies.size(), "body", "bodies");
  return text;
}

} // namespace mech::sema
