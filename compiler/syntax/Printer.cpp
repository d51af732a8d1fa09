// The canonical .mech printer. Precedence levels mirror the grammar, so that
// parse(print(ast)) rebuilds the same tree.
//
// A matrix literal (a vector whose elements are all vector literals) whose
// rows the source wrote on different lines keeps one row per line, each row
// aligned one column right of the matrix's opening '[', the closing ']' right
// after the last row:
//
//   let M = [[1, 0, 0],
//            [0, 1, 0],
//            [0, 0, 1]]
//
// A matrix written on one line stays on one line, and since the printed rows
// start on different lines, printing the result again gives the same text.
// Only declarations are laid out so: formatExpr always prints one line, as
// diagnostics quote it and sema makes names of it.
#include "syntax/Printer.h"

#include "support/Diagnostics.h"

#include <vector>

namespace mech {

using namespace ast;

namespace {

// Binding strength of each expression, loosest first: the conditions of
// if(cond, a, b), then the values.
enum Level {
  kOr = -3,
  kAnd = -2,
  kNot = -1,
  kCompare = 0,
  kSum = 1,
  kProduct = 2,
  kSigned = 3,
  kPower = 4,
  kPostfix = 5
};

// Marks left in a declaration's text by an ExprPrinter that lays out
// matrices, replaced by laidOut once the whole line, and so the column of each
// matrix's '[', is known.
constexpr char kMatrixOpen = '\x01';  // before a laid-out matrix's '['
constexpr char kRowBreak = '\x02';    // between two of its rows
constexpr char kMatrixClose = '\x03'; // after its ']'

// The declaration text with its marks replaced: each row break becomes a new
// line indented one column right of its matrix's '['.
std::string laidOut(const std::string &text) {
  std::string out;
  std::vector<size_t> opens; // the column of each enclosing laid-out '['
  size_t column = 0;
  for (char c : text) {
    if (c == kMatrixOpen) {
      opens.push_back(column);
    } else if (c == kMatrixClose) {
      opens.pop_back();
    } else if (c == kRowBreak) {
      column = opens.back() + 1;
      out += '\n';
      out.append(column, ' ');
    } else {
      out += c;
      // Columns count characters: a name such as θ1 takes one column a letter.
      if (c == '\n')
        column = 0;
      else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
        ++column;
    }
  }
  return out;
}

// Whether v is a matrix literal whose rows the source wrote on different
// lines (never for a tree built without source lines).
bool writtenOnSeveralLines(const Vector &v) {
  if (v.elements.size() < 2)
    return false;
  for (const ExprPtr &row : v.elements)
    if (row->kind != ExprKind::Vector)
      return false;
  for (size_t i = 1; i < v.elements.size(); ++i)
    if (v.elements[i]->location.line != v.elements[i - 1]->location.line)
      return true;
  return false;
}

int levelOf(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Logic: {
    Logic::Op op = static_cast<const Logic &>(e).op;
    return op == Logic::Op::Or ? kOr : op == Logic::Op::And ? kAnd : kNot;
  }
  case ExprKind::Compare:
    return kCompare;
  case ExprKind::Add:
    return kSum;
  case ExprKind::Mul:
    return kProduct;
  case ExprKind::Neg:
    return kSigned;
  case ExprKind::Pow:
    return kPower;
  default:
    return kPostfix;
  }
}

class ExprPrinter {
public:
  std::string out;
  // Whether matrices written on several lines keep their rows apart (with
  // the marks that laidOut resolves).
  bool layOutMatrices = false;

  // Prints e so that it parses back at (at least) the given level.
  void print(const Expr &e, int level) {
    bool parens = levelOf(e) < level;
    if (parens)
      out += '(';
    printBare(e);
    if (parens)
      out += ')';
  }

private:
  void printAtom(const Expr &e, bool forceParens) {
    if (!forceParens) {
      print(e, kPostfix);
      return;
    }
    out += '(';
    printBare(e);
    out += ')';
  }

