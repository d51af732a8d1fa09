// The examples of the language brief check without errors.
#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace mech;

TEST_CASE("every example in examples/ checks cleanly", "[examples]") {
  int checked = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(MECH_SOURCE_ROOT) + "/examples")) {
    if (entry.path().extension() != ".mech")
      continue;
    sema::Compilation compilation(test::Session::defaultSearchPath());
    sema::Analysis analysis = sema::analyzeFile(compilation, entry.path().string());
    std::ostringstream diagnostics;
    compilation.diagnostics().print(diagnostics);
    INFO(entry.path().string() << "\n" << diagnostics.str());
    CHECK(analysis.ok);
    CHECK(analysis.model != nullptr);
    ++checked;
  }
  CHECK(checked >= 6);
}
