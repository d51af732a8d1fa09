// A monomial of the normal form: (variable, non-zero exponent) pairs sorted
// by variable, stored inline up to a handful of factors. Expanding a
// model's equations builds and hashes millions of these; with the factors
// on the heap (std::vector) the allocator dominated `mech equations`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <utility>

namespace mech::sym {

class Monomial {
public:
  using value_type = std::pair<uint32_t, int32_t>;
  using iterator = value_type *;
  using const_iterator = const value_type *;

  Monomial() = default;
  Monomial(std::initializer_list<value_type> factors) {
    reserve(factors.size());
    for (const value_type &f : factors)
      push_back(f);
  }
  Monomial(const Monomial &other) { assign(other); }
  Monomial(Monomial &&other) noexcept { take(other); }
  Monomial &operator=(const Monomial &other) {
    if (this != &other) {
      size_ = 0;
      assign(other);
    }
    return *this;
  }
  Monomial &operator=(Monomial &&other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~Monomial() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  value_type &operator[](size_t i) { return data()[i]; }
  const value_type &operator[](size_t i) const { return data()[i]; }
  value_type &back() { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity_)
      return;
    auto grown = std::make_unique<value_type[]>(n);
    std::copy(begin(), end(), grown.get());
    heap_.reset(grown.release());
    capacity_ = static_cast<uint32_t>(n);
  }
  void push_back(const value_type &f) {
    if (size_ == capacity_)
      reserve(2 * capacity_);
    data()[size_++] = f;
  }
  iterator insert(const_iterator at, const value_type &f) {
    size_t i = static_cast<size_t>(at - begin());
    push_back(f);
    std::rotate(begin() + i, end() - 1, end());
    return begin() + i;
  }
  iterator erase(const_iterator at) {
    size_t i = static_cast<size_t>(at - begin());
    std::copy(begin() + i + 1, end(), begin() + i);
    --size_;
    return begin() + i;
  }

  friend bool operator==(const Monomial &a, const Monomial &b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator<(const Monomial &a, const Monomial &b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  static constexpr uint32_t kInline = 6;

  value_type *data() { return heap_ ? heap_.get() : inline_; }
  const value_type *data() const { return heap_ ? heap_.get() : inline_; }
  void assign(const Monomial &other) {
    reserve(other.size_);
    std::copy(other.begin(), other.end(), data());
    size_ = other.size_;
  }
  void take(Monomial &other) {
    if (other.heap_) {
      heap_ = std::move(other.heap_);
      capacity_ = other.capacity_;
    } else {
      std::copy(other.begin(), other.end(), inline_);
    }
    size_ = other.size_;
    other.size_ = 0;
    other.capacity_ = kInline;
  }
  void release() {
    heap_.reset();
    capacity_ = kInline;
    size_ = 0;
  }

  uint32_t size_ = 0, capacity_ = kInline;
  std::unique_ptr<value_type[]> heap_;
  value_type inline_[kInline];
};

} // namespace mech::sym