  void list(const std::vector<ExprPtr> &items) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0)
        out += ", ";
      print(*items[i], kSum);
    }
  }

  void printBare(const Expr &e) {
    switch (e.kind) {
    case ExprKind::Number:
      printNumber(static_cast<const Number &>(e));
      return;
    case ExprKind::Time:
      out += 't';
      return;
    case ExprKind::Pi:
      out += "pi";
      return;
    case ExprKind::Colon:
      out += ':';
      return;
    case ExprKind::Name:
      out += static_cast<const Name &>(e).name;
      return;
    case ExprKind::Call: {
      auto &c = static_cast<const Call &>(e);
      out += c.callee + "(";
      if (c.callee == "if" && !c.args.empty()) { // its condition, then the values
        print(*c.args[0], kOr);
        for (size_t i = 1; i < c.args.size(); ++i)
          out += ", ", print(*c.args[i], kSum);
      } else {
        list(c.args);
      }
      out += ')';
      return;
    }
    case ExprKind::Compare: {
      auto &c = static_cast<const Compare &>(e);
      print(*c.lhs, kSum);
      out += std::string(" ") + compareSpelling(c.op) + " ";
      print(*c.rhs, kSum);
      return;
    }
    case ExprKind::Logic:
      printLogic(static_cast<const Logic &>(e));
      return;
    case ExprKind::SumOver:
      printSumOver(static_cast<const SumOver &>(e));
      return;
    case ExprKind::Vector:
      printVector(static_cast<const Vector &>(e));
      return;
    case ExprKind::Add:
      printSum(static_cast<const Add &>(e));
      return;
    case ExprKind::Mul:
      printProduct(static_cast<const Mul &>(e));
      return;
    case ExprKind::Neg:
      out += '-';
      print(*static_cast<const Neg &>(e).operand, kPower);
      return;
    case ExprKind::Pow:
      printPower(static_cast<const Pow &>(e));
      return;
    case ExprKind::Prime:
    case ExprKind::Component:
    case ExprKind::Index:
      printPostfix(e);
      return;
    }
    internalError("unhandled expression kind in printer");
  }

  void printLogic(const Logic &l) {
    if (l.op == Logic::Op::Not) {
      out += "not ";
      print(*l.operands[0], kNot);
      return;
    }
    const int inner = l.op == Logic::Op::Or ? kAnd : kNot;
    for (size_t i = 0; i < l.operands.size(); ++i) {
      if (i > 0)
        out += l.op == Logic::Op::Or ? " or " : " and ";
      print(*l.operands[i], inner);
    }
  }

  void printVector(const Vector &v) {
    if (!layOutMatrices || !writtenOnSeveralLines(v)) {
      out += '[';
      list(v.elements);
      out += ']';
      return;
    }
    out += kMatrixOpen;
    out += '[';
    for (size_t i = 0; i < v.elements.size(); ++i) {
      if (i > 0)
        out += {',', kRowBreak};
      print(*v.elements[i], kSum);
    }
    out += ']';
    out += kMatrixClose;
  }

  void printNumber(const Number &n) {
    out += n.text;
    if (n.unit)
      out += " [" + formatUnit(*n.unit) + "]";
  }

  void printSumOver(const SumOver &s) {
    out += s.function + "(" + s.index + " in ";
    print(*s.from, kSum);
    out += "..";
    print(*s.to, kSum);
    out += ", ";
    print(*s.body, kSum);
    out += ')';
  }

  // Terms print at product level, so that a nested sum keeps its
  // parentheses and parses back as the same tree.
  void printSum(const Add &a) {
    for (size_t i = 0; i < a.terms.size(); ++i) {
      if (i > 0)
        out += a.terms[i].negated ? " - " : " + ";
      print(*a.terms[i].value, kProduct);
    }
  }

  void printProduct(const Mul &m) {
    for (size_t i = 0; i < m.factors.size(); ++i) {
      if (i > 0)
        out += m.factors[i].divides ? " / " : " * ";
      print(*m.factors[i].value, kSigned);
    }
  }

  void printPower(const Pow &p) {
    print(*p.base, kPostfix);
    out += '^';
    // The exponent may carry its own sign and is right-associative.
    const Expr *exponent = p.exponent.get();
    if (exponent->kind == ExprKind::Neg) {
      out += '-';
      exponent = static_cast<const Neg *>(exponent)->operand.get();
    }
    print(*exponent, kPower);
  }

  // x', x.c and x[i]: each guards its operand against reading back as a
  // different token sequence.
  void printPostfix(const Expr &e) {
    if (e.kind == ExprKind::Prime) {
      auto &p = static_cast<const Prime &>(e);
      // (x')' must not read back as x'': keep the inner derivative apart.
      printAtom(*p.operand, p.operand->kind == ExprKind::Prime);
      out.append(static_cast<size_t>(p.order), '\'');
    } else if (e.kind == ExprKind::Component) {
      auto &c = static_cast<const Component &>(e);
      // (2).x: a number followed by '.' would read as a malformed number.
      printAtom(*c.operand, c.operand->kind == ExprKind::Number);
      out += "." + c.component;
    } else {
      auto &x = static_cast<const Index &>(e);
      // (2)[m]: a bracket right after a number would read as its unit.
      printAtom(*x.operand, x.operand->kind == ExprKind::Number);
      out += '[';
      list(x.indices);
      out += ']';
    }
  }
};

