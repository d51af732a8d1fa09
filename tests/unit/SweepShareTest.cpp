// A sweep split over ranks (driver/Sweep.h's RunShare, driver/SweepOnRanks.h,
// driver/SweepRowCodec.h): the chunks dealt to the ranks cover every run
// exactly once, each rank's runs in their order, for counts written out by
// hand and for many shapes; rows survive their byte form bit for bit (NaN,
// -0, denormals, texts with any byte), and a cut or altered message is
// refused, never read past its end.
#include "driver/SweepOnRanks.h"
#include "driver/SweepRowCodec.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace mech::driver;

namespace {

bool sameBits(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

} // namespace

TEST_CASE("sweep share: ten runs in chunks of two over three ranks", "[sweep]") {
  // Chunks {0,1} {2,3} {4,5} {6,7} {8,9} go to ranks 0 1 2 0 1.
  RunShare r0{0, 3, 2}, r1{1, 3, 2}, r2{2, 3, 2};
  CHECK(r0.localRuns(10) == 4);
  CHECK(r1.localRuns(10) == 4);
  CHECK(r2.localRuns(10) == 2);
  CHECK(r0.globalRun(0) == 0);
  CHECK(r0.globalRun(1) == 1);
  CHECK(r0.globalRun(2) == 6);
  CHECK(r0.globalRun(3) == 7);
  CHECK(r1.globalRun(2) == 8);
  CHECK(r2.globalRun(1) == 5);
  CHECK(r0.owner(7) == 0);
  CHECK(r1.owner(9) == 1);
  CHECK(r2.owner(4) == 2);
  // Fewer runs than ranks: the last ranks have none.
  CHECK(RunShare{2, 3, 1}.localRuns(2) == 0);
}

TEST_CASE("sweep share: every run once, in order, for many shapes", "[sweep]") {
  for (size_t runs : {0, 1, 5, 64, 100, 1001})
    for (size_t ranks : {1, 2, 3, 4, 7}) {
      size_t chunk = sweepChunk(runs, ranks);
      CHECK(chunk >= 1);
      CHECK(chunk <= 64);
      std::vector<int> seen(runs, 0);
      for (size_t rank = 0; rank < ranks; ++rank) {
        RunShare share{rank, ranks, chunk};
        size_t previous = 0;
        for (size_t local = 0; local < share.localRuns(runs); ++local) {
          size_t run = share.globalRun(local);
          REQUIRE(run < runs);
          CHECK(share.owner(run) == rank);
          CHECK((local == 0 || run > previous));
          previous = run;
          ++seen[run];
        }
      }
      for (size_t run = 0; run < runs; ++run)
        CHECK(seen[run] == 1);
    }
}

TEST_CASE("sweep rows: bytes and back, bit for bit", "[sweep]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RowMessage message;
  message.rows.push_back({7, {0.1, -0.0, 5e-324}, {nan, 1e308, -1.5}, "ok", ""});
  message.rows.push_back({8, {}, {}, "failed", std::string("a,\"b\"\n\0c", 9)});
  RowMessage back;
  REQUIRE(decodeRowMessage(encodeRowMessage(message), back));
  CHECK_FALSE(back.end);
  REQUIRE(back.rows.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(back.rows[i].run == message.rows[i].run);
    CHECK(sameBits(back.rows[i].swept, message.rows[i].swept));
    CHECK(sameBits(back.rows[i].summaries, message.rows[i].summaries));
    CHECK(back.rows[i].status == message.rows[i].status);
    CHECK(back.rows[i].message == message.rows[i].message);
  }
  RowMessage end;
  REQUIRE(decodeRowMessage(encodeRowMessage(RowMessage{true, {}}), end));
  CHECK(end.end);
  CHECK(end.rows.empty());
}

TEST_CASE("sweep rows: a cut or altered message is refused", "[sweep]") {
  RowMessage message;
  message.rows.push_back({3, {1, 2}, {3}, "ok", "fine"});
  std::string bytes = encodeRowMessage(message);
  RowMessage back;
  for (size_t length = 0; length < bytes.size(); ++length)
    CHECK_FALSE(decodeRowMessage(std::string_view(bytes).substr(0, length), back));
  CHECK_FALSE(decodeRowMessage(bytes + "x", back));
  std::string kind = bytes;
  kind[0] = 'Q';
  CHECK_FALSE(decodeRowMessage(kind, back));
  // A count of doubles larger than the message.
  std::string count = bytes;
  size_t sweptCount = 1 + 8 + 8; // kind, row count, run
  count[sweptCount + 7] = 0x7f;
  CHECK_FALSE(decodeRowMessage(count, back));
}
