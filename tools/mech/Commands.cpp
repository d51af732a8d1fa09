// check, fmt and the dumps: each a few calls into the compiler's libraries.
#include "Commands.h"

#include "sema/Analyzer.h"
#include "sema/ModelPrinter.h"
#include "syntax/AstDump.h"
#include "syntax/Parser.h"
#include "syntax/Printer.h"

#include <fstream>
#include <iostream>

namespace mech::cli {

int usageError(const std::string &message) {
  std::cerr << "mech: " << message << "\n(run 'mech --help' for usage)\n";
  return kExitUsage;
}

namespace {

// Splits arguments into options (starting with -) and files.
struct Arguments {
  std::vector<std::string> options;
  std::vector<std::string> files;
};

Arguments split(const std::vector<std::string> &args) {
  Arguments result;
  bool onlyFiles = false;
  for (const std::string &arg : args) {
    if (arg == "--") {
      onlyFiles = true;
    } else if (!onlyFiles && arg.size() > 1 && arg[0] == '-') {
      result.options.push_back(arg);
    } else {
      result.files.push_back(arg);
    }
  }
  return result;
}

sema::SearchPath searchPath(const Invocation &invocation) {
  return sema::SearchPath::fromEnvironment(invocation.executable);
}

} // namespace

int runCheck(const Invocation &invocation) {
  Arguments args = split(invocation.args);
  if (!args.options.empty())
    return usageError("check: unknown option '" + args.options[0] + "'");
  if (args.files.empty())
    return usageError("check: no input files");
  int status = kExitOk;
  for (const std::string &path : args.files) {
    sema::Compilation compilation(searchPath(invocation));
    sema::Analysis analysis = sema::analyzeFile(compilation, path);
    compilation.diagnostics().print(std::cerr);
    if (!analysis.ok) {
      status = kExitModelError;
      continue;
    }
    if (analysis.model)
      std::cout << path << ": " << sema::summarizeModel(*analysis.model) << "\n";
    else
      std::cout << path << ": library of " << analysis.defCount
                << (analysis.defCount == 1 ? " def" : " defs") << "\n";
  }
  return status;
}

int runFmt(const Invocation &invocation) {
  Arguments args = split(invocation.args);
  bool check = false, write = false;
  for (const std::string &option : args.options) {
    if (option == "--check")
      check = true;
    else if (option == "--write" || option == "-w")
      write = true;
    else
      return usageError("fmt: unknown option '" + option + "'");
  }
  if (check && write)
    return usageError("fmt: --check and --write exclude each other");
  if (args.files.empty())
    return usageError("fmt: no input files");
  int status = kExitOk;
  for (const std::string &path : args.files) {
    sema::Compilation compilation;
    const sema::LoadedFile *file = compilation.loadRoot(path, /*withImports=*/false);
    compilation.diagnostics().print(std::cerr);
    if (file == nullptr || !file->ast) {
      status = kExitModelError;
      continue;
    }
    std::string formatted = formatFile(*file->ast);
    if (check) {
      if (formatted != file->source->text()) {
        std::cout << path << ": not formatted\n";
        status = kExitModelError;
      }
    } else if (write) {
      if (formatted != file->source->text()) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << formatted;
        if (!out) {
          std::cerr << "mech: error: cannot write '" << path << "'\n";
          status = kExitModelError;
        }
      }
    } else {
      std::cout << formatted;
    }
  }
  return status;
}

int runDump(const Invocation &invocation, const std::string &stage) {
  if (stage != "ast" && stage != "sema")
    return usageError("unknown dump stage '" + stage + "' (ast or sema)");
  Arguments args = split(invocation.args);
  if (!args.options.empty())
    return usageError("--dump: unknown option '" + args.options[0] + "'");
  if (args.files.size() != 1)
    return usageError("--dump=" + stage + " takes one file");
  sema::Compilation compilation(searchPath(invocation));
  if (stage == "ast") {
    const sema::LoadedFile *file = compilation.loadRoot(args.files[0], /*withImports=*/false);
    compilation.diagnostics().print(std::cerr);
    if (file == nullptr || !file->ast || compilation.diagnostics().hasErrors())
      return kExitModelError;
    std::cout << dumpAst(*file->ast, /*withLocations=*/true);
    return kExitOk;
  }
  sema::Analysis analysis = sema::analyzeFile(compilation, args.files[0]);
  compilation.diagnostics().print(std::cerr);
  if (!analysis.ok)
    return kExitModelError;
  if (analysis.model)
    std::cout << sema::dumpModel(*analysis.model);
  return kExitOk;
}

} // namespace mech::cli
