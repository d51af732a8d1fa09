// The byte form of a derivation (mechanics/EquationsCodec.h): the node
// table of every expression, then the Equations' fields in declaration
// order, expressions as their numbers in the table.
#include "mechanics/EquationsCodec.h"

#include "mechanics/Lowering.h"
#include "sema/Values.h"
#include "symbolic/ExprCodec.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace mech::mechanics {

namespace {

constexpr uint32_t kFormat = 8; // raised when the layout below changes

// Locations name their file by its number among the sources that are not
// --set texts: those are left out of the cache's key (a param's value does
// not shape the derivation), so the same entry serves runs with and
// without them, whose other sources then have other indices.
bool numbered(const SourceFile &file) {
  return file.path() != sema::assignmentSourceName("--set");
}

// The number of `file` among the numbered sources; their count for none.
uint64_t fileNumber(const SourceManager &sources, const SourceFile *file) {
  uint64_t number = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources.at(i) == file && numbered(*file))
      return number;
    number += numbered(*sources.at(i));
  }
  return number;
}

// The numbered source `number`, or null (for the count, or past it).
const SourceFile *numberedFile(const SourceManager &sources, uint64_t number) {
  for (size_t i = 0; i < sources.size(); ++i)
    if (numbered(*sources.at(i)) && number-- == 0)
      return sources.at(i);
  return nullptr;
}
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
    out.put<uint64_t>(fileNumber(sources_, at.file));
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
    if (!in_.get(file) || file > sources_.size() || !in_.get(at.line) || !in_.get(at.column) ||
        !in_.get(at.length))
      return false;
    at.file = numberedFile(sources_, file);
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
    ok = plain(e.name) && one(e.g) && plain(e.direction) && plain(e.stop) && where(e.location) &&
         count(e.resets);
    for (size_t j = 0; ok && j < e.resets.size(); ++j) {
      auto &r = e.resets[j];
      ok = plain(r.coordinate) && plain(r.order) && one(r.value) && where(r.location);
    }
  }
  ok = ok && count(eq.inputs);
  for (size_t i = 0; ok && i < eq.inputs.size(); ++i) {
    auto &u = eq.inputs[i];
    ok = plain(u.name) && plain(u.param) && plain(u.dim);
  }
  ok = ok && count(eq.where);
  for (size_t i = 0; ok && i < eq.where.size(); ++i)
    ok = one(eq.where[i].name) && one(eq.where[i].definition);
  ok = ok && count(eq.contacts);
  for (size_t i = 0; ok && i < eq.contacts.size(); ++i) {
    auto &c = eq.contacts[i];
    auto &k = c.gap;
    ok = plain(k.name) && one(k.phi) && one(k.psi) && exprList(k.C) && one(k.gamma) &&
         plain(k.multiplierDim) && where(k.location) && one(c.restitution) && one(c.force) &&
         where(c.restitutionLocation);
  }
  ok = ok && count(eq.velocitySwitches);
  for (size_t i = 0; ok && i < eq.velocitySwitches.size(); ++i)
    ok = one(eq.velocitySwitches[i].argument) && where(eq.velocitySwitches[i].location) &&
         plain(eq.velocitySwitches[i].jumps);
  ok = ok && count(eq.tableCalls);
  for (size_t i = 0; ok && i < eq.tableCalls.size(); ++i)
    ok = one(eq.tableCalls[i].law) && plain(eq.tableCalls[i].text) && plain(eq.tableCalls[i].latex);
  ok = ok && count(eq.switches);
  for (size_t i = 0; ok && i < eq.switches.size(); ++i)
    ok = one(eq.switches[i].g) && where(eq.switches[i].location);
  ok = ok && count(eq.frictions);
  for (size_t i = 0; ok && i < eq.frictions.size(); ++i) {
    auto &f = eq.frictions[i];
    auto &k = f.slip;
    ok = plain(k.name) && plain(k.holonomic) && one(k.phi) && one(k.psi) && exprList(k.C) &&
         one(k.gamma) && plain(k.multiplierDim) && where(k.location) && one(f.normal) &&
         one(f.staticCoefficient) && one(f.kineticCoefficient) && one(f.force) &&
         where(f.normalLocation) && plain(f.contact);
  }
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

// Whether every symbol of the table is one of the model's: a coordinate,
// param or multiplier by an index within its count (the kernels address
// their inputs by these indices).
bool symbolsFit(const sym::ExprDecoder &exprs, const sym::Context &context, size_t params,
                size_t coordinates, size_t multipliers) {
  for (const sym::Expr &e : exprs.nodes()) {
    if (e.kind() != sym::Kind::Symbol)
      continue;
    const sym::SymbolInfo &info = context.symbolInfo(e.node());
    if (info.kind != sym::SymbolKind::Coord && info.order != 0)
      return false;
    size_t bound = info.kind == sym::SymbolKind::Param        ? params
                   : info.kind == sym::SymbolKind::Coord      ? coordinates
                   : info.kind == sym::SymbolKind::Multiplier ? multipliers
                                                              : SIZE_MAX; // not indexed
    if (bound != SIZE_MAX && (info.index < 0 || size_t(info.index) >= bound))
      return false;
  }
  return true;
}