// An expression inside a declaration: matrices laid out, with marks that
// laidOut resolves once the declaration's line is whole.
std::string exprText(const Expr &e) {
  ExprPrinter printer;
  printer.layOutMatrices = true;
  printer.print(e, kSum);
  return printer.out;
}

std::string indices(const std::vector<ExprPtr> &items) {
  if (items.empty())
    return "";
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i > 0 ? ", " : "") + exprText(*items[i]);
  return out + "]";
}

std::string declName(const DeclName &name) {
  return name.name + indices(name.indices);
}

std::string range(const Range &r) {
  return exprText(*r.from) + ".." + exprText(*r.to);
}

std::string unitSuffix(const std::optional<Unit> &unit) {
  return unit ? " [" + formatUnit(*unit) + "]" : "";
}

std::string defText(const DefDecl &d) {
  std::string out = "def " + d.name + "(";
  for (size_t i = 0; i < d.params.size(); ++i)
    out += (i > 0 ? ", " : "") + d.params[i];
  return out + ") = " + exprText(*d.body);
}

// The declarations with item lists, kept out of DeclPrinter::line.
std::string paramText(const ParamDecl &d) {
  std::string s = "param ";
  for (size_t i = 0; i < d.items.size(); ++i) {
    const ParamItem &p = d.items[i];
    s += (i > 0 ? ", " : "") + p.name;
    if (p.family)
      s += "[" + (p.familyIndex ? *p.familyIndex + " in " : std::string()) + range(*p.family) + "]";
    s += unitSuffix(p.unit) + " = " + exprText(*p.value);
  }
  return s;
}

std::string inputText(const InputDecl &d) {
  std::string s = "input ";
  for (size_t i = 0; i < d.items.size(); ++i)
    s += (i > 0 ? ", " : "") + d.items[i].name + unitSuffix(d.items[i].unit);
  return s;
}

std::string coordText(const CoordDecl &d) {
  std::string s = "coord ";
  for (size_t i = 0; i < d.items.size(); ++i) {
    const CoordItem &q = d.items[i];
    s += (i > 0 ? ", " : "") + q.name;
    if (q.family)
      s += "[" + range(*q.family) + "]";
    s += unitSuffix(q.unit);
  }
  return s;
}

std::string assignmentsText(const std::vector<InitItem> &items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    const InitItem &q = items[i];
    s += (i > 0 ? ", " : "") + q.name + indices(q.indices) +
         std::string(static_cast<size_t>(q.primes), '\'') + " = " + exprText(*q.value);
  }
  return s;
}

std::string initText(const InitDecl &d) {
  return "init " + assignmentsText(d.items);
}

std::string eventText(const EventDecl &d) {
  std::string s = "event " + declName(d.name) + ": " + exprText(*d.lhs) + " == " + exprText(*d.rhs);
  if (d.direction != EventDirection::Either)
    s += d.direction == EventDirection::Up ? " direction up" : " direction down";
  if (d.stop)
    s += " stop";
  if (!d.resets.empty())
    s += " then " + assignmentsText(d.resets);
  return s;
}

std::string contactText(const ContactDecl &d) {
  return "contact " + declName(d.name) + ": " + exprText(*d.lhs) + (d.atLeast ? " >= " : " <= ") +
         exprText(*d.rhs) + " restitution " + exprText(*d.restitution);
}

