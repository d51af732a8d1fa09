// driver::Session and the command table: a param change keeps the
// derivation unless the param is structural; a command run on a session
// reports the numbers of the formula written out by hand; the parser words
// usage errors once for every command.
#include "driver/Session.h"
#include "driver/CommandTable.h"
#include "driver/Commands.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace mech;

namespace {

const char *kPendulum = R"(model Pendulum {
  param m = 1 [kg], l = 2 [m], g = 9.81 [m/s^2]
  coord th [rad]
  kinetic T = m / 2 * l^2 * th'^2
  potential V = -m * g * l * cos(th)
}
)";

const char *kChain = R"(model Springs {
  param n = 2, k = 10 [N/m]
  coord x[1..n] [m]
  kinetic T = sum(i in 1..n, 1 [kg] / 2 * x[i]'^2)
  potential V = sum(i in 1..n, k / 2 * x[i]^2)
}
)";

sema::SearchPath noImports() {
  return {};
}

// The acceleration th'' that `eval --json` reports at th = 0.3.
double accelerationAt(driver::Session &session) {
  std::string error;
  auto line = driver::parseCommandLine(*driver::findCommand("eval"), {"--at", "th=0.3", "--json"},
                                       true, error);
  REQUIRE(line);
  std::ostringstream out, err;
  driver::CommandIo io{out, err};
  REQUIRE(driver::runModelCommand(*line, session, io) == driver::kExitOk);
  std::string text = out.str();
  size_t at = text.find("\"qdd\"");
  REQUIRE(at != std::string::npos);
  at = text.find("\"th\"", at);
  return std::stod(text.substr(text.find(':', at) + 1));
}

} // namespace

TEST_CASE("session: a param change keeps the derivation and moves the numbers") {
  driver::Session session(noImports());
  session.loadText("<test>", kPendulum);
  REQUIRE(session.derive());
  const sym::Context *derivedIn = session.loaded().derivation->context.get();
  // th'' = -g/l sin(th), by hand.
  CHECK(accelerationAt(session) == Approx(-9.81 / 2 * std::sin(0.3)).epsilon(1e-12));
  auto outcome = session.set("l = 50 [cm]");
  REQUIRE(outcome);
  CHECK_FALSE(outcome->rederived);
  CHECK(outcome->changed == std::vector<std::string>{"l"});
  CHECK(session.derived());
  CHECK(session.loaded().derivation->context.get() == derivedIn);
  CHECK(accelerationAt(session) == Approx(-9.81 / 0.5 * std::sin(0.3)).epsilon(1e-12));
}

TEST_CASE("session: a structural param change checks the model again") {
  driver::Session session(noImports());
  session.loadText("<test>", kChain);
  REQUIRE(session.derive());
  CHECK(session.loaded().equations().coordinates.size() == 2);
  auto outcome = session.set("n = 4");
  REQUIRE(outcome);
  CHECK(outcome->rederived);
  REQUIRE(session.derive());
  CHECK(session.loaded().equations().coordinates.size() == 4);
}

TEST_CASE("session: a --set that does not check leaves the model as it was") {
  driver::Session session(noImports());
  session.loadText("<test>", kPendulum);
  REQUIRE(session.derive());
  CHECK_FALSE(session.set("mass = 2"));
  std::ostringstream err;
  session.printDiagnostics(err);
  CHECK(err.str().find("'mass' is not a param of Pendulum") != std::string::npos);
  CHECK(session.settings().empty());
  CHECK(session.derived());
}

