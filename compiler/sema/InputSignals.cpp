// `--input` values: expressions of t through the model's own parser and
// resolver, tables read from CSV files.
#include "sema/InputSignals.h"

#include "sema/Resolver.h"
#include "support/InputFile.h"
#include "support/ListItems.h"
#include "support/NumberText.h"
#include "syntax/Parser.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mech::sema {

namespace {

// One `name = value` item of the option's text, where it starts.
struct Item {
  size_t begin = 0, end = 0; // [begin, end) in the text, the comma excluded
  std::string name, value;   // trimmed
  size_t valueColumn = 0;    // 0-based offset of the value
};

std::string trim(const std::string &s, size_t *leading = nullptr) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  if (leading)
    *leading = a == std::string::npos ? 0 : a;
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The items, each split at its first '='.
std::vector<Item> splitItems(const std::string &text) {
  std::vector<Item> items;
  for (const ListItem &span : splitListItems(text)) {
    Item item{span.begin, span.end, "", "", 0};
    std::string part = text.substr(span.begin, span.end - span.begin);
    size_t eq = part.find('=');
    if (eq != std::string::npos) {
      item.name = trim(part.substr(0, eq));
      size_t leading = 0;
      item.value = trim(part.substr(eq + 1), &leading);
      item.valueColumn = span.begin + eq + 1 + leading;
    }
    items.push_back(item);
  }
  return items;
}

bool isTableFile(const std::string &value) {
  return value.size() > 4 && value.compare(value.size() - 4, 4, ".csv") == 0;
}

std::vector<std::string> splitCsvLine(const std::string &line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ','))
    cells.push_back(trim(cell));
  if (!line.empty() && line.back() == ',')
    cells.push_back("");
  return cells;
}

std::optional<double> number(const std::string &cell) {
  char *end = nullptr;
  double value = std::strtod(cell.c_str(), &end);
  if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

// Where t and the input's values are in each row.
struct TableColumns {
  size_t t = 0, value = 1;
};

std::string joined(const std::vector<std::string> &cells) {
  std::string out;
  for (const std::string &cell : cells)
    out += (out.empty() ? "" : ", ") + cell;
  return out;
}

// The columns from the first row: a header (any cell not a number) must
// name both t and the input, in any order; rows without one must be two
// columns, t then the value. "" or the error.
std::string tableColumns(const std::vector<std::string> &cells, const std::string &name,
                         bool header, TableColumns &columns) {
  if (!header) {
    if (cells.size() == 2)
      return "";
    return std::to_string(cells.size()) + " columns and none named '" + name +
           "': name the columns in a header line (t, " + name + ", ...)";
  }
  auto t = std::find(cells.begin(), cells.end(), "t");
  auto named = std::find(cells.begin(), cells.end(), name);
  if (t == cells.end() || named == cells.end())
    return "the header line (" + joined(cells) + ") must name the time column 't' and the " +
           "input's column '" + name + "'";
  columns.t = static_cast<size_t>(t - cells.begin());
  columns.value = static_cast<size_t>(named - cells.begin());
  return "";
}

// Reads the table of `signal` (its name picks the column): an optional
// header line, then rows of t and values, t increasing. Only a regular
// file no larger than a model file is read. "" or the error.
std::string readTable(InputSignal &signal, double scale) {
  std::string error;
  std::optional<std::string> text = readInputFile(signal.file, kMaxFileSize, error);
  if (!text)
    return error;
  // A UTF-8 byte-order mark, as spreadsheets write, is not part of the first cell.
  size_t at = text->compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::optional<TableColumns> columns;
  for (long lineNumber = 1; at < text->size(); ++lineNumber) {
    size_t newline = std::min(text->find('\n', at), text->size());
    std::string line = text->substr(at, newline - at);
    at = newline + 1;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (trim(line).empty() || trim(line)[0] == '#')
      continue;
    std::string where = signal.file + ":" + std::to_string(lineNumber) + ": ";
    std::vector<std::string> cells = splitCsvLine(line);
    if (!columns) {
      bool header = std::any_of(cells.begin(), cells.end(),
                                [](const std::string &cell) { return !number(cell); });
      columns.emplace();
      if (std::string bad = tableColumns(cells, signal.name, header, *columns); !bad.empty())
        return where + bad;
      if (header)
        continue;
    }
    if (cells.size() <= std::max(columns->t, columns->value))
      return where + "the row has no column " +
             std::to_string(std::max(columns->t, columns->value) + 1);
    const std::string &tCell = cells[columns->t], &uCell = cells[columns->value];
    std::optional<double> t = number(tCell), u = number(uCell);
    if (!t || !u)
      return where + "'" + (!t ? tCell : uCell) + "' is not a finite number";
    if (!signal.times.empty() && *t <= signal.times.back())
      return where + "the times must increase (" + shortestNumber(*t) + " follows " +
             shortestNumber(signal.times.back()) + ")";
    signal.times.push_back(*t);
    signal.values.push_back(*u * scale);
  }
  return signal.times.empty() ? signal.file + ": no rows of values" : "";
}

// The expression items, checked against their inputs; the table items are
// blanked out of the text first (their places kept, so carets still point
// right).
bool parseExpressions(Compilation &compilation, const std::string &origin, std::string text,
                      const std::vector<Item> &tables, InputSignals &result,
                      const std::shared_ptr<CheckedModel> &scratch) {
  const std::string shown = text;
  for (const Item &item : tables)
    for (size_t i = item.begin; i < std::min(item.end + 1, text.size()); ++i)
      text[i] = ' ';
  if (trim(text).empty())
    return true;
  Diagnostics &diagnostics = compilation.diagnostics();
  const SourceFile &source = compilation.sources().add("<" + origin + ">", text, shown);
  auto items = mech::parseAssignments(source, diagnostics);
  if (!items)
    return false;
  Resolver resolver(*scratch, diagnostics);
  for (size_t i = 0; i < scratch->params.size(); ++i)
    if (!scratch->params[i].input)
      resolver.symbols.emplace(
          scratch->params[i].name,
          Symbol{
              SymbolKind::Param, scratch->params[i].location, false, static_cast<int>(i), {}, {}});
  bool ok = true;
  for (const ast::InitItem &item : *items) {
    auto input = std::find_if(scratch->params.begin(), scratch->params.end(),
                              [&](const Param &p) { return p.input && p.name == item.name; });
    if (input == scratch->params.end() || !item.indices.empty() || item.primes > 0) {
      diagnostics.error(item.location, "'" + item.name + "' is not an input of " + scratch->name);
      ok = false;
      continue;
    }
    Env env;
    env.plainTime = true;
    ExprRef value = resolver.resolve(*item.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    if (value->dim.isKnown() && input->dim.isKnown() && !value->dim.dimension.isDimensionless() &&
        !(value->dim.dimension == input->dim.dimension)) {
      diagnostics.error(item.value->location,
                        "'" + item.name + "' has dimension " + input->dim.dimension.toString() +
                            ", the value given has " + value->dim.dimension.toString());
      ok = false;
      continue;
    }
    if (!value->shape.isScalar() || !evaluateScalar(*scratch, value, 0.0)) {
      diagnostics.error(item.value->location, "the value of input '" + item.name +
                                                  "' must be a scalar expression of t and "
                                                  "the params");
      ok = false;
      continue;
    }
    // A plain number is in the input's declared unit, as for a param.
    double scale = value->dim.isKnown() && value->dim.dimension.isDimensionless() && input->unit
                       ? input->unit->scale
                       : 1.0;
    if (scale != 1.0)
      value = resolver.make(ExprKind::Mul, value->shape, input->dim, value->location,
                            {resolver.number(scale, std::nullopt, value->location), value});
    InputSignal signal;
    signal.name = item.name;
    signal.param = static_cast<size_t>(input - scratch->params.begin());
    signal.value = value;
    result.signals.push_back(signal);
  }
  return ok;
}

} // namespace

double InputSignals::value(const InputSignal &signal, double t) const {
  if (signal.value)
    return evaluateScalar(*params, signal.value, t).value_or(std::nan(""));
  const std::vector<double> &ts = signal.times, &us = signal.values;
  if (t <= ts.front())
    return us.front();
  if (t >= ts.back())
    return us.back();
  size_t k = static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), t) - ts.begin());
  double w = (t - ts[k - 1]) / (ts[k] - ts[k - 1]);
  return us[k - 1] + w * (us[k] - us[k - 1]);
}