std::string frictionText(const FrictionDecl &d) {
  std::string s = "friction " + declName(d.name) + ": slip " + exprText(*d.slip) + " normal " +
                  exprText(*d.normal) + " static " + exprText(*d.staticCoefficient);
  if (d.kineticCoefficient)
    s += " kinetic " + exprText(*d.kineticCoefficient);
  return s;
}

std::string tableText(const TableDecl &d) {
  std::string s = "table " + d.name + "(" + d.argument;
  if (d.argumentUnit)
    s += " [" + formatUnit(*d.argumentUnit) + "]";
  s += ")";
  if (d.unit)
    s += " [" + formatUnit(*d.unit) + "]";
  s += d.path ? " from \"" + *d.path + "\"" : " = " + exprText(*d.rows);
  if (d.cubic)
    s += " cubic";
  if (d.linearExtrapolation)
    s += " extrapolate linear";
  return s;
}

class DeclPrinter {
public:
  std::string out;

  void comments(const std::vector<std::string> &lines, int indent) {
    for (const std::string &line : lines)
      out += std::string(static_cast<size_t>(indent), ' ') + line + "\n";
  }

  void decl(const Decl &d, int indent, bool first) {
    if (d.comments.blankLineBefore && !first)
      out += '\n';
    comments(d.comments.leading, indent);
    std::string pad(static_cast<size_t>(indent), ' ');
    if (auto *f = std::get_if<ForDecl>(&d.node)) {
      out += laidOut(pad + "for " + f->index + " in " + range(f->range)) + " {\n";
      for (size_t i = 0; i < f->body.size(); ++i)
        decl(f->body[i], indent + 2, i == 0);
      comments(f->closingComments, indent + 2);
      out += pad + "}";
    } else {
      // The indentation goes in first, so that rows align under their '['.
      out += laidOut(pad + line(d));
    }
    if (d.comments.trailing)
      out += "  " + *d.comments.trailing;
    out += '\n';
  }

private:
  static std::string line(const Decl &d) {
    return std::visit(
        [](const auto &node) -> std::string {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, ParamDecl>) {
            return paramText(node);
          } else if constexpr (std::is_same_v<T, InputDecl>) {
            return inputText(node);
          } else if constexpr (std::is_same_v<T, CoordDecl>) {
            return coordText(node);
          } else if constexpr (std::is_same_v<T, LetDecl>) {
            std::string s = "let " + node.target.name;
            if (node.family)
              s += "[" + *node.familyIndex + " in " + range(*node.family) + "]";
            else
              s += indices(node.target.indices);
            return s + unitSuffix(node.unit) + " = " + exprText(*node.value);
          } else if constexpr (std::is_same_v<T, DefDecl>) {
            return defText(node);
          } else if constexpr (std::is_same_v<T, EnergyDecl>) {
            const char *keyword = node.kind == EnergyKind::Kinetic     ? "kinetic "
                                  : node.kind == EnergyKind::Potential ? "potential "
                                                                       : "dissipation ";
            std::string s = keyword;
            if (node.name)
              s += declName(*node.name) + " = ";
            return s + exprText(*node.value);
          } else if constexpr (std::is_same_v<T, ForceDecl>) {
            return "force " + exprText(*node.force) + " at " + exprText(*node.point);
          } else if constexpr (std::is_same_v<T, TorqueDecl>) {
            return "torque " + exprText(*node.moment) + " on " + exprText(*node.angle);
          } else if constexpr (std::is_same_v<T, GeneralizedDecl>) {
            return "generalized " + exprText(*node.value) + " on " + exprText(*node.coordinate);
          } else if constexpr (std::is_same_v<T, ParticleDecl>) {
            return "particle " + declName(node.name) + " mass " + exprText(*node.mass) + " at " +
                   exprText(*node.position);
          } else if constexpr (std::is_same_v<T, BodyDecl>) {
            return "body " + declName(node.name) + " mass " + exprText(*node.mass) + " at " +
                   exprText(*node.position) +
                   (node.kind == BodyKind::Planar ? " angle " : " rotation ") +
                   exprText(*node.orientation) + " inertia " + exprText(*node.inertia) +
                   (node.about ? " about " + exprText(*node.about) : "");
          } else if constexpr (std::is_same_v<T, GravityDecl>) {
            return "gravity " + exprText(*node.acceleration);
          } else if constexpr (std::is_same_v<T, DrawDecl>) {
            std::string s = "draw " + node.shape + "(";
            for (size_t i = 0; i < node.args.size(); ++i)
              s += (i ? ", " : "") + exprText(*node.args[i]);
            return s + ")";
          } else if constexpr (std::is_same_v<T, SpringDecl>) {
            std::string s = "spring " + exprText(*node.stiffness) + " between " +
                            exprText(*node.from) + " and " + exprText(*node.to);
            if (node.rest)
              s += " rest " + exprText(*node.rest);
            return s;
          } else if constexpr (std::is_same_v<T, ConstraintDecl>) {
            std::string s = "constraint ";
            if (node.name)
              s += declName(*node.name) + ": ";
            return s + exprText(*node.lhs) + " == " + exprText(*node.rhs);
          } else if constexpr (std::is_same_v<T, InitDecl>) {
            return initText(node);
          } else if constexpr (std::is_same_v<T, OutputDecl>) {
            return "output " + declName(node.name) + " = " + exprText(*node.value);
          } else if constexpr (std::is_same_v<T, EventDecl>) {
            return eventText(node);
          } else if constexpr (std::is_same_v<T, ContactDecl>) {
            return contactText(node);
          } else if constexpr (std::is_same_v<T, FrictionDecl>) {
            return frictionText(node);
          } else if constexpr (std::is_same_v<T, TableDecl>) {
            return tableText(node);
          } else {
            internalError("for blocks are printed by DeclPrinter::decl");
          }
        },
        d.node);
  }
};

} // namespace

