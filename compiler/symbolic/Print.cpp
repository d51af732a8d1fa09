// The three printers share one display model: terms and factors in display
// order, each factor split into numerator or denominator.
#include "symbolic/Print.h"

#include "support/Diagnostics.h"
#include "symbolic/MatrixFunctions.h"
#include "symbolic/Piecewise.h"
#include "symbolic/Simplify.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>
#include <unordered_map>

namespace mech::sym {

namespace {

enum class Style { Mech, Latex, C };

// Rank of a factor for display: params, coordinates, t, functions, sums,
// velocities, accelerations, multipliers, free symbols.
using DisplayKey = std::tuple<int, int, std::string>;

// Display keys and orientations, memoised for the outermost print call:
// sorting compares keys many times, and a key may print a whole argument.
// Cleared when that call ends (nodes may be freed afterwards).
struct DisplayMemo {
  int depth = 0;
  std::unordered_map<const Node *, DisplayKey> keys;
  std::unordered_map<const Node *, bool> negative;
};
thread_local DisplayMemo displayMemo;

class PrintCall {
public:
  PrintCall() { ++displayMemo.depth; }
  ~PrintCall() {
    if (--displayMemo.depth == 0) {
      displayMemo.keys.clear();
      displayMemo.negative.clear();
    }
  }
};

DisplayKey computeDisplayKey(const Node *n);

DisplayKey displayKey(const Node *n) {
  if (n->kind == Kind::Symbol || n->kind == Kind::Number)
    return computeDisplayKey(n);
  auto found = displayMemo.keys.find(n);
  if (found != displayMemo.keys.end())
    return found->second;
  DisplayKey key = computeDisplayKey(n);
  displayMemo.keys.emplace(n, key);
  return key;
}

DisplayKey computeDisplayKey(const Node *n) {
  if (n->kind == Kind::Pow)
    return displayKey(n->ops[0]);
  if (n->kind == Kind::Number)
    return {-1, 0, ""};
  if (n->kind == Kind::Symbol) {
    const SymbolInfo &s = n->context->symbolInfo(n);
    switch (s.kind) {
    case SymbolKind::Constant:
      return {0, -1, s.name};
    case SymbolKind::Param:
      return {0, s.index, s.name};
    case SymbolKind::Coord:
      return {s.order == 0 ? 1 : s.order == 1 ? 5 : 6, s.index, s.name};
    case SymbolKind::Time:
      return {2, 0, s.name};
    case SymbolKind::Multiplier:
      return {7, s.index, s.name};
    case SymbolKind::Free:
      return {8, s.index, s.name}; // named subexpressions x1, x2, ... by number
    }
  }
  if (n->kind == Kind::Func)
    return {3, static_cast<int>(n->fn), toMech(Expr(n->ops[0]))};
  // A sum in a product reads best first: (m1 + m2)*l1^2.
  return {0, -2, toMech(Expr(n))};
}

// True when a sum reads better negated: its first term in display order
// has a negative coefficient (th2 - th1 is shown as -(th1 - th2)).
bool displayNegative(const Node *n) {
  if (n->kind != Kind::Add)
    return false;
  auto found = displayMemo.negative.find(n);
  if (found != displayMemo.negative.end())
    return found->second;
  const Node *firstTerm = nullptr, *firstCoef = nullptr;
  for (size_t i = 0; i < n->ops.size(); i += 2) {
    if (firstTerm == nullptr || displayKey(n->ops[i]) < displayKey(firstTerm)) {
      firstTerm = n->ops[i];
      firstCoef = n->ops[i + 1];
    }
  }
  bool negative = firstCoef != nullptr && firstCoef->num.isNegative();
  displayMemo.negative.emplace(n, negative);
  return negative;
}

bool isEvenFn(Fn fn) {
  return fn == Fn::Cos || fn == Fn::Cosh;
}
bool isOddFn(Fn fn) {
  return fn == Fn::Sin || fn == Fn::Tan || fn == Fn::Sinh || fn == Fn::Tanh || fn == Fn::Asin ||
         fn == Fn::Atan;
}

// f(-x) for a function whose argument reads better negated, or null.
const Node *reorientedArgument(const Node *n) {
  if (n->kind != Kind::Func || n->ops.size() != 1 || !displayNegative(n->ops[0]))
    return nullptr;
  if (!isEvenFn(n->fn) && !isOddFn(n->fn))
    return nullptr;
  return (-Expr(n->ops[0])).node();
}

struct Factor {
  const Node *base;
  Num exponent; // only used when the exponent is a number
  const Node *symbolicExponent = nullptr;
  bool displayFlipped = false; // base is f(x) standing for -f(-x)
  bool displayNegated = false; // base is a sum printed negated
};

class Printer {
public:
  Printer(Style style, const std::function<std::string(const SymbolInfo &)> *name)
      : style_(style), name_(name) {}

