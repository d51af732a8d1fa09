// describeFmu (FmuDescription.h): a checked and derived model's variables
// with their SI units, each unit with its exponents of FMI's base units.
// The unit names are those of a built library's header for the params
// (siUnitText), of the simulation's columns for the states and outputs
// (columnUnits).
#include "driver/FmuDescription.h"

#include "driver/ColumnUnits.h"
#include "driver/UnitText.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace mech::driver {

namespace {

constexpr size_t kRadian = 7; // FmuUnit::exponents: kg m s A K mol cd rad

// Reads the exponent of rad in a unit's text as formatUnit writes it
// (N*m/rad, rad/s^2, (N*m/rad)/s): the dimension does not see radians,
// FMI's base units do.
class RadianExponent {
public:
  explicit RadianExponent(const std::string &text) : text_(text) {}

  // Nullopt when the text is not of that form.
  std::optional<int> read() {
    std::optional<int> exponent = product();
    return exponent && at_ == text_.size() ? exponent : std::nullopt;
  }

private:
  const std::string &text_;
  size_t at_ = 0;

  bool next(char c) {
    if (at_ >= text_.size() || text_[at_] != c)
      return false;
    ++at_;
    return true;
  }

  // factor (('*' | '/') factor)*
  std::optional<int> product() {
    std::optional<int> sum = factor();
    while (sum) {
      bool over = next('/');
      if (!over && !next('*'))
        break;
      std::optional<int> more = factor();
      sum = more ? std::optional<int>(*sum + (over ? -*more : *more)) : std::nullopt;
    }
    return sum;
  }

  // symbol or '(' product ')', with an optional '^' integer
  std::optional<int> factor() {
    std::optional<int> exponent;
    if (next('(')) {
      exponent = product();
      if (!exponent || !next(')'))
        return std::nullopt;
    } else {
      size_t start = at_;
      while (at_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[at_])))
        ++at_;
      if (at_ == start)
        return std::nullopt;
      exponent = text_.compare(start, at_ - start, "rad") == 0 ? 1 : 0;
    }
    if (!next('^'))
      return exponent;
    bool negative = next('-');
    size_t start = at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])))
      ++at_;
    if (at_ == start || at_ - start > 4)
      return std::nullopt;
    int power = std::stoi(text_.substr(start, at_ - start));
    return *exponent * (negative ? -power : power);
  }
};

// The unit named `name` of a quantity of dimension `dim`, its radians
// counted from the name (only a declared unit's text names them).
FmuUnit unitOf(const std::string &name, const sema::DimInfo &dim) {
  FmuUnit unit;
  unit.name = name;
  for (size_t b = 0; b < sema::Dimension::kBaseCount; ++b) {
    const Rational &e = dim.dimension.exponent(static_cast<sema::Dimension::Base>(b));
    if (!e.isInteger())
      unit.hasBaseUnit = false;
    else
      unit.exponents[b] = static_cast<int>(e.num());
  }
  unit.exponents[kRadian] = RadianExponent(name).read().value_or(0);
  return unit;
}

// The unit of a quantity's second derivative in time, named as
// columnUnits names a rate (th [rad] -> rad/s^2; a dimensionless one's
// 1/s^2).
FmuUnit perSecondSquared(const FmuUnit &unit) {
  FmuUnit rate = unit;
  rate.exponents[sema::Dimension::Time] -= 2;
  if (unit.name.empty())
    rate.name = "1/s^2";
  else if (unit.name.find_first_of("/*^") != std::string::npos)
    rate.name = "(" + unit.name + ")/s^2";
  else
    rate.name = unit.name + "/s^2";
  return rate;
}

// The units the description uses, each once, by name.
class UnitTable {
public:
  // The unit's name for a variable ("" for none), recording the unit.
  std::string use(const FmuUnit &unit) {
    if (unit.name.empty())
      return "";
    units_.emplace(unit.name, unit);
    return unit.name;
  }
  std::vector<FmuUnit> units() const {
    std::vector<FmuUnit> all;
    for (const auto &[name, unit] : units_)
      all.push_back(unit);
    return all;
  }

private:
  std::map<std::string, FmuUnit> units_;
};

// The states q and q' with their initial values and units, and their
// derivatives' units; the names of the units as the simulation's columns
// have them (`columns`, in columnUnits' order).
void describeStates(FmuDescription &d, UnitTable &units, const mechanics::Equations &eq,
                    const std::vector<std::string> &columns, const std::vector<double> &x0) {
  size_t nq = eq.coordinates.size();
  for (size_t j = 0; j < nq; ++j) {
    const std::string &name = eq.coordinates[j];
    sema::DimInfo dim = eq.coordinateDims[j];
    FmuUnit unit = unitOf(columns[j], dim);
    std::optional<sema::Dimension> perSecond = dim.dimension.over(sema::Dimension::time());
    sema::DimInfo speedDim = perSecond ? sema::DimInfo::known(*perSecond) : dim;
    FmuUnit speed = unitOf(columns[nq + j], speedDim);
    // An unchecked coordinate's rates have no unit; a dimensionless one's
    // are per s, per s^2.
    std::string acceleration = dim.isKnown() ? units.use(perSecondSquared(unit)) : "";
    d.coordinates.push_back({name, "coordinate", units.use(unit), x0[j], units.use(speed)});
    d.speeds.push_back(
        {name + "'", "speed of " + name, units.use(speed), x0[nq + j], acceleration});
  }
}

template <class Item> const Item *named(const std::vector<Item> &items, const std::string &name) {
  auto found =
      std::find_if(items.begin(), items.end(), [&](const Item &item) { return item.name == name; });
  return found == items.end() ? nullptr : &*found;
}

} // namespace

FmuDescription describeFmu(const sema::CheckedModel &model, const mechanics::Equations &eq,
                           const std::vector<double> &params, const std::vector<double> &x0) {
  FmuDescription d;
  d.modelName = model.name;
  d.description = "The mech model " + model.name;
  d.generationTool = "mech " MECH_VERSION;
  UnitTable units;
  d.inputs = model.inputCount();
  for (size_t i = 0; i < model.params.size(); ++i) {
    const sema::Param &p = model.params[i];
    d.params.push_back({p.name, p.input ? "input" : "parameter",
                        units.use(unitOf(siUnitText(p.unit, p.dim), p.dim)),
                        i < params.size() ? params[i] : p.value, ""});
  }
  std::vector<std::string> columns = columnUnits(model, eq);
  describeStates(d, units, eq, columns, x0);
  // The outputs end the columns (N, J, W, else base units).
  size_t firstOutput = columns.size() - eq.outputNames.size();
  for (size_t k = 0; k < eq.outputNames.size(); ++k) {
    const sema::Output *output = named(model.outputs, eq.outputNames[k]);
    sema::DimInfo dim = output && output->value ? output->value->dim : sema::DimInfo::unchecked();
    d.outputs.push_back(
        {eq.outputNames[k], "output", units.use(unitOf(columns[firstOutput + k], dim)), 0, ""});
  }
  d.units = units.units();
  d.eventIndicators = eq.events.size() + eq.switches.size(); // and the laws' g
  d.constrained = !eq.constraints.empty();
  return d;
}

} // namespace mech::driver
