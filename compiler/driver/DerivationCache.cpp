// Reading and storing derivations (driver/DerivationCache.h).
#include "driver/DerivationCache.h"

#include "jit/HostInfo.h"
#include "jit/ObjectCache.h"
#include "mechanics/EquationsCodec.h"
#include "sema/Values.h"
#include "support/NumberText.h"

namespace mech::driver {

std::string derivationKey(sema::Compilation &compilation, const sema::CheckedModel &model) {
  std::string keyed = "mech derivation 2\n" + jit::buildIdentity() + "\n";
  const SourceManager &sources = compilation.sources();
  for (size_t i = 0; i < sources.size(); ++i) {
    const SourceFile *file = sources.at(i);
    // A --set text is left out: params are symbols in the derivation, so
    // their values do not shape it, except those of structural params
    // (range bounds, indices), which are keyed below. (The entry numbers
    // its locations' files without them: mechanics/EquationsCodec.h.)
    if (file->path() == sema::assignmentSourceName("--set"))
      continue;
    keyed += file->path() + '\0' + std::to_string(file->text().size()) + '\0' + file->text();
  }
  for (const sema::Param &param : model.params) {
    keyed += "\nparam " + param.name + (param.input ? " input" : "");
    if (param.structural)
      keyed += " = " + shortestNumber(param.value);
  }
  return jit::sha256Hex(keyed);
}

std::optional<mechanics::Derivation> deriveThroughCache(LoadedModel &loaded, bool useCache,
                                                        DerivationOutcome &outcome) {
  const sema::CheckedModel &model = loaded.model();
  std::optional<jit::ObjectCache> cache;
  std::string why;
  if (useCache && !(cache = jit::ObjectCache::openDefault(why, kDerivationFolder)) && !why.empty())
    outcome.warning = "the derivation cache is not used: " + why;
  const std::string key = cache ? derivationKey(*loaded.compilation, model) : "";
  loaded.sourceKey = key;
  const std::string signature = "derivation of " + model.name;
  const SourceManager &sources = loaded.compilation->sources();
  if (cache) {
    jit::CacheEntry entry = cache->load(key, signature);
    if (entry.state == jit::CacheEntry::State::Valid) {
      if (auto restored = mechanics::decodeDerivation(entry.object, model, sources)) {
        outcome.fromCache = true;
        return restored;
      }
      outcome.warning = "derivation cache: an entry that is not a derivation of this model by "
                        "this build (another format, or a malformed body) was replaced";
    } else if (entry.state != jit::CacheEntry::State::Absent) {
      outcome.warning = "derivation cache: " + entry.why;
    }
  }
  std::optional<mechanics::Derivation> derived =
      mechanics::deriveEquations(model, loaded.diagnostics());
  if (derived && cache &&
      !cache->store(key, signature, mechanics::encodeDerivation(*derived, sources), why))
    outcome.warning = "derivation cache: " + why;
  return derived;
}

} // namespace mech::driver
