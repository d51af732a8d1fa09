// The events a simulation fired: counted per event for the summary (with
// the most times one event fired within one step, when it chattered), and,
// for --events only, kept as rows (the event's name, t, then the CSV's
// columns there), written as CSV or, for a name ending in .json, as JSON.
// Without --events nothing grows with the number of events.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mech::driver {

// One declared event in the summary: how often it fired, first and last;
// the most times it fired within one integrator step, and that step.
struct EventCount {
  std::string name;
  long count = 0;
  double first = 0, last = 0;
  int mostInOneStep = 0;
  double stepFrom = 0, stepTo = 0;
};

class EventLog {
public:
  // With `keepRows` false (no --events), only the counts are kept.
  EventLog(std::vector<std::string> eventNames, std::vector<std::string> columns, bool keepRows);

  // `extra`: named values the JSON form adds to the row under "impact"
  // (an impact's impulse, energy lost and velocities after it).
  void record(int event, double t, const std::vector<double> &row,
              std::vector<std::pair<std::string, double>> extra = {});
  // The event fired `times` times within the step from t to tNew.
  void chattered(int event, int times, double t, double tNew);
  const std::vector<EventCount> &counts() const { return counts_; }
  struct Row {
    int event;
    double t;
    std::vector<double> values;
    std::vector<std::pair<std::string, double>> extra;
  };
  // The rows kept for --events (or for Python's result).
  size_t rowsKept() const { return rows_.size(); }
  const std::vector<Row> &rows() const { return rows_; }
  const std::string &name(int event) const { return names_[static_cast<size_t>(event)]; }
  // The rows as --events writes them to `path` (JSON when it ends in .json).
  std::string text(const std::string &path) const;

private:
  std::vector<std::string> names_, columns_;
  bool keepRows_;
  std::vector<EventCount> counts_;
  std::vector<Row> rows_;
};

} // namespace mech::driver
