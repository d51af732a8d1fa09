// The derivation cache: a second command on the same model (its files, its
// imports, its added declarations, its structural --set values, with the
// same build of mech) reads the derived equations instead of deriving
// them. The key is a SHA-256 of every source the compilation read, in
// order, but --set texts, of the params' names and the values of the
// structural ones (the only values that shape the equations: params are
// symbols in them), and of this build (jit::buildIdentity), so it is
// computed without deriving; entries
// are stored beside the kernel cache (in its own folder, with the same
// checks: jit/ObjectCache.h), and one that does not decode is derived again
// and replaced.
#pragma once

#include "driver/Pipeline.h"

#include <optional>
#include <string>

namespace mech::driver {

// The folder of the cache directory that holds derivations and the index
// from a model's sources to its compiled code (jit::CompileOptions).
inline constexpr const char *kDerivationFolder = "mech-derivations";

struct DerivationOutcome {
  bool fromCache = false;
  std::string warning; // a refused cache directory or entry, a failed store
};

// The key of the checked model's derivation.
std::string derivationKey(sema::Compilation &compilation, const sema::CheckedModel &model);

// The derivation of the checked model: from the cache when `useCache` and
// an entry is there, else derived (and then stored). Nullopt when the
// model cannot be derived (the reasons in the diagnostics).
std::optional<mechanics::Derivation> deriveThroughCache(LoadedModel &loaded, bool useCache,
                                                        DerivationOutcome &outcome);

} // namespace mech::driver
