// Counting the events and writing them out.
#include "driver/EventLog.h"

#include "driver/Simulation.h"
#include "support/Json.h"
#include "support/NumberText.h"

namespace mech::driver {

namespace {

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

EventLog::EventLog(std::vector<std::string> eventNames, std::vector<std::string> columns,
                   bool keepRows)
    : names_(std::move(eventNames)), columns_(std::move(columns)), keepRows_(keepRows) {
  for (const std::string &name : names_)
    counts_.push_back({name});
}

void EventLog::record(int event, double t, const std::vector<double> &row,
                      std::vector<std::pair<std::string, double>> extra) {
  EventCount &c = counts_[static_cast<size_t>(event)];
  if (c.count++ == 0)
    c.first = t;
  c.last = t;
  if (keepRows_)
    rows_.push_back({event, t, row, std::move(extra)});
}

void EventLog::chattered(int event, int times, double t, double tNew) {
  EventCount &c = counts_[static_cast<size_t>(event)];
  if (times > c.mostInOneStep) {
    c.mostInOneStep = times;
    c.stepFrom = t;
    c.stepTo = tNew;
  }
}

std::string EventLog::text(const std::string &path) const {
  if (endsWith(path, ".json")) {
    JsonWriter json;
    json.beginObject().key("events").beginArray();
    for (const Row &row : rows_) {
      json.beginObject().key("event").value(names_[static_cast<size_t>(row.event)]);
      json.key("t").value(row.t).key("values").beginObject();
      for (size_t i = 0; i < columns_.size(); ++i)
        json.key(columns_[i]).value(row.values[i]);
      json.endObject();
      if (!row.extra.empty()) {
        json.key("impact").beginObject();
        for (const auto &[key, value] : row.extra)
          json.key(key).value(value);
        json.endObject();
      }
      json.endObject();
    }
    json.endArray().endObject();
    return json.str() + "\n";
  }
  std::string out = "event,t";
  for (const std::string &column : columns_)
    out += "," + csvField(column);
  out += "\n";
  for (const Row &row : rows_) {
    out += csvField(names_[static_cast<size_t>(row.event)]) + "," + formatNumber(row.t, 17);
    for (double v : row.values)
      out += "," + formatNumber(v, 17);
    out += "\n";
  }
  return out;
}

} // namespace mech::driver