  // Precedence: 1 sum, 2 product, 3 unary minus, 4 power, 5 atom.
  std::string print(const Node *n, int context) {
    std::string text;
    int level = 5;
    switch (n->kind) {
    case Kind::Number:
      text = number(n->num);
      level = n->num.isNegative() || (n->num.exact() && !n->num.isInteger()) ? 2 : 5;
      if (n->num.isNegative())
        level = 1;
      break;
    case Kind::Symbol:
      text = symbol(n);
      break;
    case Kind::Add:
      text = sum(n, context >= 3);
      level = 1;
      break;
    case Kind::Mul:
    case Kind::Pow: {
      bool negative = false;
      text = product(n, negative);
      level = negative ? 1 : 2;
      if (n->kind == Kind::Pow && text.find_first_of("*/") == std::string::npos &&
          style_ != Style::Latex)
        level = 4;
      break;
    }
    case Kind::Func:
      if (isOddFn(n->fn) && reorientedArgument(n) != nullptr &&
          (flipped_.empty() || flipped_.back() != n)) {
        // sin(-x) reads as -sin(x): let the product rule move the sign.
        bool negative = false;
        text = product(n, negative);
        level = negative ? 1 : 2;
      } else {
        text = function(n);
      }
      break;
    }
    if (level < context)
      return style_ == Style::Latex ? "\\left(" + text + "\\right)" : "(" + text + ")";
    return text;
  }

private:
  std::string number(const Num &num) {
    if (style_ == Style::C) {
      if (num.exact() && num.isInteger())
        return std::to_string(num.rational().num()) + ".0";
      if (num.exact())
        return "(" + std::to_string(num.rational().num()) + ".0/" +
               std::to_string(num.rational().den()) + ".0)";
      char buffer[32];
      auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, num.toDouble());
      std::string text(buffer, end);
      if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0";
      return text;
    }
    if (style_ == Style::Latex && num.exact() && !num.isInteger()) {
      Rational q = num.rational();
      std::string frac = "\\frac{" + std::to_string(q.num() < 0 ? -q.num() : q.num()) + "}{" +
                         std::to_string(q.den()) + "}";
      return q.num() < 0 ? "-" + frac : frac;
    }
    return num.toString();
  }

  std::string symbol(const Node *n) {
    const SymbolInfo &s = n->context->symbolInfo(n);
    if (style_ == Style::C)
      return (*name_)(s);
    if (style_ == Style::Latex)
      return latexSymbol(s);
    if (s.kind == SymbolKind::Coord)
      return s.name + std::string(static_cast<size_t>(s.order), '\'');
    return s.name;
  }

