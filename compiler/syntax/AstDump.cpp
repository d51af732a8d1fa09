// Indented tree dump of the AST, one node per line.
#include "syntax/AstDump.h"

#include "syntax/Printer.h"

namespace mech {

using namespace ast;

namespace {

class Dumper {
public:
  explicit Dumper(bool withLocations) : withLocations_(withLocations) {}
  std::string out;

  void line(int depth, const std::string &text, const Location &loc) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    if (withLocations_ && loc.valid())
      out += " @" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    out += '\n';
  }

  void expr(const Expr &e, int depth, const std::string &role = "") {
    std::string head = role.empty() ? "" : role + ": ";
    head += exprKindName(e.kind);
    switch (e.kind) {
    case ExprKind::Number: {
      auto &n = static_cast<const Number &>(e);
      head += " " + n.text;
      if (n.unit)
        head += " [" + formatUnit(*n.unit) + "]";
      line(depth, head, e.location);
      return;
    }
    case ExprKind::Time:
    case ExprKind::Pi:
    case ExprKind::Colon:
      line(depth, head, e.location);
      return;
    case ExprKind::Name:
      line(depth, head + " " + static_cast<const Name &>(e).name, e.location);
      return;
    case ExprKind::Call: {
      auto &c = static_cast<const Call &>(e);
      line(depth, head + " " + c.callee, e.location);
      for (const ExprPtr &arg : c.args)
        expr(*arg, depth + 1);
      return;
    }
    case ExprKind::Compare: {
      auto &c = static_cast<const Compare &>(e);
      line(depth, head + " " + compareSpelling(c.op), e.location);
      expr(*c.lhs, depth + 1);
      expr(*c.rhs, depth + 1);
      return;
    }
    case ExprKind::Logic: {
      auto &l = static_cast<const Logic &>(e);
      line(depth,
           head + (l.op == Logic::Op::And  ? " and"
                   : l.op == Logic::Op::Or ? " or"
                                           : " not"),
           e.location);
      for (const ExprPtr &operand : l.operands)
        expr(*operand, depth + 1);
      return;
    }
    case ExprKind::SumOver: {
      auto &s = static_cast<const SumOver &>(e);
      line(depth, head + " " + s.function + " " + s.index, e.location);
      expr(*s.from, depth + 1, "from");
      expr(*s.to, depth + 1, "to");
      expr(*s.body, depth + 1, "body");
      return;
    }
    case ExprKind::Vector:
      line(depth, head, e.location);
      for (const ExprPtr &element : static_cast<const Vector &>(e).elements)
        expr(*element, depth + 1);
      return;
    case ExprKind::Add:
      line(depth, head, e.location);
      for (const Add::Term &term : static_cast<const Add &>(e).terms)
        expr(*term.value, depth + 1, term.negated ? "-" : "+");
      return;
    case ExprKind::Mul:
      line(depth, head, e.location);
      for (const Mul::Factor &factor : static_cast<const Mul &>(e).factors)
        expr(*factor.value, depth + 1, factor.divides ? "/" : "*");
      return;
    case ExprKind::Neg:
      line(depth, head, e.location);
      expr(*static_cast<const Neg &>(e).operand, depth + 1);
      return;
    case ExprKind::Pow: {
      auto &p = static_cast<const Pow &>(e);
      line(depth, head, e.location);
      expr(*p.base, depth + 1, "base");
      expr(*p.exponent, depth + 1, "exponent");
      return;
    }
    case ExprKind::Prime: {
      auto &p = static_cast<const Prime &>(e);
      line(depth, head + " order " + std::to_string(p.order), e.location);
      expr(*p.operand, depth + 1);
      return;
    }
    case ExprKind::Component: {
      auto &c = static_cast<const Component &>(e);
      line(depth, head + " ." + c.component, e.location);
      expr(*c.operand, depth + 1);
      return;
    }
    case ExprKind::Index: {
      auto &x = static_cast<const Index &>(e);
      line(depth, head, e.location);
      expr(*x.operand, depth + 1, "of");
      for (const ExprPtr &index : x.indices)
        expr(*index, depth + 1, "index");
      return;
    }
    }
  }

  void declName(const DeclName &n, int depth, const std::string &role) {
    line(depth, role + " " + n.name, n.location);
    for (const ExprPtr &index : n.indices)
      expr(*index, depth + 1, "index");
  }

