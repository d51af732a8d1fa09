// The ZIP writer (support/ZipWriter.h) read back by a small reader of its
// own here, which walks the central directory, checks each local header
// against it and inflates the data with zlib: the contents, CRC-32s,
// methods, modes and the fixed timestamp, determinism and the limits.
#include "support/ZipWriter.h"

#include <catch2/catch.hpp>

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

uint32_t read16(const std::string &bytes, size_t at) {
  REQUIRE(at + 2 <= bytes.size());
  return static_cast<uint32_t>(static_cast<unsigned char>(bytes[at])) |
         static_cast<uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8;
}

uint32_t read32(const std::string &bytes, size_t at) {
  return read16(bytes, at) | read16(bytes, at + 2) << 16;
}

// An entry as the archive's central directory and local header give it.
struct ReadEntry {
  std::string name, bytes;
  uint32_t method = 0, crc = 0, mode = 0, madeBy = 0, time = 0, date = 0;
};

std::string inflated(const std::string &data, size_t size) {
  std::string out(size, '\0');
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, -15) == Z_OK);
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int status = inflate(&stream, Z_FINISH);
  inflateEnd(&stream);
  CHECK(status == Z_STREAM_END);
  CHECK(stream.total_out == size);
  return out;
}

// The entry whose central header starts at `at`, its data from its local
// header; `at` moves to the next central header.
ReadEntry readEntry(const std::string &zip, size_t &at) {
  REQUIRE(read32(zip, at) == 0x02014b50);
  size_t central = at;
  ReadEntry entry;
  entry.madeBy = read16(zip, at + 4);
  entry.method = read16(zip, at + 10);
  entry.time = read16(zip, at + 12);
  entry.date = read16(zip, at + 14);
  entry.crc = read32(zip, at + 16);
  uint32_t compressed = read32(zip, at + 20), size = read32(zip, at + 24);
  size_t nameLength = read16(zip, at + 28), extra = read16(zip, at + 30),
         comment = read16(zip, at + 32);
  entry.mode = read32(zip, at + 38) >> 16;
  size_t local = read32(zip, at + 42);
  entry.name = zip.substr(at + 46, nameLength);
  at += 46 + nameLength + extra + comment;

  // The local header repeats the central one's fields from "version needed".
  REQUIRE(read32(zip, local) == 0x04034b50);
  CHECK(zip.compare(local + 4, 26, zip, central + 6, 26) == 0);
  CHECK(zip.substr(local + 30, nameLength) == entry.name);
  size_t dataStart = local + 30 + nameLength + read16(zip, local + 28);
  std::string data = zip.substr(dataStart, compressed);
  REQUIRE(data.size() == compressed);
  entry.bytes = entry.method == 8 ? inflated(data, size) : data;
  CHECK(entry.bytes.size() == size);
  return entry;
}

// Every entry of an archive, through its end record and central directory.
std::vector<ReadEntry> readArchive(const std::string &zip) {
  REQUIRE(zip.size() >= 22);
  size_t end = zip.size() - 22; // no archive comment
  REQUIRE(read32(zip, end) == 0x06054b50);
  size_t count = read16(zip, end + 10);
  CHECK(read16(zip, end + 8) == count);
  size_t directorySize = read32(zip, end + 12), at = read32(zip, end + 16);
  CHECK(at + directorySize == end);
  std::vector<ReadEntry> entries;
  for (size_t i = 0; i < count; ++i)
    entries.push_back(readEntry(zip, at));
  CHECK(at == end);
  return entries;
}

std::string archiveOf(const std::vector<mech::ZipEntry> &entries) {
  std::string zip, error;
  INFO(error);
  REQUIRE(mech::zipArchive(entries, zip, error));
  CHECK(error.empty());
  return zip;
}

uint32_t crcOf(const std::string &bytes) {
  return static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef *>(bytes.data()), static_cast<uInt>(bytes.size())));
}

} // namespace

TEST_CASE("zip: the CRC-32 of the check string in the headers", "[zip]") {
  std::vector<ReadEntry> read = readArchive(archiveOf({{"check.txt", "123456789"}}));
  REQUIRE(read.size() == 1);
  CHECK(read[0].crc == 0xCBF43926u);
  CHECK(read[0].method == 0); // nine digits do not deflate smaller
  CHECK(read[0].bytes == "123456789");
}

TEST_CASE("zip: entries read back, deflated when smaller, else stored", "[zip]") {
  std::string repetitive(100000, 'a');
  for (size_t i = 0; i < repetitive.size(); i += 7)
    repetitive[i] = static_cast<char>('0' + i % 10);
  // A pseudo-random byte string, which deflate cannot shrink.
  std::string noise(4096, '\0');
  uint32_t state = 12345;
  for (char &c : noise) {
    state = state * 1103515245u + 12345u;
    c = static_cast<char>(state >> 24);
  }
  std::vector<mech::ZipEntry> entries = {
      {"modelDescription.xml", "<?xml version=\"1.0\"?>\n" + repetitive},
      {"binaries/linux64/model.so", noise, true},
      {"documentation/empty.txt", ""},
  };
  std::string zip = archiveOf(entries);
  std::vector<ReadEntry> read = readArchive(zip);
  REQUIRE(read.size() == entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    INFO(entries[i].name);
    CHECK(read[i].name == entries[i].name);
    CHECK(read[i].bytes == entries[i].bytes);
    CHECK(read[i].crc == crcOf(entries[i].bytes));
    CHECK(read[i].madeBy == ((3u << 8) | 20u));
    CHECK(read[i].mode == (entries[i].executable ? 0100755u : 0100644u));
    CHECK(read[i].time == 0);
    CHECK(read[i].date == ((1u << 5) | 1u)); // 1980-01-01
  }
  CHECK(read[0].method == 8);
  CHECK(read[1].method == 0);
  CHECK(read[2].method == 0);
  CHECK(zip.size() < repetitive.size() / 4);
}

TEST_CASE("zip: the same entries give the same bytes", "[zip]") {
  std::vector<mech::ZipEntry> entries = {{"a.txt", std::string(1000, 'x')}, {"b/c.txt", "c"}};
  CHECK(archiveOf(entries) == archiveOf(entries));
  CHECK(readArchive(archiveOf({})).empty());
}

TEST_CASE("zip: what would need ZIP64, and bad names, are refused", "[zip]") {
  std::string zip = "stale", error;
  CHECK_FALSE(mech::zipArchive({{"", "x"}}, zip, error));
  CHECK(error.find("empty name") != std::string::npos);
  CHECK(zip.empty());
  CHECK_FALSE(mech::zipArchive({{"a", "1"}, {"a", "2"}}, zip, error));
  CHECK(error.find("twice") != std::string::npos);

  // A count of 0xFFFF would tell readers to look for ZIP64 records.
  std::vector<mech::ZipEntry> many;
  for (size_t i = 0; i < 0xFFFE; ++i)
    many.push_back({std::to_string(i), ""});
  REQUIRE(mech::zipArchive(many, zip, error));
  CHECK(read16(zip, zip.size() - 12) == 0xFFFE);
  many.push_back({"one too many", ""});
  CHECK_FALSE(mech::zipArchive(many, zip, error));
  CHECK(error.find("ZIP64") != std::string::npos);
}
