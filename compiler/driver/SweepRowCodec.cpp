// The byte form of a sweep's rows (driver/SweepRowCodec.h): a kind byte,
// the row count, then per row its run, its two arrays of doubles and its
// two texts, each preceded by its length.
#include "driver/SweepRowCodec.h"

#include <cstdint>
#include <cstring>

namespace mech::driver {

namespace {

constexpr char kRows = 'R', kEnd = 'E';

class Writer {
public:
  template <typename T> void put(T value) {
    out_.append(reinterpret_cast<const char *>(&value), sizeof value);
  }
  void put(const std::vector<double> &values) {
    put<uint64_t>(values.size());
    out_.append(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));
  }
  void put(const std::string &text) {
    put<uint64_t>(text.size());
    out_ += text;
  }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

class Reader {
public:
  explicit Reader(std::string_view in) : in_(in) {}

  template <typename T> bool get(T &value) {
    if (in_.size() < sizeof value)
      return false;
    std::memcpy(&value, in_.data(), sizeof value);
    in_.remove_prefix(sizeof value);
    return true;
  }
  bool get(std::vector<double> &values) {
    uint64_t count = 0;
    if (!get(count) || count > in_.size() / sizeof(double))
      return false;
    values.resize(count);
    std::memcpy(values.data(), in_.data(), count * sizeof(double));
    in_.remove_prefix(count * sizeof(double));
    return true;
  }
  bool get(std::string &text) {
    uint64_t size = 0;
    if (!get(size) || size > in_.size())
      return false;
    text.assign(in_.substr(0, size));
    in_.remove_prefix(size);
    return true;
  }
  bool done() const { return in_.empty(); }

private:
  std::string_view in_;
};

} // namespace

std::string encodeRowMessage(const RowMessage &message) {
  Writer out;
  out.put(message.end ? kEnd : kRows);
  out.put<uint64_t>(message.rows.size());
  for (const SweepRow &row : message.rows) {
    out.put<uint64_t>(row.run);
    out.put(row.swept);
    out.put(row.summaries);
    out.put(row.status);
    out.put(row.message);
  }
  return out.take();
}

bool decodeRowMessage(std::string_view bytes, RowMessage &message) {
  Reader in(bytes);
  char kind = 0;
  uint64_t count = 0;
  if (!in.get(kind) || (kind != kRows && kind != kEnd) || !in.get(count))
    return false;
  message.end = kind == kEnd;
  message.rows.clear();
  for (uint64_t i = 0; i < count; ++i) {
    SweepRow row;
    uint64_t run = 0;
    if (!in.get(run) || !in.get(row.swept) || !in.get(row.summaries) || !in.get(row.status) ||
        !in.get(row.message))
      return false;
    row.run = run;
    message.rows.push_back(std::move(row));
  }
  return in.done();
}

} // namespace mech::driver
