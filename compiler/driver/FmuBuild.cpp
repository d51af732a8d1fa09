// The FMU's build: the refusals, the description and its guid, the object
// code compiled with that guid, the link that exports only fmi2*, and the
// archive written in place only when complete.
#include "driver/FmuBuild.h"

#include "driver/FmuDescription.h"
#include "runtime/library/LibraryRuntimeObject.h"
#include "support/OutputFile.h"
#include "support/TemporaryFolder.h"
#include "support/ZipWriter.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mech::driver {

namespace {

namespace fs = std::filesystem;

// The prefix of the library's own entry points inside an FMU: none of them
// is exported (the version script keeps only fmi2*).
constexpr const char *kInternalPrefix = "mechfmu";

// A contact's mode (resting or free) and a friction's (sticking or
// slipping) are state that a run carries beside x; FMI 2.0's continuous
// states and event indicators cannot hold them without discrete variables
// this FMU does not have. Each one is refused at its declaration.
bool refuseUnsupported(LoadedModel &loaded) {
  const mechanics::Equations &eq = loaded.equations();
  for (const mechanics::Equations::Contact &contact : eq.contacts)
    loaded.diagnostics().error(
        contact.gap.location,
        "an FMU cannot hold contact '" + contact.gap.name +
            "': a contact's rest and impacts are modes of the run that FMI 2.0's continuous "
            "states cannot carry (build a library without --fmu, or write the contact as an "
            "event with resets)");
  for (const mechanics::Equations::Friction &friction : eq.frictions)
    loaded.diagnostics().error(
        friction.slip.location,
        "an FMU cannot hold friction '" + friction.slip.name +
            "': sticking and slipping are modes of the run that FMI 2.0's continuous states "
            "cannot carry (build a library without --fmu)");
  return eq.contacts.empty() && eq.frictions.empty();
}

// The shared object of the FMU, linked in `folder`: its bytes.
std::optional<std::string> linkBinary(const fs::path &folder, const std::string &object,
                                      std::string &error) {
  fs::path model = folder / "model.o", runtime = folder / "runtime.o", fmi = folder / "fmi2.o";
  if (!writeOutputFile(model, object, error) ||
      !writeOutputFile(runtime, runtime::libraryRuntimeObject(), error) ||
      !writeOutputFile(fmi, runtime::libraryFmuObject(), error))
    return std::nullopt;
  std::string staged = (folder / "binary.so").string();
  if (!linkSharedObject(folder, staged, {model, runtime, fmi}, "fmi2*", error))
    return std::nullopt;
  std::ifstream built(staged, std::ios::binary);
  std::ostringstream bytes;
  bytes << built.rdbuf();
  if (!built) {
    error = "cannot read the linked FMU binary '" + staged + "'";
    return std::nullopt;
  }
  return bytes.str();
}

} // namespace

bool buildFmu(LoadedModel &loaded, const LibraryBuildOptions &options,
              std::vector<std::string> &notes, std::string &error) {
  if (!refuseUnsupported(loaded))
    return false;
  std::optional<BuildStart> start = buildStart(loaded, notes, error);
  if (!start)
    return false;
  FmuDescription description =
      describeFmu(loaded.model(), loaded.equations(), start->params, start->x0);
  description.modelIdentifier = fmuModelIdentifier(options.output);
  FmuXml xml = fmuModelDescription(description);
  std::string object =
      compileModelObject(loaded, *start, kInternalPrefix, options.nativeCpu, xml.guid, error);
  if (object.empty())
    return false;

  OutputFile fmuFile(options.output);
  if (!fmuFile.open(error))
    return false;
  TemporaryFolder folder("mech-fmu");
  if (folder.path().empty()) {
    error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
    return false;
  }
  std::optional<std::string> binary = linkBinary(folder.path(), object, error);
  if (!binary)
    return false;
  std::string archive;
  if (!zipArchive({{"modelDescription.xml", xml.xml, false},
                   {"binaries/linux64/" + description.modelIdentifier + ".so", *binary, true}},
                  archive, error))
    return false;
  fmuFile.stream() << archive;
  return fmuFile.flush(error) && fmuFile.commit(error);
}

} // namespace mech::driver
