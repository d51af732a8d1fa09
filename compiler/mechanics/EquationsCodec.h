// A derivation as bytes and back (the derivation cache,
// driver/DerivationCache.h): every expression and field of the Equations,
// with source locations as a file's number in the compilation's sources
// (--set texts not counted) and its line and column. Decoding makes a
// Derivation of its own (a fresh context and the model's lowering) in
// which the expressions are the canonical forms the derivation made, so
// that every later pass (kernel programs, conserved quantities,
// linearization) sees what it would have seen after deriving. A body that
// is not a derivation of the model (counts, indices or lengths past what
// it holds or what the model has, operands that do not fit their node) is
// refused.
#pragma once

#include "mechanics/Lagrange.h"
#include "support/SourceFile.h"

#include <optional>
#include <string>
#include <string_view>

namespace mech::mechanics {

std::string encodeDerivation(const Derivation &derivation, const SourceManager &sources);

// Nullopt when the bytes are not a derivation of `model` this build wrote.
std::optional<Derivation> decodeDerivation(std::string_view bytes, const sema::CheckedModel &model,
                                           const SourceManager &sources);

} // namespace mech::mechanics
