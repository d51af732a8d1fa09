// `draw` hints (Analyzer::checkDecl(DrawDecl)): each shape's arguments by
// count, shape and dimension, so that `mech animate` can evaluate them as
// they are. They change nothing in the equations.
#include "sema/AnalyzerInternal.h"

#include <array>

namespace mech::sema {

namespace {

enum class Arg { Position, Length, Angle, Size };

struct ShapeRule {
  const char *name;
  std::vector<Arg> required, optional;
  const char *usage;
};

const std::array<ShapeRule, 6> kShapes = {{
    {"rod", {Arg::Position, Arg::Position}, {}, "rod(a, b): a segment between two positions"},
    {"spring", {Arg::Position, Arg::Position}, {}, "spring(a, b): a zig-zag between two positions"},
    {"point", {Arg::Position}, {}, "point(p): a dot at a position"},
    {"disk",
     {Arg::Position, Arg::Length},
     {Arg::Angle},
     "disk(c, r[, angle]): a disk of radius r at c, with a mark turned by angle"},
    {"box",
     {Arg::Position, Arg::Size},
     {Arg::Angle},
     "box(c, [w, h][, angle]): a rectangle of width w and height h centred at c, turned by "
     "angle"},
    {"ground", {Arg::Length}, {}, "ground(h): the line y = h of a planar drawing"},
}};

bool isPlanarOrSpatialVector(const Shape &s) {
  return s.isVector() && (s.rows == 2 || s.rows == 3);
}
bool isPlanarVector(const Shape &s) {
  return s.isVector() && s.rows == 2;
}

std::string shapeList() {
  std::string names;
  for (const ShapeRule &rule : kShapes)
    names += (names.empty() ? "" : ", ") + std::string(rule.name);
  return names;
}

} // namespace

void Analyzer::checkDecl(const ast::DrawDecl &d, const Instance &instance) {
  const ShapeRule *rule = nullptr;
  for (const ShapeRule &r : kShapes)
    if (d.shape == r.name)
      rule = &r;
  if (rule == nullptr) {
    diagnostics_.error(d.shapeLocation,
                       "draw: unknown shape '" + d.shape + "' (one of " + shapeList() + ")");
    return;
  }
  size_t most = rule->required.size() + rule->optional.size();
  if (d.args.size() < rule->required.size() || d.args.size() > most) {
    diagnostics_.error(
        d.shapeLocation,
        "draw: " + std::string(rule->usage) + " takes " + std::to_string(rule->required.size()) +
            (most > rule->required.size() ? " or " + std::to_string(most) : std::string()) +
            " arguments, " + std::to_string(d.args.size()) + " given");
    return;
  }
  Drawing drawing{d.shape, instance.decl->location, {}};
  bool ok = true;
  for (size_t i = 0; i < d.args.size(); ++i) {
    Arg kind =
        i < rule->required.size() ? rule->required[i] : rule->optional[i - rule->required.size()];
    const Location &where = d.args[i]->location;
    ExprRef value = resolve(*d.args[i], instance);
    if (!value) {
      ok = false;
      continue;
    }
    std::string what = "draw " + d.shape + "'s argument " + std::to_string(i + 1);
    bool fits = false;
    switch (kind) {
    case Arg::Position:
      fits = expectShape(value, where, what, isPlanarOrSpatialVector, "a vector of 2 or 3") &&
             expectDimension(value, where, what, Dimension::length(), "a length");
      break;
    case Arg::Length:
      fits = expectShape(value, where, what, isScalar, "a scalar") &&
             expectDimension(value, where, what, Dimension::length(), "a length");
      break;
    case Arg::Angle:
      fits = expectShape(value, where, what, isScalar, "a scalar") &&
             expectDimension(value, where, what, Dimension(), "an angle");
      break;
    case Arg::Size:
      fits = expectShape(value, where, what, isPlanarVector, "a vector of 2 (width, height)") &&
             expectDimension(value, where, what, Dimension::length(), "a length");
      break;
    }
    fits = fits && expectOrder(value, where, what, 0);
    ok = ok && fits;
    drawing.args.push_back(value);
  }
  if (ok)
    model_->drawings.push_back(std::move(drawing));
}

} // namespace mech::sema
