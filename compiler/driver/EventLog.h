// The events a simulation fired: counted per event for the summary, and
// kept as rows (the event's name, t, then the CSV's columns there) for
// --events, written as CSV or, for a name ending in .json, as JSON.
#pragma once

#include <string>
#include <vector>

namespace mech::driver {

// One declared event in the summary: how often it fired, first and last.
struct EventCount {
  std::string name;
  long count = 0;
  double first = 0, last = 0;
};

class EventLog {
public:
  EventLog(std::vector<std::string> eventNames, std::vector<std::string> columns);

  void record(int event, double t, const std::vector<double> &row);
  std::vector<EventCount> counts() const;
  // The rows as --events writes them to `path` (JSON when it ends in .json).
  std::string text(const std::string &path) const;

private:
  struct Row {
    int event;
    double t;
    std::vector<double> values;
  };
  std::vector<std::string> names_, columns_;
  std::vector<Row> rows_;
};

} // namespace mech::driver
