// A sweep's rows as bytes, for the messages between the ranks of an MPI
// job (driver/SweepOnRanks.h): the doubles travel as their bits, so that a
// row written by rank 0 is the row another rank computed, bit for bit.
// Ranks run the same build on machines of one kind: the bytes are in the
// host's order.
#pragma once

#include "driver/Sweep.h"

#include <string>
#include <string_view>
#include <vector>

namespace mech::driver {

// One message: a chunk of rows, or the end of a rank's rows (after its
// last chunk, or early when its share stopped).
struct RowMessage {
  bool end = false;
  std::vector<SweepRow> rows;
};

std::string encodeRowMessage(const RowMessage &message);
// False when the bytes are not a message encodeRowMessage wrote.
bool decodeRowMessage(std::string_view bytes, RowMessage &message);

} // namespace mech::driver
