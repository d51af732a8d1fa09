// Operators in the resolver: sums and differences, products and quotients,
// powers, vectors and matrices written as [a, b, c], components (.x, .y, .z)
// and time derivatives ('): the shape rule of each and the dimension of its
// result.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

#include <cmath>

namespace mech::sema {

ExprRef Resolver::resolveAdd(const ast::Add &add, const Env &env) {
  std::vector<ExprRef> terms;
  terms.reserve(add.terms.size());
  bool ok = true;
  for (const ast::Add::Term &term : add.terms) {
    ExprRef value = resolve(*term.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    if (term.negated)
      value = make(ExprKind::Neg, value->shape, value->dim, term.value->location, {value});
    terms.push_back(value);
  }
  if (!ok)
    return nullptr;
  Shape shape = terms[0]->shape;
  DimInfo dim = terms[0]->dim;
  for (size_t i = 1; i < terms.size(); ++i) {
    if (terms[i]->shape != shape) {
      diagnostics_.error(add.terms[i].value->location,
                         "cannot add " + shape.toString() + " and " + terms[i]->shape.toString());
      return nullptr;
    }
    auto combined = sumDimension(dim, terms[i]->dim, add.terms[i].value->location,
                                 add.terms[i].negated ? "this difference" : "this sum");
    if (!combined)
      return nullptr;
    dim = *combined;
  }
  return make(ExprKind::Add, shape, dim, add.location, std::move(terms));
}

ExprRef Resolver::resolveMul(const ast::Mul &mul, const Env &env) {
  std::vector<ExprRef> factors;
  bool ok = true;
  for (const ast::Mul::Factor &factor : mul.factors) {
    ExprRef value = resolve(*factor.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    if (factor.divides) {
      if (!value->shape.isScalar()) {
        diagnostics_.error(factor.value->location, "cannot divide by " + value->shape.toString());
        ok = false;
        continue;
      }
      value =
          make(ExprKind::Pow, Shape::scalar(), inverseDimension(value->dim), factor.value->location,
               {value, number(-1, Rational(-1), factor.value->location)});
    }
    factors.push_back(value);
  }
  if (!ok)
    return nullptr;
  // Shapes are checked pairwise left to right; the node stays n-ary.
  Shape shape = factors[0]->shape;
  DimInfo dim = factors[0]->dim;
  for (size_t i = 1; i < factors.size(); ++i) {
    ExprRef probe = factors[i];
    Shape x = shape, y = probe->shape;
    if (x.isScalar()) {
      shape = y;
    } else if (y.isScalar()) {
      // shape stays
    } else if (x.isMatrix() && y.isVector() && x.cols == y.rows) {
      shape = Shape::vector(x.rows);
    } else if (x.isMatrix() && y.isMatrix() && x.cols == y.rows) {
      shape = Shape::matrix(x.rows, y.cols);
    } else {
      std::string hint = x.isVector() && y.isVector() ? " (use dot or cross)" : "";
      diagnostics_.error(mul.factors[i].value->location,
                         "cannot multiply " + x.toString() + " by " + y.toString() + hint);
      return nullptr;
    }
    DimInfo product = productDimension(dim, probe->dim);
    if (dim.isKnown() && probe->dim.isKnown() && !product.isKnown()) {
      diagnostics_.error(mul.factors[i].value->location, exponentLimitMessage(dim, "*"));
      return nullptr;
    }
    dim = product;
  }
  return make(ExprKind::Mul, shape, dim, mul.location, std::move(factors));
}

ExprRef Resolver::resolvePow(const ast::Pow &pow, const Env &env) {
  ExprRef base = resolve(*pow.base, env);
  ExprRef exponent = resolve(*pow.exponent, env);
  if (!base || !exponent)
    return nullptr;
  if (!base->shape.isScalar() || !exponent->shape.isScalar()) {
    diagnostics_.error(pow.location, "^ needs scalars, found " + base->shape.toString() + "^" +
                                         exponent->shape.toString());
    return nullptr;
  }
  if (!isDimensionless(exponent->dim)) {
    diagnostics_.error(pow.exponent->location, "an exponent must be dimensionless, found " +
                                                   describeDimension(exponent->dim));
    return nullptr;
  }
  DimInfo dim = base->dim;
  if (base->dim.isKnown() && !base->dim.dimension.isDimensionless()) {
    std::optional<double> value = evaluateConstant(exponent);
    std::optional<Rational> exact;
    if (value && std::abs(*value * 2 - std::round(*value * 2)) < 1e-12 && std::abs(*value) < 1e6)
      exact = Rational::make(static_cast<int64_t>(std::round(*value * 2)), 2);
    if (!exact) {
      diagnostics_.error(pow.exponent->location, "the exponent of a quantity with dimension " +
                                                     describeDimension(base->dim) +
                                                     " must be a constant integer or half-integer");
      return nullptr;
    }
    auto raised = base->dim.dimension.raisedTo(*exact);
    if (!raised) {
      diagnostics_.error(pow.exponent->location, exponentLimitMessage(base->dim, "^"));
      return nullptr;
    }
    dim = DimInfo::known(*raised);
  } else if (base->dim.state == DimInfo::Pure) {
    dim = DimInfo::pure();
  }
  return make(ExprKind::Pow, Shape::scalar(), dim, pow.location, {base, exponent});
}

ExprRef Resolver::resolveVector(const ast::Vector &vector, const Env &env) {
  std::vector<ExprRef> elements;
  bool ok = true;
  for (const ast::ExprPtr &e : vector.elements) {
    ExprRef value = resolve(*e, env);
    ok = ok && value;
    elements.push_back(value);
  }
  if (!ok)
    return nullptr;
  size_t n = elements.size();
  // Any size from 2 (a quaternion has 4 components, a state 2n); a single
  // component is a scalar, written without brackets.
  if (n < 2) {
    diagnostics_.error(vector.location,
                       "a vector has at least 2 components, found " + std::to_string(n));
    return nullptr;
  }
  DimInfo dim = DimInfo::pure();
  for (size_t i = 0; i < n; ++i) {
    auto combined = sumDimension(dim, elements[i]->dim, vector.elements[i]->location,
                                 "the components of a vector", true);
    if (!combined)
      return nullptr;
    dim = *combined;
  }
  if (elements[0]->shape.isScalar()) {
    for (size_t i = 1; i < n; ++i)
      if (!elements[i]->shape.isScalar()) {
        diagnostics_.error(vector.elements[i]->location,
                           "the components of a vector must be scalars, found " +
                               elements[i]->shape.toString());
        return nullptr;
      }
    return make(ExprKind::Vector, Shape::vector(static_cast<int>(n)), dim, vector.location,
                std::move(elements));
  }
  return resolveMatrix(vector, elements, dim);
}

// A matrix: a vector of rows of equal length, its entries taken from rows
// written out or as components of row vectors.
ExprRef Resolver::resolveMatrix(const ast::Vector &vector, const std::vector<ExprRef> &elements,
                                DimInfo dim) {
  size_t n = elements.size();
  Shape row = elements[0]->shape;
  if (!row.isVector()) {
    diagnostics_.error(vector.elements[0]->location,
                       "a matrix row must be a vector, found " + row.toString());
    return nullptr;
  }
  std::vector<ExprRef> entries;
  for (size_t i = 0; i < n; ++i) {
    if (elements[i]->shape != row) {
      diagnostics_.error(vector.elements[i]->location,
                         "the rows of a matrix must have equal lengths: " + row.toString() +
                             " and " + elements[i]->shape.toString());
      return nullptr;
    }
    if (elements[i]->kind == ExprKind::Vector) {
      for (const ExprRef &entry : elements[i]->children)
        entries.push_back(entry);
    } else {
      for (int k = 0; k < row.rows; ++k) {
        auto component = std::const_pointer_cast<Node>(
            make(ExprKind::Component, Shape::scalar(), elements[i]->dim,
                 vector.elements[i]->location, {elements[i]}));
        component->index = k;
        entries.push_back(component);
      }
    }
  }
  return make(ExprKind::Matrix, Shape::matrix(static_cast<int>(n), row.rows), dim, vector.location,
              std::move(entries));
}

ExprRef Resolver::resolveComponent(const ast::Component &component, const Env &env) {
  ExprRef value = resolve(*component.operand, env);
  if (!value)
    return nullptr;
  int axis = component.component == "x"   ? 0
             : component.component == "y" ? 1
             : component.component == "z" ? 2
                                          : -1;
  if (axis < 0) {
    diagnostics_.error(component.componentLocation,
                       "unknown component '" + component.component + "'; use .x, .y or .z");
    return nullptr;
  }
  if (!value->shape.isVector()) {
    diagnostics_.error(component.location, "." + component.component + " needs a vector, found " +
                                               value->shape.toString());
    return nullptr;
  }
  if (axis >= value->shape.rows) {
    diagnostics_.error(component.componentLocation, "a " + std::to_string(value->shape.rows) +
                                                        "-vector has no ." + component.component +
                                                        " component");
    return nullptr;
  }
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Component, Shape::scalar(), value->dim, component.location, {value}));
  node->index = axis;
  return node;
}

ExprRef Resolver::resolvePrime(const ast::Prime &prime, const Env &env) {
  ExprRef value = resolve(*prime.operand, env);
  if (!value)
    return nullptr;
  if (value->usesMultiplier) {
    diagnostics_.error(prime.location, "a multiplier cannot be differentiated");
    return nullptr;
  }
  if (value->usesInput) {
    diagnostics_.error(prime.location, "an input cannot be differentiated (its rate is not known)");
    return nullptr;
  }
  for (int i = 0; i < prime.order; ++i) {
    DimInfo dim = value->dim;
    if (dim.isKnown()) {
      auto rate = dim.dimension.over(Dimension::time());
      if (!rate) {
        diagnostics_.error(prime.location, exponentLimitMessage(dim, "'"));
        return nullptr;
      }
      dim = DimInfo::known(*rate);
    }
    auto node = std::const_pointer_cast<Node>(
        make(ExprKind::Derivative, value->shape, dim, prime.location, {value}));
    if (node->coordOrder >= 0)
      node->coordOrder += 1;
    value = node;
  }
  if (value->coordOrder > 2) {
    diagnostics_.error(prime.location, "this is a derivative of order " +
                                           std::to_string(value->coordOrder) +
                                           " of a coordinate; only q, q' and q'' exist");
    return nullptr;
  }
  return value;
}

} // namespace mech::sema
