// The byte form of expressions (symbolic/ExprCodec.h).
#include "symbolic/ExprCodec.h"

#include "symbolic/MatrixFunctions.h"

namespace mech::sym {

namespace {

constexpr uint8_t kKinds = static_cast<uint8_t>(Kind::Func) + 1;
constexpr uint8_t kFunctions = static_cast<uint8_t>(Fn::InvEntry) + 1;
constexpr uint8_t kSymbolKinds = static_cast<uint8_t>(SymbolKind::Free) + 1;

constexpr uint32_t kArity[] = {
#define MECH_SYM_ARITY(id, name, arity) arity,
    MECH_SYM_FUNCS(MECH_SYM_ARITY)
#undef MECH_SYM_ARITY
};
static_assert(sizeof kArity / sizeof kArity[0] == kFunctions);

// Whether a node of `kind` (and function `fn`) may have `operands`: what
// the engine's passes take for granted (a power's base and exponent, a
// function's arguments), so that a table that breaks it is refused here.
bool operandsFit(Kind kind, Fn fn, uint32_t operands) {
  switch (kind) {
  case Kind::Number:
  case Kind::Symbol:
    return operands == 0;
  case Kind::Add:
  case Kind::Mul:
    return operands >= 1;
  case Kind::Pow:
    return operands == 2;
  case Kind::Func:
    if (fn == Fn::Matrix) // n^2 entries of a square matrix
      return operands >= 1 && packedSide(operands) * packedSide(operands) == operands;
    return operands == kArity[static_cast<uint8_t>(fn)];
  }
  return false;
}

void writeNum(ByteWriter &out, const Num &num) {
  out.put<uint8_t>(num.exact());
  if (num.exact()) {
    out.put<int64_t>(num.rational().num());
    out.put<int64_t>(num.rational().den());
  } else {
    out.put<double>(num.toDouble());
  }
}

bool readNum(ByteReader &in, Num &num) {
  uint8_t exact = 0;
  if (!in.get(exact))
    return false;
  if (!exact) {
    double value = 0;
    if (!in.get(value))
      return false;
    num = Num::inexact(value);
    return true;
  }
  int64_t numerator = 0, denominator = 1;
  if (!in.get(numerator) || !in.get(denominator))
    return false;
  std::optional<Rational> q = Rational::make(numerator, denominator);
  if (!q)
    return false;
  num = *q;
  return true;
}

} // namespace

uint32_t ExprEncoder::add(const Expr &e) {
  // Depth first without recursion: expressions can be deep.
  std::vector<std::pair<const Node *, size_t>> stack{{e.node(), 0}};
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    if (index_.count(node)) {
      stack.pop_back();
      continue;
    }
    if (next < node->ops.size()) {
      const Node *op = node->ops[next++];
      if (!index_.count(op))
        stack.push_back({op, 0});
      continue;
    }
    index_.emplace(node, static_cast<uint32_t>(nodes_.size()));
    nodes_.push_back(node);
    stack.pop_back();
  }
  return index_.at(e.node());
}

void ExprEncoder::write(ByteWriter &out) const {
  out.put<uint64_t>(nodes_.size());
  for (const Node *node : nodes_) {
    out.put<uint8_t>(static_cast<uint8_t>(node->kind));
    out.put<uint8_t>(static_cast<uint8_t>(node->fn));
    writeNum(out, node->num);
    if (node->kind == Kind::Symbol) {
      const SymbolInfo &info = node->context->symbolInfo(node);
      out.put(info.name);
      out.put<uint8_t>(static_cast<uint8_t>(info.kind));
      out.put<int32_t>(info.index);
      out.put<int32_t>(info.order);
    }
    out.put<uint32_t>(static_cast<uint32_t>(node->ops.size()));
    for (const Node *op : node->ops)
      out.put<uint32_t>(index_.at(op));
  }
}

bool ExprDecoder::read(ByteReader &in) {
  uint64_t count = 0;
  if (!in.getCount(count, 8))
    return false;
  nodes_.clear();
  nodes_.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t kind = 0, fn = 0;
    Num num;
    if (!in.get(kind) || kind >= kKinds || !in.get(fn) || fn >= kFunctions || !readNum(in, num))
      return false;
    if (static_cast<Kind>(kind) == Kind::Symbol) {
      std::string name;
      uint8_t symbolKind = 0;
      int32_t index = 0, order = 0;
      if (!in.get(name) || !in.get(symbolKind) || symbolKind >= kSymbolKinds || !in.get(index) ||
          !in.get(order) || order < 0 || order > 2)
        return false;
      SymbolKind k = static_cast<SymbolKind>(symbolKind);
      if (k == SymbolKind::Coord) {
        Context::Coordinate c = context_.coordinate(name, index);
        nodes_.push_back(order == 0 ? c.q : order == 1 ? c.qd : c.qdd);
      } else {
        nodes_.push_back(k == SymbolKind::Time ? context_.time()
                                               : context_.symbol(name, k, index, order));
      }
    }
    uint32_t operands = 0;
    if (!in.get(operands) || !operandsFit(static_cast<Kind>(kind), static_cast<Fn>(fn), operands))
      return false;
    std::vector<const Node *> ops;
    for (uint32_t j = 0; j < operands; ++j) {
      uint32_t op = 0;
      if (!in.get(op) || op >= nodes_.size())
        return false;
      ops.push_back(nodes_[op].node());
    }
    if (static_cast<Kind>(kind) == Kind::Func && isMatrixFn(static_cast<Fn>(fn)) &&
        !matrixOperandsFit(static_cast<Fn>(fn), ops))
      return false;
    if (static_cast<Kind>(kind) != Kind::Symbol)
      nodes_.push_back(
          context_.restore(static_cast<Kind>(kind), static_cast<Fn>(fn), num, std::move(ops)));
  }
  return true;
}

bool ExprDecoder::get(uint32_t index, Expr &out) const {
  if (index >= nodes_.size())
    return false;
  out = nodes_[index];
  return true;
}

} // namespace mech::sym
