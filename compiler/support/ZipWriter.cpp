// The ZIP archive, record by record (PKWARE's APPNOTE.TXT, version 2.0
// features only): a local header and the data for each entry, then the
// central directory that lists them, then its end record. Numbers are
// little-endian; compression and CRC-32 come from zlib.
#include "support/ZipWriter.h"

#include <zlib.h>

#include <cstdint>
#include <set>

namespace mech {

namespace {

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50,
                   kEndOfCentralDirectory = 0x06054b50;
constexpr uint16_t kStored = 0, kDeflated = 8;
// 1980-01-01 00:00 in MS-DOS form ((year - 1980) << 9 | month << 5 | day):
// the earliest date a ZIP can hold, the same for every build.
constexpr uint16_t kDosTime = 0, kDosDate = (1 << 5) | 1;
// Made by Unix (3, so that readers take the mode from the external
// attributes) with version 2.0 of the format.
constexpr uint16_t kMadeBy = (3 << 8) | 20;
// Regular files (S_IFREG) with their permissions.
constexpr uint32_t kFileMode = 0100644, kExecutableMode = 0100755;
// Bit 11 of the flags: the name is UTF-8.
constexpr uint16_t kUtf8Name = 1 << 11;
// 0xFFFF and 0xFFFFFFFF in a count, size or offset tell a reader to look for
// ZIP64 records, which this writer does not make: values stay below them.
constexpr uint64_t kMaxSize = 0xFFFFFFFEu;
constexpr size_t kMaxEntries = 0xFFFE;

void put16(std::string &out, uint16_t value) {
  out += static_cast<char>(value & 0xFF);
  out += static_cast<char>(value >> 8);
}

void put32(std::string &out, uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8)
    out += static_cast<char>((value >> shift) & 0xFF);
}

// What the headers say of an entry, computed once for both.
struct EntryRecord {
  uint16_t method = kStored, flags = 0;
  uint32_t crc = 0, compressedSize = 0, size = 0, offset = 0, mode = kFileMode;
};

// The raw deflate stream (no zlib header: windowBits -15) of `bytes` at
// the highest level; empty when zlib fails, so that the entry is stored.
std::string deflated(const std::string &bytes) {
  z_stream stream{};
  if (deflateInit2(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return "";
  std::string out(deflateBound(&stream, static_cast<uLong>(bytes.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  // deflateBound's room lets one call with Z_FINISH end the stream.
  int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return status == Z_STREAM_END ? out : "";
}

bool hasNonAscii(const std::string &text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80)
      return true;
  return false;
}

// The fields both headers share, from "version needed" to the name's length.
void putCommonFields(std::string &out, const EntryRecord &record, const std::string &name) {
  put16(out, record.method == kDeflated ? 20 : 10); // version needed to extract
  put16(out, record.flags);
  put16(out, record.method);
  put16(out, kDosTime);
  put16(out, kDosDate);
  put32(out, record.crc);
  put32(out, record.compressedSize);
  put32(out, record.size);
  put16(out, static_cast<uint16_t>(name.size()));
  put16(out, 0); // no extra field
}

// Why the entries cannot be archived without ZIP64 or at all; "" when they can.
std::string entriesProblem(const std::vector<ZipEntry> &entries) {
  if (entries.size() > kMaxEntries)
    return "a ZIP archive without ZIP64 holds at most " + std::to_string(kMaxEntries) +
           " entries, not " + std::to_string(entries.size());
  std::set<std::string> names;
  for (const ZipEntry &entry : entries) {
    if (entry.name.empty())
      return "a ZIP entry has an empty name";
    if (entry.name.size() > 0xFFFF)
      return "the ZIP entry name '" + entry.name.substr(0, 40) + "...' is too long";
    if (entry.bytes.size() > kMaxSize)
      return "the ZIP entry '" + entry.name + "' is 4 GiB or more (ZIP64 is not supported)";
    if (!names.insert(entry.name).second)
      return "the ZIP entry '" + entry.name + "' is given twice";
  }
  return "";
}

// Appends the entry's local header and data; its record for the directory.
EntryRecord appendEntry(std::string &archive, const ZipEntry &entry) {
  EntryRecord record;
  record.offset = static_cast<uint32_t>(archive.size());
  record.size = static_cast<uint32_t>(entry.bytes.size());
  record.crc = static_cast<uint32_t>(crc32(crc32(0, nullptr, 0),
                                           reinterpret_cast<const Bytef *>(entry.bytes.data()),
                                           static_cast<uInt>(entry.bytes.size())));
  record.flags = hasNonAscii(entry.name) ? kUtf8Name : 0;
  record.mode = entry.executable ? kExecutableMode : kFileMode;
  std::string packed = entry.bytes.empty() ? "" : deflated(entry.bytes);
  bool deflate = !packed.empty() && packed.size() < entry.bytes.size();
  record.method = deflate ? kDeflated : kStored;
  const std::string &data = deflate ? packed : entry.bytes;
  record.compressedSize = static_cast<uint32_t>(data.size());
  put32(archive, kLocalHeader);
  putCommonFields(archive, record, entry.name);
  archive += entry.name;
  archive += data;
  return record;
}

void appendCentralHeader(std::string &out, const EntryRecord &record, const std::string &name) {
  put32(out, kCentralHeader);
  put16(out, kMadeBy);
  putCommonFields(out, record, name);
  put16(out, 0);                 // no comment
  put16(out, 0);                 // disk number start
  put16(out, 0);                 // internal attributes: binary
  put32(out, record.mode << 16); // external attributes: the Unix mode
  put32(out, record.offset);
  out += name;
}

} // namespace

bool zipArchive(const std::vector<ZipEntry> &entries, std::string &archive, std::string &error) {
  archive.clear();
  if (error = entriesProblem(entries); !error.empty())
    return false;
  std::vector<EntryRecord> records;
  for (const ZipEntry &entry : entries) {
    // Each entry must start where a 32-bit offset reaches.
    if (archive.size() > kMaxSize) {
      archive.clear();
      error = "the ZIP archive would be 4 GiB or more (ZIP64 is not supported)";
      return false;
    }
    records.push_back(appendEntry(archive, entry));
  }
  std::string directory;
  for (size_t i = 0; i < entries.size(); ++i)
    appendCentralHeader(directory, records[i], entries[i].name);
  if (archive.size() > kMaxSize || directory.size() > kMaxSize) {
    archive.clear();
    error = "the ZIP archive would be 4 GiB or more (ZIP64 is not supported)";
    return false;
  }
  uint32_t directoryOffset = static_cast<uint32_t>(archive.size());
  archive += directory;
  put32(archive, kEndOfCentralDirectory);
  put16(archive, 0); // this disk
  put16(archive, 0); // the disk the directory starts on
  put16(archive, static_cast<uint16_t>(entries.size()));
  put16(archive, static_cast<uint16_t>(entries.size()));
  put32(archive, static_cast<uint32_t>(directory.size()));
  put32(archive, directoryOffset);
  put16(archive, 0); // no comment
  return true;
}

} // namespace mech