void InputSignals::fill(double t, double *p) const {
  for (const InputSignal &signal : signals)
    p[signal.param] = value(signal, t);
}

bool InputSignals::varies() const {
  for (const InputSignal &signal : signals)
    if (signal.value ? signal.value->usesTime : signal.times.size() > 1)
      return true;
  return false;
}

std::optional<InputSignals> parseInputSignals(Compilation &compilation, const std::string &origin,
                                              const std::string &text, const CheckedModel &model) {
  auto scratch = std::make_shared<CheckedModel>();
  scratch->name = model.name;
  scratch->params = model.params;
  InputSignals result;
  result.params = scratch;
  std::vector<Item> items = splitItems(text), tables;
  for (const Item &item : items)
    if (isTableFile(item.value))
      tables.push_back(item);
  bool ok = parseExpressions(compilation, origin, text, tables, result, scratch);
  const SourceFile *source =
      tables.empty() ? nullptr : &compilation.sources().add("<" + origin + ">", text);
  for (const Item &item : tables) {
    Location at{source, 1, static_cast<int>(item.valueColumn) + 1,
                static_cast<int>(item.value.size())};
    auto input = std::find_if(model.params.begin(), model.params.end(),
                              [&](const Param &p) { return p.input && p.name == item.name; });
    if (input == model.params.end()) {
      compilation.diagnostics().error(at, "'" + item.name + "' is not an input of " + model.name);
      ok = false;
      continue;
    }
    InputSignal signal;
    signal.name = item.name;
    signal.param = static_cast<size_t>(input - model.params.begin());
    signal.file = item.value;
    std::string error = readTable(signal, input->unit ? input->unit->scale : 1.0);
    if (!error.empty()) {
      compilation.diagnostics().error(at, error);
      ok = false;
      continue;
    }
    result.signals.push_back(std::move(signal));
  }
  for (size_t i = 0; ok && i < result.signals.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (result.signals[i].param == result.signals[j].param) {
        compilation.diagnostics().error(Location{},
                                        "--input: '" + result.signals[i].name + "' is given twice");
        ok = false;
      }
  if (!ok)
    return std::nullopt;
  return result;
}

std::vector<std::string> inputTableFiles(const std::string &text) {
  std::vector<std::string> files;
  for (const Item &item : splitItems(text))
    if (isTableFile(item.value))
      files.push_back(item.value);
  return files;
}

} // namespace mech::sema
