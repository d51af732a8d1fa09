// Expressions as bytes and back, for the derivation cache
// (driver/DerivationCache.h): the nodes an encoder was given, operands
// before their users, each with its kind, function, number and symbol; a
// decoder interns them again in another context, where they are the same
// canonical forms (Context::restore), so that pointer equality still is
// structural equality. Only this build of mech reads what it wrote.
#pragma once

#include "support/ByteCodec.h"
#include "symbolic/Expr.h"

#include <unordered_map>
#include <vector>

namespace mech::sym {

class ExprEncoder {
public:
  // The number of e's node in the table (its operands are added first).
  uint32_t add(const Expr &e);
  // The table of every node added.
  void write(ByteWriter &out) const;

private:
  std::unordered_map<const Node *, uint32_t> index_;
  std::vector<const Node *> nodes_;
};

class ExprDecoder {
public:
  explicit ExprDecoder(Context &context) : context_(context) {}
  // Reads a table ExprEncoder::write wrote; false when it is not one.
  bool read(ByteReader &in);
  // The expression numbered `index`; false when there is none.
  bool get(uint32_t index, Expr &out) const;
  // Every expression read, operands before their users.
  const std::vector<Expr> &nodes() const { return nodes_; }

private:
  Context &context_;
  std::vector<Expr> nodes_;
};

} // namespace mech::sym