TEST_CASE("session: typed declarations edit the model's AST, located in what was typed") {
  driver::Session session(noImports());
  session.loadText("<test>", kPendulum);
  REQUIRE(session.derive());
  // A torsion spring k th^2 / 2 (k = 4 N*m/rad): m l^2 th'' = -m g l sin(th) - k th,
  // th'' = -(9.81 sin(0.3))/2 - 4 * 0.3 / 4 at th = 0.3.
  session.setAdditions({{"param k = 4 [N*m/rad]"}, {"potential S = k / 2 * th^2"}});
  CHECK_FALSE(session.derived()); // the derivation depended on the declarations
  CHECK(accelerationAt(session) == Approx(-9.81 * std::sin(0.3) / 2 - 0.3).epsilon(1e-12));
  CHECK(session.text().find("  potential S = k / 2 * th^2\n}") != std::string::npos);

  // A --set for one command: the declarations come along, the session is unchanged.
  std::unique_ptr<driver::Session> heavier = session.withSettings({"m = 2"});
  CHECK(accelerationAt(*heavier) == Approx(-9.81 * std::sin(0.3) / 2 - 0.3 / 2).epsilon(1e-12));
  CHECK(session.settings().empty());

  // An error in a typed declaration is located in its own text; the note
  // about the earlier declaration in the model's.
  session.setAdditions({{"coord th [rad]"}});
  CHECK_FALSE(session.checked());
  const Diagnostic &error = session.diagnostics().all().at(0);
  CHECK(error.location.file->path() == "<input>");
  CHECK(error.location.line == 1);
  CHECK(error.location.column == 7);
  REQUIRE(error.notes.size() == 1);
  CHECK(error.notes[0].location.file->path() == "<test>");
  CHECK(error.notes[0].location.line == 3);

  // Without them, the model is the file's again.
  session.setAdditions({});
  CHECK(accelerationAt(session) == Approx(-9.81 * std::sin(0.3) / 2).epsilon(1e-12));
}

TEST_CASE("command table: one wording of usage errors for every command") {
  std::string error;
  auto parse = [&](const std::string &command, std::vector<std::string> args) {
    error.clear();
    return driver::parseCommandLine(*driver::findCommand(command), args, false, error);
  };
  CHECK_FALSE(parse("simulate", {"m.mech", "--dt", "0"}));
  CHECK(error == "simulate: --dt needs a positive number, got '0'");
  CHECK_FALSE(parse("simulate", {"m.mech", "--method=euler"}));
  CHECK(error ==
        "simulate: --method takes dopri5, dop853, rk4, midpoint, radau, bdf or auto, not 'euler'");
  CHECK_FALSE(parse("simulate", {"m.mech", "--max-steps", "1.5"}));
  CHECK(error == "simulate: --max-steps needs a positive whole number below 2^63, got '1.5'");
  CHECK_FALSE(parse("equations", {"m.mech", "--json", "--latex"}));
  CHECK(error == "equations: --json and --latex exclude each other");
  CHECK_FALSE(parse("eval", {"m.mech", "--json=yes"}));
  CHECK(error == "eval: --json takes no value");
  CHECK_FALSE(parse("eval", {"a.mech", "b.mech"}));
  CHECK(error == "eval: expected one model file, got 2");
  CHECK_FALSE(parse("check", {}));
  CHECK(error == "check: no input files");
  auto line = parse("solve", {"m.mech", "--for", "F", "--at=x=1", "--for", "P", "--at", "y=2"});
  REQUIRE(line);
  CHECK(line->values("--for") == std::vector<std::string>{"F", "P"});
  CHECK(line->value("--at") == "x=1, y=2");
  CHECK(line->operands == std::vector<std::string>{"m.mech"});
  auto fmt = parse("fmt", {"-w", "--", "-odd.mech"});
  REQUIRE(fmt);
  CHECK(fmt->has("--write"));
  CHECK(fmt->operands == std::vector<std::string>{"-odd.mech"});
}

TEST_CASE("command table: every option is in its command's usage line and help") {
  for (const driver::CommandSpec &spec : driver::commandTable()) {
    std::string help = driver::commandHelp(spec);
    std::string table = driver::optionsMarkdown(spec);
    for (const driver::OptionSpec &o : spec.options) {
      INFO(spec.name << " " << o.name);
      CHECK(spec.synopsis.find(o.name) != std::string::npos);
      CHECK(help.find("  " + o.name) != std::string::npos);
      CHECK(table.find("`" + o.name) != std::string::npos);
      CHECK_FALSE(o.help.empty());
    }
  }
}