// Whether the decoded equations have the shape a derivation of `model`
// has: one entry per coordinate where the fields are per coordinate, a
// square mass matrix, a multiplier per constraint, no missing expression,
// indices within their tables. The later stages index by these sizes
// unchecked; an entry that passed its checksum but breaks them (written
// by a faulty build, or altered with the checksum recomputed) is a miss.
bool shapeFits(const Equations &eq, const sema::CheckedModel &model, const SourceManager &sources) {
  const size_t n = model.coords.size(), m = eq.constraints.size();
  auto sized = [](const auto &list, size_t size) { return list.size() == size; };
  auto whole = [](const std::vector<sym::Expr> &list) {
    return std::all_of(list.begin(), list.end(), [](const sym::Expr &e) { return bool(e); });
  };
  auto perCoordinate = [&](const std::vector<sym::Expr> &list) {
    return sized(list, n) && whole(list);
  };
  auto placed = [&](const Location &at) {
    return !at.file || (at.line >= 0 && at.line <= at.file->lineCount() && at.column >= 0 &&
                        at.length >= 0 && sources.indexOf(at.file) < sources.size());
  };
  if (!sized(eq.coordinates, n) || !sized(eq.coordinateDims, n) || !sized(eq.Qdim, n) ||
      !sized(eq.M, n) || !perCoordinate(eq.Q) || !perCoordinate(eq.Qnc) || !perCoordinate(eq.f) ||
      !perCoordinate(eq.momentum) || !perCoordinate(eq.force) || !perCoordinate(eq.lhs) ||
      !sized(eq.multipliers, m) || !whole(eq.multipliers) || !whole(eq.outputs) ||
      !sized(eq.outputNames, eq.outputs.size()) || m > kMaxConstraints)
    return false;
  for (const sym::Expr *e : {&eq.T, &eq.V, &eq.D, &eq.L, &eq.T2, &eq.T1, &eq.T0})
    if (!*e)
      return false;
  for (const std::vector<sym::Expr> &row : eq.M)
    if (!perCoordinate(row))
      return false;
  for (const Equations::Event &e : eq.events) {
    if (!e.g || e.direction < -1 || e.direction > 1 || !placed(e.location))
      return false;
    for (const Equations::Reset &r : e.resets)
      if (r.coordinate >= n || r.order < 0 || r.order > 1 || !r.value || !placed(r.location))
        return false;
  }
  if (eq.contacts.size() != model.contacts.size())
    return false;
  for (const Equations::Contact &c : eq.contacts)
    if (!c.gap.phi || !c.gap.psi || !c.gap.gamma || !perCoordinate(c.gap.C) ||
        !placed(c.gap.location) || !c.restitution || !c.force || !placed(c.restitutionLocation))
      return false;
  for (const Equations::VelocitySwitch &s : eq.velocitySwitches)
    if (!s.argument || !placed(s.location))
      return false;
  for (const Equations::Switch &s : eq.switches)
    if (!s.g || !placed(s.location))
      return false;
  for (const NamedLaw &call : eq.tableCalls)
    if (!call.law)
      return false;
  if (eq.frictions.size() != model.frictions.size())
    return false;
  for (const Equations::Friction &f : eq.frictions)
    if (!f.slip.phi || !f.slip.psi || !f.slip.gamma || !perCoordinate(f.slip.C) ||
        !placed(f.slip.location) || !f.normal || !f.staticCoefficient || !f.kineticCoefficient ||
        !f.force || !placed(f.normalLocation) || f.contact < -1 ||
        f.contact >= static_cast<int>(eq.contacts.size()))
      return false;
  for (const Equations::Input &u : eq.inputs)
    if (u.param >= model.params.size())
      return false;
  for (const sym::NamedSubexpression &w : eq.where)
    if (!w.name || !w.definition)
      return false;
  for (const Equations::Constraint &c : eq.constraints)
    if (!c.phi || !c.psi || !c.gamma || !perCoordinate(c.C) || !placed(c.location) ||
        (c.integral && !*c.integral))
      return false;
  return true;
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
  const Equations &eq = result.equations;
  if (!visit(fields, result.equations) || !in.done() || eq.model != model.name ||
      !shapeFits(eq, model, sources) ||
      !symbolsFit(exprs, *result.context, model.params.size(), model.coords.size(),
                  eq.constraints.size() + eq.contacts.size() + eq.frictions.size()))
    return std::nullopt;
  return result;
}

} // namespace mech::mechanics
