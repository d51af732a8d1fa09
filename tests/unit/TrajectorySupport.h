// Shared by the tests that run whole simulations: a model written to a
// temporary .mech file, and the CSV trajectory `mech simulate` writes, read
// back by column name.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace mech::test {

// A .mech file in the temporary folder, removed at the end of the test.
class TemporaryModelFile {
public:
  explicit TemporaryModelFile(const std::string &text) {
    static std::atomic<int> serial{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("mech_test_" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + ".mech"))
                .string();
    std::ofstream out(path_);
    out << text;
    out.close();
    REQUIRE(out);
  }
  ~TemporaryModelFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TemporaryModelFile(const TemporaryModelFile &) = delete;
  TemporaryModelFile &operator=(const TemporaryModelFile &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

// The trajectory as written: the header's column names and one row of
// numbers per sample.
struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;

  std::string join() const {
    std::string out;
    for (const std::string &n : names)
      out += (out.empty() ? "" : ",") + n;
    return out;
  }
  size_t column(const std::string &name) const {
    auto found = std::find(names.begin(), names.end(), name);
    INFO("CSV columns: " << join() << "; looking for '" << name << "'");
    REQUIRE(found != names.end());
    return static_cast<size_t>(found - names.begin());
  }
  std::vector<double> values(const std::string &name) const {
    size_t c = column(name);
    std::vector<double> out;
    out.reserve(rows.size());
    for (const auto &row : rows)
      out.push_back(row[c]);
    return out;
  }
  std::vector<double> operator[](const std::string &name) const { return values(name); }
};

inline std::vector<std::string> splitCsvLine(const std::string &line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ','))
    fields.push_back(field);
  if (!line.empty() && line.back() == ',')
    fields.emplace_back();
  return fields;
}

// Every row must have a number in every column.
inline Csv parseCsv(const std::string &text) {
  Csv csv;
  std::istringstream in(text);
  std::string line;
  REQUIRE(std::getline(in, line));
  csv.names = splitCsvLine(line);
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::vector<std::string> fields = splitCsvLine(line);
    INFO("CSV row: " << line);
    REQUIRE(fields.size() == csv.names.size());
    std::vector<double> row;
    for (const std::string &f : fields) {
      char *end = nullptr;
      double v = std::strtod(f.c_str(), &end);
      REQUIRE(end != f.c_str());
      REQUIRE(*end == '\0');
      row.push_back(v);
    }
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

} // namespace mech::test
