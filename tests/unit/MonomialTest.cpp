// sym::Monomial, the inline small vector of the normal form: the same
// results as std::vector for every operation the normal form uses, below
// and above the inline capacity, through copies, moves and self-assignment.
#include "symbolic/Monomial.h"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using mech::sym::Monomial;
using Factor = Monomial::value_type;

namespace {

std::vector<Factor> asVector(const Monomial &m) {
  return {m.begin(), m.end()};
}

} // namespace

TEST_CASE("Monomial matches std::vector under random edits", "[normalform]") {
  std::mt19937 random(3);
  for (int round = 0; round < 2000; ++round) {
    Monomial m;
    std::vector<Factor> v;
    int steps = static_cast<int>(random() % 24);
    for (int s = 0; s < steps; ++s) {
      Factor f{static_cast<uint32_t>(random() % 50), static_cast<int32_t>(random() % 7) - 3};
      switch (random() % 4) {
      case 0:
      case 1:
        m.push_back(f);
        v.push_back(f);
        break;
      case 2: {
        size_t at = v.empty() ? 0 : random() % (v.size() + 1);
        m.insert(m.begin() + at, f);
        v.insert(v.begin() + static_cast<long>(at), f);
        break;
      }
      default:
        if (!v.empty()) {
          size_t at = random() % v.size();
          m.erase(m.begin() + at);
          v.erase(v.begin() + static_cast<long>(at));
        }
      }
      REQUIRE(asVector(m) == v);
      REQUIRE(m.size() == v.size());
    }
    Monomial copy = m;
    Monomial moved = std::move(copy);
    REQUIRE(asVector(moved) == v);
    REQUIRE(copy.empty()); // NOLINT: a moved-from monomial is empty by design
    Monomial assigned{{1, 1}};
    assigned = moved;
    REQUIRE(asVector(assigned) == v);
    const Monomial &alias = assigned;
    assigned = alias; // self-assignment keeps the factors
    REQUIRE(asVector(assigned) == v);
    Monomial target{{7, 2}, {8, 3}, {9, 4}, {10, 5}, {11, 6}, {12, 7}, {13, 8}};
    target = std::move(assigned);
    REQUIRE(asVector(target) == v);
    REQUIRE((m == moved));
    REQUIRE(!(m < moved));
  }
}

TEST_CASE("Monomial orders and compares as std::vector does", "[normalform]") {
  Monomial a{{1, 2}}, b{{1, 2}, {3, 1}}, c{{2, 1}};
  CHECK(a < b);
  CHECK(b < c);
  CHECK(!(c < a));
  CHECK(!(a == b));
  Monomial big;
  for (uint32_t v = 0; v < 20; ++v)
    big.push_back({v, 1});
  Monomial same = big;
  CHECK(same == big);
  same.back().second = 2;
  CHECK(big < same);
}
