// The byte form of a sweep's rows (driver/SweepRowCodec.h): a kind byte,
// the row count, then per row its run, its two arrays of doubles and its
// two texts, each preceded by its length.
#include "driver/SweepRowCodec.h"

#include "support/ByteCodec.h"

#include <cstdint>

namespace mech::driver {

namespace {

constexpr char kRows = 'R', kEnd = 'E';

} // namespace

std::string encodeRowMessage(const RowMessage &message) {
  ByteWriter out;
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
  ByteReader in(bytes);
  char kind = 0;
  uint64_t count = 0;
  if (!in.get(kind) || (kind != kRows && kind != kEnd) || !in.getCount(count, 40))
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
