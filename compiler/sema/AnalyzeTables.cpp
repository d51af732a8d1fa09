// Tables in the analyzer: each `table` declaration's rows, read from its
// CSV file (a source of the compilation, so that an error points at the
// cell and the derivation cache keys on the file's bytes) or written inline
// as a matrix of numbers, scaled to SI by the declared units and checked:
// two columns, a header naming the argument and the table, numbers in every
// cell, abscissae strictly increasing.
#include "sema/AnalyzerInternal.h"
#include "sema/ResolverInternal.h"
#include "sema/Units.h"
#include "support/NumberText.h"
#include "syntax/Printer.h"

#include <charconv>
#include <cmath>
#include <filesystem>

namespace mech::sema {

namespace {

// The fields of one CSV line, each with its 1-based column.
struct Field {
  std::string text;
  int column = 1;
};

std::string trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

std::vector<Field> fields(std::string_view line) {
  std::vector<Field> out;
  size_t start = 0;
  for (;;) {
    size_t comma = line.find(',', start);
    std::string_view raw =
        line.substr(start, comma == std::string_view::npos ? line.size() - start : comma - start);
    size_t lead = raw.find_first_not_of(" \t");
    out.push_back(
        {trimmed(raw), static_cast<int>(start + (lead == std::string_view::npos ? 0 : lead)) + 1});
    if (comma == std::string_view::npos)
      return out;
    start = comma + 1;
  }
}

// A header name without the unit that may follow it in brackets.
std::string headerName(const std::string &field) {
  return trimmed(field.substr(0, field.find('[')));
}

// The unit in brackets after a header name, without spaces ("" if none).
std::string headerUnit(const std::string &field) {
  size_t open = field.find('['), close = field.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return "";
  std::string unit;
  for (char c : field.substr(open + 1, close - open - 1))
    if (c != ' ' && c != '\t')
      unit += c;
  return unit;
}

} // namespace

void Analyzer::declareTables() {
  for (const ast::Decl &decl : modelDecl_.body)
    if (auto *table = std::get_if<ast::TableDecl>(&decl.node))
      declareTable(*table, decl.location);
}

void Analyzer::declareTable(const ast::TableDecl &decl, Location at) {
  // The symbol names no entry (-1) until the rows are read.
  if (!declareSymbol(decl.name, {}, SymbolKind::Table, -1, decl.nameLocation))
    return;
  Table table;
  table.name = decl.name;
  table.argument = decl.argument;
  table.location = at;
  table.cubic = decl.cubic;
  table.linearExtrapolation = decl.linearExtrapolation;
  table.argumentDim = table.dim = DimInfo::unchecked();
  double scales[2] = {1, 1};
  const std::optional<ast::Unit> *units[2] = {&decl.argumentUnit, &decl.unit};
  DimInfo *dims[2] = {&table.argumentDim, &table.dim};
  for (int i = 0; i < 2; ++i) {
    if (!*units[i])
      continue;
    std::optional<UnitValue> unit = evaluateUnit(**units[i], diagnostics_);
    if (!unit)
      return;
    scales[i] = unit->scaleAsDouble();
    *dims[i] = DimInfo::known(unit->dimension);
  }
  if (!tableRows(decl, table))
    return;
  for (double &x : table.x)
    x *= scales[0];
  for (double &y : table.y)
    y *= scales[1];
  model_->tables.push_back(std::move(table));
  // The symbol names the entry just added.
  resolver_.symbols.at(decl.name).index = static_cast<int>(model_->tables.size() - 1);
}

bool Analyzer::tableRows(const ast::TableDecl &decl, Table &table) {
  if (!(decl.path ? tableRowsFromFile(decl, table) : tableRowsInline(decl, table)))
    return false;
  if (table.x.size() < 2) {
    diagnostics_.error(decl.nameLocation,
                       "table '" + decl.name + "' has " + std::to_string(table.x.size()) + " row" +
                           (table.x.size() == 1 ? "" : "s") + "; it needs at least 2");
    return false;
  }
  return true;
}

// The rows of a CSV file: a header naming the argument and the table, then
// one row of two numbers per line; `#` lines and blank lines are skipped.
bool Analyzer::tableRowsFromFile(const ast::TableDecl &decl, Table &table) {
  namespace fs = std::filesystem;
  fs::path path(*decl.path);
  if (path.is_relative() && !file_.path.empty())
    path = fs::path(file_.path).parent_path() / path;
  table.source = *decl.path;
  const SourceFile *csv = compilation_.readData(path.string(), decl.pathLocation);
  if (!csv)
    return false;
  auto at = [csv](int line, int column, int length = 1) {
    return Location{csv, line, column, std::max(1, length)};
  };
  bool header = false;
  for (int line = 1; line <= csv->lineCount(); ++line) {
    std::string text = trimmed(csv->line(line));
    if (text.empty() || text[0] == '#')
      continue;
    std::vector<Field> cells = fields(csv->line(line));
    if (cells.size() != 2) {
      diagnostics_.error(at(line, 1, static_cast<int>(csv->line(line).size())),
                         "a table's row has 2 cells (" + decl.argument + ", " + decl.name +
                             "), found " + std::to_string(cells.size()));
      return false;
    }
    if (!header) {
      header = true;
      // A byte order mark (spreadsheets write one) is not part of the name.
      if (line == 1 && cells[0].text.rfind("\xEF\xBB\xBF", 0) == 0)
        cells[0].text.erase(0, 3);
      if (!headerUnitsAgree(decl, cells[0].text, cells[1].text, at(line, 1)))
        return false;
      if (headerName(cells[0].text) != decl.argument || headerName(cells[1].text) != decl.name) {
        diagnostics_.error(at(line, 1, static_cast<int>(csv->line(line).size())),
                           "the header names the columns '" + headerName(cells[0].text) +
                               "' and '" + headerName(cells[1].text) + "'; table " + decl.name +
                               "(" + decl.argument + ") reads '" + decl.argument + "' and '" +
                               decl.name + "' (a unit in brackets may follow each name)");
        return false;
      }
      continue;
    }
    double values[2];
    for (int i = 0; i < 2; ++i) {
      const Field &cell = cells[static_cast<size_t>(i)];
      const char *begin = cell.text.data(), *end = begin + cell.text.size();
      if (begin != end && *begin == '+' && end - begin > 1 && begin[1] != '-')
        ++begin; // from_chars takes no sign but '-'
      auto [stop, error] = std::from_chars(begin, end, values[i]);
      if (cell.text.empty() || error != std::errc() || stop != end || !std::isfinite(values[i])) {
        diagnostics_.error(at(line, cell.column, static_cast<int>(cell.text.size())),
                           cell.text.empty() ? "a missing cell"
                                             : "'" + cell.text + "' is not a finite number");
        return false;
      }
    }
    if (!addTableRow(decl, table, values, cells[0].text,
                     at(line, cells[0].column, static_cast<int>(cells[0].text.size()))))
      return false;
  }
  if (!header) {
    diagnostics_.error(decl.pathLocation, "'" + *decl.path + "' has no header line ('" +
                                              decl.argument + "," + decl.name + "')");
    return false;
  }
  return true;
}

// A row (x, y) after the rows before it, x written as `x` at `at`: its
// abscissa above theirs, at most kMaxTableRows rows. False after an error.
bool Analyzer::addTableRow(const ast::TableDecl &decl, Table &table, const double (&row)[2],
                           const std::string &x, Location at) {
  if (!table.x.empty() && !(row[0] > table.x.back())) {
    diagnostics_.error(at, row[0] == table.x.back()
                               ? "this row repeats the abscissa " + x + " of the row before"
                               : "the abscissa " + x +
                                     " is below the row before's: the rows must be in "
                                     "increasing order of " +
                                     decl.argument);
    return false;
  }
  if (table.x.size() >= kMaxTableRows) {
    diagnostics_.error(at, "a table has at most " + std::to_string(kMaxTableRows) + " rows");
    return false;
  }
  table.x.push_back(row[0]);
  table.y.push_back(row[1]);
  return true;
}

// The units a header writes after its names, if any, are the
// declaration's (as written, spaces aside): the numbers are read in those.
bool Analyzer::headerUnitsAgree(const ast::TableDecl &decl, const std::string &argument,
                                const std::string &value, Location at) {
  const std::optional<ast::Unit> *declared[2] = {&decl.argumentUnit, &decl.unit};
  const std::string written[2] = {headerUnit(argument), headerUnit(value)};
  for (int i = 0; i < 2; ++i) {
    if (written[i].empty())
      continue;
    std::string expected;
    if (*declared[i])
      for (char c : formatUnit(**declared[i]))
        if (c != ' ')
          expected += c;
    if (written[i] != expected) {
      diagnostics_.error(at, "the header gives " + std::string(i == 0 ? decl.argument : decl.name) +
                                 " in [" + written[i] + "], the declaration " +
                                 (expected.empty() ? "no unit" : "in [" + expected + "]") +
                                 ": the numbers are read in the declaration's units");
      return false;
    }
  }
  return true;
}

// Inline rows, = [[x1, y1], [x2, y2], ...]: constants (numbers and params)
// in the declared units.
bool Analyzer::tableRowsInline(const ast::TableDecl &decl, Table &table) {
  const ast::Expr &rows = *decl.rows;
  auto *matrix =
      rows.kind == ast::ExprKind::Vector ? static_cast<const ast::Vector *>(&rows) : nullptr;
  if (!matrix) {
    diagnostics_.error(rows.location, "a table's rows are written [[x1, y1], [x2, y2], ...]");
    return false;
  }
  for (const ast::ExprPtr &row : matrix->elements) {
    auto *pair =
        row->kind == ast::ExprKind::Vector ? static_cast<const ast::Vector *>(row.get()) : nullptr;
    if (!pair || pair->elements.size() != 2) {
      diagnostics_.error(row->location, "a table's row is [x, y], two numbers");
      return false;
    }
    double values[2];
    for (int i = 0; i < 2; ++i) {
      const ast::Expr &cell = *pair->elements[static_cast<size_t>(i)];
      ExprRef value = resolver_.resolve(cell, baseEnv({}));
      std::optional<double> number =
          value && value->shape.isScalar() ? resolver_.evaluateConstant(value) : std::nullopt;
      if (!value)
        return false;
      if (!number || !std::isfinite(*number) || value->dim.isKnown()) {
        diagnostics_.error(cell.location,
                           value->dim.isKnown()
                               ? "a table's cells are numbers in its declared units, found " +
                                     describeDimension(value->dim)
                               : "a table's cell is a finite constant (numbers and params)");
        return false;
      }
      values[i] = *number;
    }
    if (!addTableRow(decl, table, values, shortestNumber(values[0]), pair->elements[0]->location))
      return false;
  }
  return true;
}

} // namespace mech::sema