  void unit(const std::optional<Unit> &u, int depth) {
    if (u)
      line(depth, "unit [" + formatUnit(*u) + "]", u->location);
  }

  void range(const Range &r, int depth) {
    expr(*r.from, depth, "from");
    expr(*r.to, depth, "to");
  }

  void def(const DefDecl &d, int depth) {
    std::string head = "Def " + d.name + "(";
    for (size_t i = 0; i < d.params.size(); ++i)
      head += (i > 0 ? ", " : "") + d.params[i];
    line(depth, head + ")", d.location);
    expr(*d.body, depth + 1);
  }

  void decl(const Decl &d, int depth) {
    const Location &loc = d.location;
    std::visit(
        [&](const auto &n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ParamDecl>) {
            for (const ParamItem &p : n.items) {
              line(depth, "Param " + p.name, p.location);
              if (p.familyIndex)
                line(depth + 1, "family index " + *p.familyIndex, p.familyIndexLocation);
              if (p.family)
                range(*p.family, depth + 1);
              unit(p.unit, depth + 1);
              expr(*p.value, depth + 1, "value");
            }
          } else if constexpr (std::is_same_v<T, InputDecl>) {
            for (const InputItem &u : n.items) {
              line(depth, "Input " + u.name, u.location);
              unit(u.unit, depth + 1);
            }
          } else if constexpr (std::is_same_v<T, CoordDecl>) {
            for (const CoordItem &q : n.items) {
              line(depth, "Coord " + q.name, q.location);
              if (q.family)
                range(*q.family, depth + 1);
              unit(q.unit, depth + 1);
            }
          } else if constexpr (std::is_same_v<T, LetDecl>) {
            declName(n.target, depth, "Let");
            if (n.family) {
              line(depth + 1, "family index " + *n.familyIndex, n.familyIndexLocation);
              range(*n.family, depth + 1);
            }
            unit(n.unit, depth + 1);
            expr(*n.value, depth + 1, "value");
          } else if constexpr (std::is_same_v<T, DefDecl>) {
            def(n, depth);
          } else if constexpr (std::is_same_v<T, EnergyDecl>) {
            const char *kind = n.kind == EnergyKind::Kinetic     ? "Kinetic"
                               : n.kind == EnergyKind::Potential ? "Potential"
                                                                 : "Dissipation";
            if (n.name)
              declName(*n.name, depth, kind);
            else
              line(depth, kind, loc);
            expr(*n.value, depth + 1, "value");
          } else if constexpr (std::is_same_v<T, ForceDecl>) {
            line(depth, "Force", loc);
            expr(*n.force, depth + 1, "force");
            expr(*n.point, depth + 1, "at");
          } else if constexpr (std::is_same_v<T, TorqueDecl>) {
            line(depth, "Torque", loc);
            expr(*n.moment, depth + 1, "moment");
            expr(*n.angle, depth + 1, "on");
          } else if constexpr (std::is_same_v<T, GeneralizedDecl>) {
            line(depth, "Generalized", loc);
            expr(*n.value, depth + 1, "value");
            expr(*n.coordinate, depth + 1, "on");
          } else if constexpr (std::is_same_v<T, ParticleDecl>) {
            declName(n.name, depth, "Particle");
            expr(*n.mass, depth + 1, "mass");
            expr(*n.position, depth + 1, "at");
          } else if constexpr (std::is_same_v<T, BodyDecl>) {
            declName(n.name, depth, n.kind == BodyKind::Planar ? "PlanarBody" : "SpatialBody");
            expr(*n.mass, depth + 1, "mass");
            expr(*n.position, depth + 1, "at");
            expr(*n.orientation, depth + 1, n.kind == BodyKind::Planar ? "angle" : "rotation");
            expr(*n.inertia, depth + 1, "inertia");
            if (n.about)
              expr(*n.about, depth + 1, "about");
          } else if constexpr (std::is_same_v<T, GravityDecl>) {
            line(depth, "Gravity", loc);
            expr(*n.acceleration, depth + 1);
          } else if constexpr (std::is_same_v<T, DrawDecl>) {
            line(depth, "Draw " + n.shape, loc);
            for (const ExprPtr &arg : n.args)
              expr(*arg, depth + 1);
          } else if constexpr (std::is_same_v<T, SpringDecl>) {
            line(depth, "Spring", loc);
            expr(*n.stiffness, depth + 1, "stiffness");
            expr(*n.from, depth + 1, "between");
            expr(*n.to, depth + 1, "and");
            if (n.rest)
              expr(*n.rest, depth + 1, "rest");
          } else if constexpr (std::is_same_v<T, ConstraintDecl>) {
            if (n.name)
              declName(*n.name, depth, "Constraint");
            else
              line(depth, "Constraint", loc);
            expr(*n.lhs, depth + 1, "lhs");
            expr(*n.rhs, depth + 1, "rhs");
          } else if constexpr (std::is_same_v<T, InitDecl>) {
            for (const InitItem &i : n.items) {
              line(depth, "Init " + i.name + std::string(static_cast<size_t>(i.primes), '\''),
                   i.location);
              for (const ExprPtr &index : i.indices)
                expr(*index, depth + 1, "index");
              expr(*i.value, depth + 1, "value");
            }
          } else if constexpr (std::is_same_v<T, OutputDecl>) {
            declName(n.name, depth, "Output");
            expr(*n.value, depth + 1, "value");
          } else if constexpr (std::is_same_v<T, EventDecl>) {
            declName(n.name, depth,
                     std::string("Event") + (n.stop ? " stop" : "") +
                         (n.direction == EventDirection::Up     ? " up"
                          : n.direction == EventDirection::Down ? " down"
                                                                : ""));
            expr(*n.lhs, depth + 1, "lhs");
            expr(*n.rhs, depth + 1, "rhs");
            for (const InitItem &i : n.resets) {
              line(depth + 1, "Reset " + i.name + std::string(static_cast<size_t>(i.primes), '\''),
                   i.location);
              for (const ExprPtr &index : i.indices)
                expr(*index, depth + 2, "index");
              expr(*i.value, depth + 2, "value");
            }
          } else if constexpr (std::is_same_v<T, ContactDecl>) {
            declName(n.name, depth, std::string("Contact ") + (n.atLeast ? ">=" : "<="));
            expr(*n.lhs, depth + 1, "lhs");
            expr(*n.rhs, depth + 1, "rhs");
            expr(*n.restitution, depth + 1, "restitution");
          } else if constexpr (std::is_same_v<T, FrictionDecl>) {
            declName(n.name, depth, "Friction");
            expr(*n.slip, depth + 1, "slip");
            expr(*n.normal, depth + 1, "normal");
            expr(*n.staticCoefficient, depth + 1, "static");
            if (n.kineticCoefficient)
              expr(*n.kineticCoefficient, depth + 1, "kinetic");
          } else if constexpr (std::is_same_v<T, TableDecl>) {
            line(depth,
                 "Table " + n.name + "(" + n.argument + ")" + (n.cubic ? " cubic" : " linear") +
                     (n.linearExtrapolation ? " extrapolate linear" : " extrapolate hold") +
                     (n.path ? " from \"" + *n.path + "\"" : ""),
                 loc);
            if (n.rows)
              expr(*n.rows, depth + 1, "rows");
          } else if constexpr (std::is_same_v<T, ForDecl>) {
            line(depth, "For " + n.index, loc);
            range(n.range, depth + 1);
            for (const Decl &inner : n.body)
              decl(inner, depth + 1);
          }
        },
        d.node);
  }

private:
  bool withLocations_;
};

} // namespace

std::string dumpAst(const File &file, bool withLocations) {
  Dumper dumper(withLocations);
  dumper.line(0, "File", {});
  for (const TopItem &item : file.items) {
    if (auto *import = std::get_if<ImportDecl>(&item.node)) {
      dumper.line(
          1, "Import \"" + import->path + "\"" + (import->alias ? " as " + *import->alias : ""),
          import->location);
    } else if (auto *def = std::get_if<DefDecl>(&item.node)) {
      dumper.def(*def, 1);
    } else if (auto *model = std::get_if<ModelDecl>(&item.node)) {
      dumper.line(1, "Model " + model->name, model->location);
      for (const Decl &d : model->body)
        dumper.decl(d, 2);
    }
  }
  return dumper.out;
}

std::string dumpExpr(const Expr &expr, bool withLocations) {
  Dumper dumper(withLocations);
  dumper.expr(expr, 0);
  return dumper.out;
}

} // namespace mech