  static std::string latexName(const std::string &name) {
    static const char *greek[] = {"alpha", "beta",  "gamma", "delta",  "epsilon", "zeta",   "eta",
                                  "theta", "iota",  "kappa", "lambda", "mu",      "nu",     "xi",
                                  "pi",    "rho",   "sigma", "tau",    "upsilon", "phi",    "chi",
                                  "psi",   "omega", "Gamma", "Delta",  "Theta",   "Lambda", "Xi",
                                  "Pi",    "Sigma", "Phi",   "Psi",    "Omega"};
    // Split a trailing index: th1 -> th_{1}, x[2] -> x_{2}.
    std::string base = name, index;
    size_t bracket = name.find('[');
    if (bracket != std::string::npos) {
      base = name.substr(0, bracket);
      index = name.substr(bracket + 1, name.size() - bracket - 2);
    } else {
      size_t digits = name.find_last_not_of("0123456789");
      if (digits != std::string::npos && digits + 1 < name.size()) {
        base = name.substr(0, digits + 1);
        index = name.substr(digits + 1);
      }
    }
    if (base == "th")
      base = "theta";
    bool isGreek = false;
    for (const char *g : greek)
      isGreek = isGreek || base == g;
    std::string text;
    if (isGreek)
      text = "\\" + base;
    else if (base.size() == 1)
      text = base;
    else
      text = "\\mathrm{" + base + "}";
    // Underscores would be subscripts in LaTeX.
    for (size_t at = 0; (at = text.find('_', at)) != std::string::npos; at += 2)
      text.replace(at, 1, "\\_");
    if (!index.empty())
      text += "_{" + index + "}";
    return text;
  }

  static std::string latexSymbol(const SymbolInfo &s) {
    if (!s.latex.empty())
      return s.latex;
    std::string text = latexName(s.name);
    if (s.kind == SymbolKind::Coord && s.order == 1)
      return "\\dot{" + text + "}";
    if (s.kind == SymbolKind::Coord && s.order == 2)
      return "\\ddot{" + text + "}";
    return text;
  }

  // A sum that is a factor starts with a positive term where it has one:
  // (4*d^2 - r^2)*m; a sum on its own keeps the display order.
  std::string sum(const Node *n, bool factor) {
    struct Term {
      std::tuple<int, int, std::string> key;
      Expr value;
    };
    std::vector<Term> terms;
    Context &c = *n->context;
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      Expr term = Expr(n->ops[i + 1]) * Expr(n->ops[i]);
      terms.push_back({termKey(n->ops[i]), term});
    }
    std::stable_sort(terms.begin(), terms.end(),
                     [](const Term &a, const Term &b) { return a.key < b.key; });
    if (!n->num.isZero())
      terms.push_back({{}, c.number(n->num)});
    bool negated = !negatedSums_.empty() && negatedSums_.back() == n;
    std::vector<std::pair<bool, std::string>> signedTexts; // negative, text without the sign
    for (Term &term : terms) {
      Expr value = negated ? -term.value : term.value;
      bool negative = false;
      std::string text;
      if (value.kind() == Kind::Mul || value.kind() == Kind::Pow ||
          (value.kind() == Kind::Func && isOddFn(value->fn))) {
        // The product decides its own sign (odd functions may flip it).
        text = product(value.node(), negative);
        if (negative)
          text.erase(0, 1);
      } else {
        negative = isNegativeForm(value) && value.kind() != Kind::Add;
        text = print((negative ? -value : value).node(), 2);
      }
      signedTexts.push_back({negative, std::move(text)});
    }
    auto positive = std::find_if(signedTexts.begin(), signedTexts.end(),
                                 [](const auto &t) { return !t.first; });
    if (factor && positive != signedTexts.end())
      std::rotate(signedTexts.begin(), positive, positive + 1);
    std::string out;
    for (size_t i = 0; i < signedTexts.size(); ++i) {
      const auto &[negative, text] = signedTexts[i];
      if (i == 0)
        out += negative ? "-" + text : text;
      else
        out += (negative ? " - " : " + ") + text;
    }
    return out;
  }

