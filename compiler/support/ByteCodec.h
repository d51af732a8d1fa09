// Values as bytes and back, for what mech keeps between runs of one build
// (the derivation cache) or passes between processes of one job (a sweep's
// rows over MPI): trivially copyable values as their bytes in the host's
// order, texts and arrays after their length. A Reader never reads past
// its end: a cut or altered input fails (get returns false) rather than
// being read as something else.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mech {

class ByteWriter {
public:
  template <typename T> void put(const T &value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char *>(&value), sizeof value);
  }
  void put(const std::string &text) {
    put<uint64_t>(text.size());
    out_ += text;
  }
  template <typename T> void put(const std::vector<T> &values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<uint64_t>(values.size());
    if (!values.empty()) // an empty vector's data() may be null
      out_.append(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(T));
  }
  const std::string &bytes() const { return out_; }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

class ByteReader {
public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  template <typename T> bool get(T &value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (in_.size() < sizeof value)
      return false;
    std::memcpy(&value, in_.data(), sizeof value);
    in_.remove_prefix(sizeof value);
    return true;
  }
  // A bool's byte must be 0 or 1: another value is no bool, and reading it
  // as one is undefined behaviour.
  bool get(bool &value) {
    unsigned char byte = 0;
    if (!get(byte) || byte > 1)
      return false;
    value = byte == 1;
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
  template <typename T> bool get(std::vector<T> &values) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t count = 0;
    if (!get(count) || count > in_.size() / sizeof(T))
      return false;
    values.resize(count);
    if (count > 0) // memcpy's pointers must not be null, even for no bytes
      std::memcpy(values.data(), in_.data(), count * sizeof(T));
    in_.remove_prefix(count * sizeof(T));
    return true;
  }
  // A count of items each at least `itemBytes` long: false when the input
  // cannot hold that many (so that a corrupt count allocates nothing).
  bool getCount(uint64_t &count, size_t itemBytes) {
    return get(count) && count <= in_.size() / (itemBytes ? itemBytes : 1);
  }
  bool done() const { return in_.empty(); }

private:
  std::string_view in_;
};

} // namespace mech
