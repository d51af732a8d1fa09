// Units of the sample columns (ColumnUnits.h).
#include "driver/ColumnUnits.h"

#include "driver/Reports.h"

#include <algorithm>

namespace mech::driver {

namespace {

// A dimension's SI form; "" when unknown or dimensionless.
std::string siUnit(const sema::DimInfo &dim) {
  if (!dim.isKnown() || dim.dimension.isDimensionless())
    return "";
  return dim.dimension.toString();
}

// An output in the named SI unit of its dimension where it has a common
// one (N, J, W), else in base units.
std::string outputUnit(const sema::DimInfo &dim) {
  if (dim.isKnown()) {
    const sema::Dimension &d = dim.dimension;
    if (d == sema::Dimension::force())
      return "N";
    if (d == sema::Dimension::energy())
      return "J";
    if (d == sema::Dimension::power())
      return "W";
  }
  return siUnit(dim);
}

std::string coordinateUnit(const sema::Coord &q) {
  if (q.unit)
    return q.unit->text == "1" ? "" : q.unit->text;
  return siUnit(q.dim);
}

// th' of th [rad] is in rad/s; x' of x [m] in m/s; a dimensionless
// coordinate's rate in 1/s.
std::string rateUnit(const sema::Coord &q) {
  std::string unit = coordinateUnit(q);
  if (unit.empty())
    return q.dim.isKnown() ? "1/s" : "";
  bool compound = unit.find_first_of("/*^") != std::string::npos;
  return (compound ? "(" + unit + ")" : unit) + "/s";
}

template <class Item> const Item *named(const std::vector<Item> &items, const std::string &name) {
  auto found =
      std::find_if(items.begin(), items.end(), [&](const Item &item) { return item.name == name; });
  return found == items.end() ? nullptr : &*found;
}

} // namespace

std::vector<std::string> columnUnits(const sema::CheckedModel &model,
                                     const mechanics::Equations &eq) {
  std::vector<std::string> units;
  for (const std::string &name : eq.coordinates) {
    const sema::Coord *q = named(model.coords, name);
    units.push_back(q ? coordinateUnit(*q) : "");
  }
  for (const std::string &name : eq.coordinates) {
    const sema::Coord *q = named(model.coords, name);
    units.push_back(q ? rateUnit(*q) : "");
  }
  for (const auto &constraint : eq.constraints) {
    const sema::Constraint *c = named(model.constraints, constraint.name);
    units.push_back(c ? forceUnit(c->multiplierDim) : "");
  }
  for (const auto &contact : eq.contacts)
    units.push_back(forceUnit(contact.gap.multiplierDim));
  for (const std::string &name : eq.outputNames) {
    const sema::Output *o = named(model.outputs, name);
    units.push_back(o && o->value ? outputUnit(o->value->dim) : "");
  }
  return units;
}

} // namespace mech::driver