  // Negative minus positive terms of a sum: where positive, -(a + b - c)
  // reads better as a product's sign times (c - a - b).
  // Signs as displayed: odd functions of reoriented arguments flip them
  // (sin(b - a) shows as -sin(a - b)); nested sums are taken as stored.
  static int negativeBalance(const Node *sum) {
    int balance = sum->num.isZero() ? 0 : sum->num.isNegative() ? 1 : -1;
    for (size_t i = 0; i < sum->ops.size(); i += 2) {
      bool negative = sum->ops[i + 1]->num.isNegative();
      const Node *term = sum->ops[i];
      auto flips = [&negative](const Node *base, const Node *exponent) {
        if (base->kind == Kind::Func && isOddFn(base->fn) && reorientedArgument(base) &&
            exponent->kind == Kind::Number && exponent->num.isInteger() &&
            exponent->num.rational().num() % 2 != 0)
          negative = !negative;
      };
      if (term->kind == Kind::Mul) {
        negative ^= term->num.isNegative();
        for (size_t k = 0; k < term->ops.size(); k += 2)
          flips(term->ops[k], term->ops[k + 1]);
      } else if (term->kind == Kind::Pow) {
        flips(term->ops[0], term->ops[1]);
      } else if (term->kind == Kind::Func && isOddFn(term->fn) && reorientedArgument(term)) {
        negative = !negative;
      }
      balance += negative ? 1 : -1;
    }
    return balance;
  }

  std::tuple<int, int, std::string> termKey(const Node *term) {
    std::vector<Factor> factors = factorsOf(term);
    if (factors.empty())
      return {-1, 0, ""};
    return displayKey(factors[0].base);
  }

  std::vector<Factor> factorsOf(const Node *n) {
    std::vector<Factor> factors;
    auto push = [&](const Node *base, const Node *exponent) {
      if (exponent->kind == Kind::Number)
        factors.push_back({base, exponent->num, nullptr});
      else
        factors.push_back({base, Num(1), exponent});
    };
    if (n->kind == Kind::Mul) {
      for (size_t i = 0; i < n->ops.size(); i += 2)
        push(n->ops[i], n->ops[i + 1]);
    } else if (n->kind == Kind::Pow) {
      push(n->ops[0], n->ops[1]);
    } else {
      factors.push_back({n, Num(1), nullptr});
    }
    std::stable_sort(factors.begin(), factors.end(), [](const Factor &a, const Factor &b) {
      return displayKey(a.base) < displayKey(b.base);
    });
    return factors;
  }

  std::string power(const Node *base, const Num &exponent, const Node *symbolic) {
    Context &c = *base->context;
    if (symbolic != nullptr) {
      if (style_ == Style::C)
        return "pow(" + print(base, 1) + ", " + print(symbolic, 1) + ")";
      if (style_ == Style::Latex)
        return print(base, 5) + "^{" + print(symbolic, 1) + "}";
      return print(base, 5) + "^" + print(symbolic, 5);
    }
    if (exponent.isOne())
      return print(base, style_ == Style::Latex ? 2 : 3);
    if (exponent.exact() && exponent.rational() == *Rational::make(1, 2)) {
      if (style_ == Style::Latex)
        return "\\sqrt{" + print(base, 1) + "}";
      return "sqrt(" + print(base, 1) + ")";
    }
    if (style_ == Style::C) {
      if (exponent.isInteger() && exponent.rational().num() == 2)
        return "(" + print(base, 3) + "*" + print(base, 3) + ")";
      return "pow(" + print(base, 1) + ", " + number(exponent) + ")";
    }
    std::string e =
        exponent.isInteger() ? exponent.toString() : print(c.number(exponent).node(), 5);
    if (style_ == Style::Latex)
      return print(base, 5) + "^{" + (exponent.isInteger() ? e : number(exponent)) + "}";
    if (!exponent.isInteger())
      e = "(" + exponent.toString() + ")";
    return print(base, 5) + "^" + e;
  }

