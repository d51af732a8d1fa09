// Fuzz target: a whole .mech text through the parser and sema, as
// `mech check` runs them, and the formatter as `mech fmt` does. Besides
// crashes, sanitizer reports and internal errors, it checks what the
// compiler promises of any input: analysis is ok exactly when no error was
// reported, every error renders with its location, and the formatted text
// of a file that parsed parses again to the same formatted text.
#include "FuzzSupport.h"

#include "sema/Analyzer.h"
#include "syntax/Parser.h"
#include "syntax/Printer.h"

using namespace mech;

namespace {

// `mech fmt`: formatting is a fixed point and keeps the file parseable.
void checkFormatting(const ast::File &file) {
  std::string formatted = formatFile(file);
  SourceFile again("formatted.mech", formatted);
  Diagnostics diagnostics;
  auto reparsed = parseFile(again, diagnostics);
  if (!reparsed || diagnostics.hasErrors()) {
    std::ostringstream errors;
    diagnostics.print(errors);
    fuzz::fail("formatted text does not parse", formatted + "\n" + errors.str());
  }
  if (formatFile(*reparsed) != formatted)
    fuzz::fail("formatting is not a fixed point", formatted + "\n---\n" + formatFile(*reparsed));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text = fuzz::inputText(data, size);
  if (!fuzz::withinBounds(text))
    return -1; // not added to the corpus
  sema::Compilation compilation(fuzz::searchPath());
  const sema::LoadedFile *file = compilation.loadText(fuzz::kInputName, text);
  sema::Analysis analysis = sema::analyzeLoaded(compilation, file);
  const Diagnostics &diagnostics = compilation.diagnostics();
  if (analysis.ok == diagnostics.hasErrors())
    fuzz::fail("analysis.ok disagrees with the errors reported");
  std::ostringstream printed;
  diagnostics.print(printed);
  for (const Diagnostic &d : diagnostics.all())
    if (d.severity == Severity::Error && d.message.empty())
      fuzz::fail("an error without a message");
  if (file != nullptr && file->ast != nullptr && file->loadErrors == 0)
    checkFormatting(*file->ast);
  return 0;
}
