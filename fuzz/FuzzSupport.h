// What the fuzz targets share: reading the input as text, keeping inputs
// within sizes one run can afford, silencing the library's printing, and
// turning a broken promise into a crash that libFuzzer reports.
#pragma once

#include "sema/Compilation.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace mech::fuzz {

inline std::string inputText(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

// Whether the input stays clear of sizes the documented limits allow but one
// fuzzing run cannot afford: integers of four or more digits (families,
// ranges and exponents in the thousands are the subject of their own tests;
// here they would only make every input slow). Digits of a fraction (after
// a digit and '.') or of a literal's exponent (after 'e' or 'E') are cheap
// and stay; the bound of a range after '..' counts (sum over 1..20000 under
// the sanitizers took 11 s, a timeout).
inline bool withinBounds(const std::string &text) {
  int run = 0;
  bool counted = false;
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (isDigit(c)) {
      if (run == 0) {
        char before = i == 0 ? ' ' : text[i - 1];
        bool fraction = before == '.' && i >= 2 && isDigit(text[i - 2]);
        counted = !fraction && before != 'e' && before != 'E';
      }
      if (++run >= 4 && counted)
        return false;
    } else {
      run = 0;
    }
  }
  return true;
}

// Imports resolve against the source tree's standard library only; the
// input's own folder does not exist, so no other file is ever read.
inline sema::SearchPath searchPath() {
  sema::SearchPath path;
  path.stdlib = MECH_FUZZ_STDLIB;
  return path;
}
inline constexpr const char *kInputName = "/nonexistent-mech-fuzz/input.mech";

// A promise of the compiler that the input broke: printed, then abort(), so
// that libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const std::string &what, const std::string &detail = "") {
  std::fprintf(stderr, "mech fuzz: %s\n%s\n", what.c_str(), detail.c_str());
  std::abort();
}

} // namespace mech::fuzz