  std::string product(const Node *n, bool &negative) {
    Num coef = n->kind == Kind::Mul ? n->num : Num(1);
    std::vector<std::string> numerator, denominator;
    std::vector<Factor> factors = factorsOf(n);
    // sin(-x)^k = (-1)^k sin(x)^k: move the sign into the coefficient.
    for (Factor &f : factors) {
      const Node *flipped = reorientedArgument(f.base);
      if (flipped == nullptr || !isOddFn(f.base->fn))
        continue;
      if (f.symbolicExponent != nullptr || !f.exponent.isInteger())
        continue;
      f.displayFlipped = true;
      if (f.exponent.rational().num() % 2 != 0)
        coef = -coef;
    }
    // (b - a)^k for a sum mostly negative: the sign (-1)^k into the
    // coefficient; a balanced sum only where that cancels a minus sign.
    for (Factor &f : factors) {
      if (f.base->kind != Kind::Add || f.symbolicExponent != nullptr || !f.exponent.isInteger())
        continue;
      bool odd = f.exponent.rational().num() % 2 != 0;
      int balance = negativeBalance(f.base);
      if (balance < 0 || (balance == 0 && !(odd && coef.isNegative())))
        continue;
      f.displayNegated = true;
      if (odd)
        coef = -coef;
    }
    negative = coef.isNegative();
    if (negative)
      coef = -coef;
    for (const Factor &f : factors) {
      if (f.displayNegated)
        negatedSums_.push_back(f.base);
      if (f.displayFlipped)
        flipped_.push_back(f.base);
      if (f.symbolicExponent == nullptr && f.exponent.isNegative())
        denominator.push_back(power(f.base, -f.exponent, nullptr));
      else
        numerator.push_back(power(f.base, f.exponent, f.symbolicExponent));
      if (f.displayFlipped)
        flipped_.pop_back();
      if (f.displayNegated)
        negatedSums_.pop_back();
    }
    std::string numText, denText;
    bool exactCoef = coef.exact();
    if (exactCoef) {
      if (!(coef.rational().num() == 1))
        numerator.insert(numerator.begin(), std::to_string(coef.rational().num()));
      if (coef.rational().den() != 1)
        denominator.insert(denominator.begin(), std::to_string(coef.rational().den()));
    } else if (!coef.isOne()) {
      numerator.insert(numerator.begin(), number(coef));
    }
    const char *times = style_ == Style::Latex ? " " : "*";
    for (size_t i = 0; i < numerator.size(); ++i)
      numText += (i ? times : "") + numerator[i];
    for (size_t i = 0; i < denominator.size(); ++i)
      denText += (i ? times : "") + denominator[i];
    if (numText.empty())
      numText = "1";
    std::string text;
    if (denText.empty())
      text = numText;
    else if (style_ == Style::Latex)
      text = "\\frac{" + numText + "}{" + denText + "}";
    else
      text = numText + "/" + (denominator.size() > 1 ? "(" + denText + ")" : denText);
    return negative ? "-" + text : text;
  }

  // select(g, p, q): max(p, q) where g = p - q, min(p, q) where g = q - p,
  // else if(g > 0, p, q) (cases in LaTeX, ?: in C).
  std::string choice(const Node *n) {
    Expr g(n->ops[0]), p(n->ops[1]), q(n->ops[2]);
    const std::string a = print(p.node(), 1), b = print(q.node(), 1);
    // The law's own g, or one canonical form apart (clamp's factored bound).
    auto same = [](const Expr &a, const Expr &b) { return a == b || expand(a) == expand(b); };
    const bool max = same(g, p - q), min = !max && same(g, q - p);
    if (style_ == Style::C)
      return "((" + print(g.node(), 1) + ") > 0 ? (" + a + ") : (" + b + "))";
    // y < 0 rather than -y > 0
    const Expr shown = upright(g);
    const std::string condition = print(shown.node(), 1) + (shown == g ? " > 0" : " < 0");
    if (style_ == Style::Latex) {
      if (max || min)
        return std::string(max ? "\\max" : "\\min") + "\\left(" + a + ", " + b + "\\right)";
      return "\\begin{cases} " + a + " & " + condition + " \\\\ " + b +
             " & \\text{otherwise} \\end{cases}";
    }
    if (max || min)
      return std::string(max ? "max(" : "min(") + a + ", " + b + ")";
    return "if(" + condition + ", " + a + ", " + b + ")";
  }

