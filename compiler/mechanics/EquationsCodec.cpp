// The byte form of a derivation (mechanics/EquationsCodec.h): the node
// table of every expression, then the Equations' fields in declaration
// order, expressions as their numbers in the table.
#include "mechanics/EquationsCodec.h"

#include "mechanics/Lowering.h"
#include "symbolic/ExprCodec.h"

#include <type_traits>

namespace mech::mechanics {

namespace {

constexpr uint32_t kFormat = 1; // raised when the layout below changes
static_assert(std::is_trivially_copyable_v<sema::DimInfo>);

// Writes fields; expressions go to the encoder and are written as numbers.
class FieldWriter {
public:
  FieldWriter(const SourceManager &sources) : sources_(sources) {}

  // Each returns true, as FieldReader's do when they read: one visit()
  // serves both.
  bool expr(const sym::Expr &e) {
    out.put<uint32_t>(e ? exprs.add(e) + 1 : 0);
    return true;
  }
  bool exprList(const std::vector<sym::Expr> &list) {
    out.put<uint64_t>(list.size());
    for (const sym::Expr &e : list)
      expr(e);
    return true;
  }
  bool location(const Location &at) {
    out.put<uint64_t>(at.file ? sources_.indexOf(at.file) : sources_.size());
    out.put<int32_t>(at.line);
    out.put<int32_t>(at.column);
    out.put<int32_t>(at.length);
    return true;
  }
  template <typename T> bool value(const T &v) {
    out.put(v);
    return true;
  }

  ByteWriter out;
  sym::ExprEncoder exprs;

private:
  const SourceManager &sources_;
};

class FieldReader {
public:
  FieldReader(ByteReader &in, const sym::ExprDecoder &exprs, const SourceManager &sources)
      : in_(in), exprs_(exprs), sources_(sources) {}

  bool expr(sym::Expr &e) {
    uint32_t index = 0;
    if (!in_.get(index))
      return false;
    if (index == 0) {
      e = sym::Expr();
      return true;
    }
    return exprs_.get(index - 1, e);
  }
  bool exprList(std::vector<sym::Expr> &list) {
    uint64_t count = 0;
    if (!in_.getCount(count, 4))
      return false;
    list.resize(count);
    for (sym::Expr &e : list)
      if (!expr(e))
        return false;
    return true;
  }
  bool location(Location &at) {
    uint64_t file = 0;
    if (!in_.get(file) || !in_.get(at.line) || !in_.get(at.column) || !in_.get(at.length))
      return false;
    at.file = sources_.at(file);
    return true;
  }
  template <typename T> bool value(T &v) { return in_.get(v); }

private:
  ByteReader &in_;
  const sym::ExprDecoder &exprs_;
  const SourceManager &sources_;
};

// One function for both directions: each field once, in one order.
template <typename Fields, typename Eq> bool visit(Fields &f, Eq &eq) {
  constexpr bool writing = std::is_same_v<Fields, FieldWriter>;
  auto exprList = [&](auto &list) { return f.exprList(list); };
  auto one = [&](auto &e) { return f.expr(e); };
  auto plain = [&](auto &v) { return f.value(v); };
  auto where = [&](auto &at) { return f.location(at); };
  // A count, and (when reading) the list resized to it.
  auto count = [&](auto &list) {
    uint64_t n = list.size();
    if (!f.value(n) || n > (uint64_t(1) << 24))
      return false;
    if constexpr (!writing)
      list.resize(n);
    return true;
  };
  bool ok = plain(eq.model) && count(eq.coordinates);
  for (size_t i = 0; ok && i < eq.coordinates.size(); ++i)
    ok = plain(eq.coordinates[i]);
  ok = ok && count(eq.coordinateDims);
  for (size_t i = 0; ok && i < eq.coordinateDims.size(); ++i)
    ok = plain(eq.coordinateDims[i]);
  ok = ok && one(eq.T) && one(eq.V) && one(eq.D) && one(eq.L) && one(eq.T2) && one(eq.T1) &&
       one(eq.T0) && exprList(eq.Q) && exprList(eq.Qnc) && count(eq.Qdim);
  for (size_t i = 0; ok && i < eq.Qdim.size(); ++i)
    ok = plain(eq.Qdim[i]);
  ok = ok && count(eq.M);
  for (size_t i = 0; ok && i < eq.M.size(); ++i)
    ok = exprList(eq.M[i]);
  ok = ok && exprList(eq.f) && exprList(eq.momentum) && exprList(eq.force) && exprList(eq.lhs) &&
       exprList(eq.outputs) && count(eq.outputNames);
  for (size_t i = 0; ok && i < eq.outputNames.size(); ++i)
    ok = plain(eq.outputNames[i]);
  ok = ok && count(eq.events);
  for (size_t i = 0; ok && i < eq.events.size(); ++i) {
    auto &e = eq.events[i];
    ok = plain(e.name) && one(e.g) && plain(e.direction) && plain(e.stop) && where(e.location);
  }
  ok = ok && count(eq.inputs);
  for (size_t i = 0; ok && i < eq.inputs.size(); ++i) {
    auto &u = eq.inputs[i];
    ok = plain(u.name) && plain(u.param) && plain(u.dim);
  }
  ok = ok && count(eq.where);
  for (size_t i = 0; ok && i < eq.where.size(); ++i)
    ok = one(eq.where[i].name) && one(eq.where[i].definition);
  ok = ok && count(eq.constraints);
  for (size_t i = 0; ok && i < eq.constraints.size(); ++i) {
    auto &c = eq.constraints[i];
    bool hasIntegral = c.integral.has_value();
    ok = plain(c.name) && plain(c.holonomic) && one(c.phi) && one(c.psi) && exprList(c.C) &&
         one(c.gamma) && plain(c.multiplierDim) && where(c.location) && plain(c.integrable) &&
         plain(hasIntegral);
    if (ok && hasIntegral) {
      if constexpr (!writing)
        c.integral.emplace();
      ok = one(*c.integral);
    }
  }
  return ok && exprList(eq.multipliers) && plain(eq.conservative) && plain(eq.hasExplicitTime);
}

} // namespace

std::string encodeDerivation(const Derivation &derivation, const SourceManager &sources) {
  FieldWriter fields(sources);
  visit(fields, derivation.equations);
  ByteWriter out;
  out.put(kFormat);
  fields.exprs.write(out);
  std::string bytes = out.take();
  return bytes + fields.out.bytes();
}

std::optional<Derivation> decodeDerivation(std::string_view bytes, const sema::CheckedModel &model,
                                           const SourceManager &sources) {
  Derivation result;
  result.context = std::make_unique<sym::Context>();
  // The model's symbols first, as deriving makes them (coordinates with
  // their derivatives, params, multipliers).
  result.lowering = std::make_unique<Lowering>(model, *result.context);
  ByteReader in(bytes);
  uint32_t format = 0;
  sym::ExprDecoder exprs(*result.context);
  if (!in.get(format) || format != kFormat || !exprs.read(in))
    return std::nullopt;
  FieldReader fields(in, exprs, sources);
  if (!visit(fields, result.equations) || !in.done() || result.equations.model != model.name)
    return std::nullopt;
  return result;
}

} // namespace mech::mechanics
