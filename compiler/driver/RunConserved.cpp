// `mech conserved FILE [--set ...] [--json]`: the first integrals of a model,
// decided symbolically (mechanics/Conservation.h): its cyclic coordinates
// with their conserved momenta, and the energy (Jacobi) integral or why
// there is none, with the parts T2, T1, T0 of T that decide whether h = T + V.
#include "driver/Commands.h"
#include "driver/Session.h"

#include "driver/Pipeline.h"
#include "driver/Reports.h"
#include "mechanics/Conservation.h"
#include "support/Json.h"
#include "symbolic/Print.h"

#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using sym::toMech;

std::string conservedText(const mechanics::Equations &eq, const mechanics::Conservation &c) {
  std::ostringstream out;
  out << "model " << eq.model << "\n\n";
  out << "T = T2 + T1 + T0 with\n";
  out << "  T2 = " << toMech(c.T2) << "\n";
  out << "  T1 = " << toMech(c.T1) << "\n";
  out << "  T0 = " << toMech(c.T0) << "\n\n";
  if (c.cyclic.empty()) {
    out << "cyclic coordinates: none\n";
  } else {
    out << "cyclic coordinates (absent from L, no non-conservative force, no constraint acting "
           "on them), each with its conserved momentum p = dL/dq':\n";
    for (const mechanics::CyclicCoordinate &k : c.cyclic)
      out << "  " << k.coordinate << ": p_" << k.coordinate << " = " << toMech(k.momentum) << "\n";
  }
  for (const auto &[coordinate, why] : c.notCyclic)
    out << "  " << coordinate << " is not cyclic: " << why << "\n";
  out << "\n";
  if (c.energyIntegral) {
    out << "energy (Jacobi) integral, conserved: h = T2 - T0 + V = " << toMech(c.energyIntegral)
        << "\n";
    out << (c.energyIsTPlusV ? "  h = T + V (T1 = T0 = 0)\n"
                             : "  h is not T + V: T1 or T0 is not zero (the positions depend on "
                               "t)\n");
  } else {
    out << "no energy integral:\n";
    for (const std::string &why : c.noEnergyIntegral)
      out << "  " << why << "\n";
  }
  return out.str();
}

std::string conservedJson(const mechanics::Equations &eq, const mechanics::Conservation &c) {
  JsonWriter json;
  json.beginObject();
  json.key("model").value(eq.model);
  json.key("cyclic").beginArray();
  for (const mechanics::CyclicCoordinate &k : c.cyclic) {
    json.beginObject();
    json.key("coordinate").value(k.coordinate);
    json.key("momentum").value(toMech(k.momentum));
    json.endObject();
  }
  json.endArray();
  json.key("energy_integral");
  if (c.energyIntegral)
    json.value(toMech(c.energyIntegral));
  else
    json.null();
  json.key("energy_is_T_plus_V").value(c.energyIsTPlusV);
  json.key("T2").value(toMech(c.T2));
  json.key("T1").value(toMech(c.T1));
  json.key("T0").value(toMech(c.T0));
  json.endObject();
  return json.str() + "\n";
}

} // namespace

int runConserved(const CommandLine &line, Session &session, const CommandIo &io) {
  bool derived = session.derive();
  session.printDiagnostics(io.err);
  if (!derived)
    return kExitModelError;
  LoadedModel *loaded = &session.loaded();
  const mechanics::Equations &eq = loaded->equations();
  if (std::string overflow = nonFiniteConstants(eq); !overflow.empty()) {
    loaded->diagnostics().error(loaded->model().location, overflow);
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  mechanics::Conservation conservation = mechanics::findConserved(eq);
  io.out << (line.has("--json") ? conservedJson(eq, conservation)
                                : conservedText(eq, conservation));
  return kExitOk;
}

} // namespace mech::driver