  // [[a, b], [c, d]], det([[...]]) and inv([[...]])[i, j]; in LaTeX a
  // pmatrix, its det and the entry of its inverse.
  std::string matrixFunction(const Node *n) {
    const Node *matrix = n->fn == Fn::Matrix ? n : n->fn == Fn::Det ? n->ops[0] : n->ops[2];
    const bool latex = style_ == Style::Latex;
    if (matrix->kind == Kind::Symbol) // the matrix's name (symbolic/SharedTerms.h)
      return appliedTo(n, print(matrix, 4));
    size_t size = static_cast<size_t>(packedSize(matrix));
    std::string text = latex ? "\\begin{pmatrix} " : "[";
    for (size_t i = 0; i < size; ++i) {
      text += latex ? (i ? " \\\\ " : "") : (i ? ", [" : "[");
      for (size_t j = 0; j < size; ++j)
        text += (j ? (latex ? " & " : ", ") : "") + print(matrix->ops[i * size + j], 1);
      text += latex ? "" : "]";
    }
    text += latex ? " \\end{pmatrix}" : "]";
    return n->fn == Fn::Matrix ? text : appliedTo(n, text);
  }

  // det or inv of the matrix printed as `text`.
  std::string appliedTo(const Node *n, const std::string &text) {
    const bool latex = style_ == Style::Latex;
    if (n->fn == Fn::Det)
      return latex ? "\\det " + text : "det(" + text + ")";
    auto [i, j] = inverseEntryIndex(n);
    std::string index = std::to_string(i + 1) + (latex ? " " : ", ") + std::to_string(j + 1);
    return latex ? "\\left(" + text + "^{-1}\\right)_{" + index + "}"
                 : "inv(" + text + ")[" + index + "]";
  }

  std::string function(const Node *n) {
    if (n->fn == Fn::Select)
      return choice(n);
    if (isMatrixFn(n->fn))
      return matrixFunction(n);
    std::string args;
    bool flipped = !flipped_.empty() && flipped_.back() == n;
    const Node *reoriented = isEvenFn(n->fn) || flipped ? reorientedArgument(n) : nullptr;
    if (reoriented != nullptr)
      args = print(reoriented, 1);
    for (size_t i = 0; i < n->ops.size() && reoriented == nullptr; ++i)
      args += (i ? ", " : "") + print(n->ops[i], 1);
    if (style_ == Style::Latex) {
      static const Fn named[] = {Fn::Sin,  Fn::Cos,  Fn::Tan, Fn::Sinh,
                                 Fn::Cosh, Fn::Tanh, Fn::Exp, Fn::Log};
      bool known = std::find(std::begin(named), std::end(named), n->fn) != std::end(named);
      if (n->fn == Fn::Abs)
        return "\\left|" + args + "\\right|";
      if (n->fn == Fn::Smooth)
        return "\\left(" + args + "\\right)";
      std::string head = known ? std::string("\\") + fnName(n->fn)
                               : std::string("\\operatorname{") + fnName(n->fn) + "}";
      return head + "\\left(" + args + "\\right)";
    }
    if (style_ == Style::C) {
      switch (n->fn) {
      case Fn::Abs:
        return "fabs(" + args + ")";
      case Fn::Sign:
        return "((" + args + ") > 0 ? 1.0 : ((" + args + ") < 0 ? -1.0 : 0.0))";
      case Fn::Smooth:
        return "(" + args + ")";
      default:
        break;
      }
    }
    return std::string(fnName(n->fn)) + "(" + args + ")";
  }

  Style style_;
  const std::function<std::string(const SymbolInfo &)> *name_;
  std::vector<const Node *> flipped_;     // odd functions printed as -f(-x)
  std::vector<const Node *> negatedSums_; // sums printed negated, their sign moved out
};

} // namespace

std::string toMech(const Expr &e) {
  PrintCall call;
  return Printer(Style::Mech, nullptr).print(e.node(), 1);
}

std::string toLatex(const Expr &e) {
  PrintCall call;
  return Printer(Style::Latex, nullptr).print(e.node(), 1);
}

std::string toC(const Expr &e, const std::function<std::string(const SymbolInfo &)> &name) {
  PrintCall call;
  return Printer(Style::C, &name).print(e.node(), 1);
}

} // namespace mech::sym
