// `mech build FILE -o libNAME.so [--header NAME.h] [--prefix NAME]
// [--cpu generic|native] [--set p=v ...]`: the model as a shared library
// with a C ABI (driver/LibraryBuild.h); `-o NAME.o` writes the object alone.
#include "Commands.h"

#include "driver/LibraryBuild.h"
#include "driver/Pipeline.h"

#include <iostream>

namespace mech::cli {

int runBuild(const Invocation &invocation) {
  driver::LibraryBuildOptions options;
  std::string file, cpu = "generic";
  std::vector<std::string> settings;
  const std::vector<std::string> &args = invocation.args;
  options.command = "mech build";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    options.command += " " + arg;
    auto [name, value, inlineValue] = splitOption(arg);
    if (arg.size() < 2 || arg[0] != '-') {
      if (!file.empty())
        return usageError("build: expected one model file");
      file = arg;
      continue;
    }
    if (name != "-o" && name != "--header" && name != "--prefix" && name != "--cpu" &&
        name != "--set")
      return usageError("build: unknown option '" + name + "'");
    if (!inlineValue) {
      if (i + 1 >= args.size())
        return usageError("build: " + name + " needs a value");
      value = args[++i];
      options.command += " " + value;
    }
    if (name == "-o")
      options.output = value;
    else if (name == "--header")
      options.header = value;
    else if (name == "--prefix")
      options.prefix = value;
    else if (name == "--cpu")
      cpu = value;
    else
      settings.push_back(value);
  }
  if (file.empty())
    return usageError("build: expected a model file");
  if (options.output.empty())
    return usageError("build: name the library with -o libNAME.so (or NAME.o for the object)");
  auto endsWith = [&](const std::string &suffix) {
    return options.output.size() > suffix.size() &&
           options.output.compare(options.output.size() - suffix.size(), suffix.size(), suffix) ==
               0;
  };
  if (!endsWith(".so") && !endsWith(".o") && options.output.find(".so.") == std::string::npos)
    return usageError("build: -o names a shared library (libNAME.so) or an object (NAME.o), not '" +
                      options.output + "'");
  if (!driver::isValidPrefix(options.prefix))
    return usageError("build: --prefix '" + options.prefix +
                      "' cannot start C names (letters, digits and '_', not first a digit)");
  if (cpu != "generic" && cpu != "native")
    return usageError("build: --cpu must be 'generic' or 'native', not '" + cpu + "'");
  options.nativeCpu = cpu == "native";
  std::vector<NamedPath> outputs = {{"-o", options.output}, {"--header", options.header}};
  if (auto status = checkOutputs("build", file, outputs))
    return *status;

  auto loaded = driver::loadModel(file, settings, searchPath(invocation), true);
  if (!loaded->derivation) {
    loaded->diagnostics().print(std::cerr);
    return kExitModelError;
  }
  if (auto status = checkOutputs("build", file, outputs, loaded.get()))
    return *status;
  std::vector<std::string> notes;
  std::string error;
  bool built = driver::buildLibrary(*loaded, options, notes, error);
  loaded->diagnostics().print(std::cerr);
  for (const std::string &note : notes)
    std::cerr << "note: " << note << "\n";
  if (!built) {
    if (!error.empty())
      std::cerr << "mech: error: " << error << "\n";
    return kExitModelError;
  }
  std::cerr << "wrote " << options.output
            << (options.header.empty() ? "" : " and " + options.header) << "\n";
  return kExitOk;
}

} // namespace mech::cli