std::string formatExpr(const Expr &expr) {
  ExprPrinter printer;
  printer.print(expr, kSum);
  return printer.out;
}

std::string formatUnit(const Unit &unit) {
  std::vector<std::string> numerator, denominator;
  for (const UnitFactor &f : unit.factors) {
    int power = f.exponent < 0 ? -f.exponent : f.exponent;
    if (f.symbol == "1" && f.exponent > 0)
      continue; // a unit 1 in the numerator is implied
    std::string text = f.symbol + (power != 1 ? "^" + std::to_string(power) : "");
    (f.exponent < 0 ? denominator : numerator).push_back(text);
  }
  auto join = [](const std::vector<std::string> &parts) {
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i)
      s += (i > 0 ? "*" : "") + parts[i];
    return s;
  };
  std::string out = numerator.empty() ? "1" : join(numerator);
  if (denominator.size() == 1)
    out += "/" + denominator[0];
  else if (denominator.size() > 1)
    out += "/(" + join(denominator) + ")";
  return out;
}

std::string formatDecl(const Decl &decl, int indent) {
  DeclPrinter printer;
  printer.decl(decl, indent, true);
  return printer.out;
}

std::string formatFile(const File &file) {
  DeclPrinter printer;
  bool first = true;
  for (const TopItem &item : file.items) {
    if (!first && (item.comments.blankLineBefore || std::holds_alternative<ModelDecl>(item.node)))
      printer.out += '\n';
    printer.comments(item.comments.leading, 0);
    if (auto *import = std::get_if<ImportDecl>(&item.node)) {
      printer.out +=
          "import \"" + import->path + "\"" + (import->alias ? " as " + *import->alias : "");
    } else if (auto *def = std::get_if<DefDecl>(&item.node)) {
      printer.out += laidOut(defText(*def));
    } else if (auto *model = std::get_if<ModelDecl>(&item.node)) {
      printer.out += "model " + model->name + " {\n";
      for (size_t i = 0; i < model->body.size(); ++i)
        printer.decl(model->body[i], 2, i == 0);
      printer.comments(model->closingComments, 2);
      printer.out += "}";
    }
    if (item.comments.trailing)
      printer.out += "  " + *item.comments.trailing;
    printer.out += '\n';
    first = false;
  }
  if (!file.trailingComments.empty() && !file.items.empty())
    printer.out += '\n';
  printer.comments(file.trailingComments, 0);
  return printer.out;
}

} // namespace mech
