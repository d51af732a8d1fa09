// The switching programs of a built library, numbered in the inputs'
// layout of the model's kernels (mechanics::InputLayout).
#include "mechanics/SwitchPrograms.h"

#include "mechanics/Contacts.h"
#include "mechanics/Evaluation.h"

namespace mech::mechanics {

SwitchPrograms SwitchPrograms::build(const Equations &equations, size_t params) {
  SwitchPrograms programs;
  const size_t n = equations.coordinates.size();
  const InputLayout layout{params, n, equations.constraints.size()};
  auto index = [&layout](const sym::SymbolInfo &s) { return layout.index(s); };
  programs.contacts = equations.contacts.size();
  programs.events = equations.events.size();

  std::vector<sym::Expr> contact = contactExpressions(equations);
  for (const Equations::Contact &c : equations.contacts)
    contact.push_back(c.restitution);
  programs.contact = sym::Program(contact, index);
  programs.frictions = equations.frictions.size();
  for (const Equations::Friction &f : equations.frictions)
    programs.frictionContacts.push_back(f.contact);
  std::vector<sym::Expr> friction = frictionExpressions(equations);
  for (const Equations::Friction &f : equations.frictions)
    friction.push_back(f.slip.gamma);
  for (const Equations::Friction &f : equations.frictions)
    friction.insert(friction.end(), f.slip.C.begin(), f.slip.C.end());
  programs.friction = sym::Program(friction, index);

  std::vector<sym::Expr> g, resets;
  programs.resetOffsets.push_back(0);
  for (const Equations::Event &e : equations.events) {
    g.push_back(e.g);
    programs.directions.push_back(e.direction);
    // An event with resets ends the segment it fires in, as in a contact
    // mode's equations (mechanics::modeEquations).
    programs.stops.push_back(e.stop || !e.resets.empty() ? 1 : 0);
    for (const Equations::Reset &r : e.resets) {
      resets.push_back(r.value);
      programs.resetTargets.push_back(static_cast<long>(r.coordinate + (r.order == 1 ? n : 0)));
    }
    programs.resetOffsets.push_back(static_cast<long>(resets.size()));
  }
  programs.eventFunctions = sym::Program(g, index);
  programs.resets = sym::Program(resets, index);
  const size_t accelerations = params + 2 * n;
  for (const sym::Instruction &i : programs.eventFunctions.instructions())
    if (i.op == sym::Instruction::Op::Input && i.first >= accelerations)
      programs.eventsReadSolution = programs.eventsReadSolution || i.first != layout.time();
  return programs;
}

} // namespace mech::mechanics
