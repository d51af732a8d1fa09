// A request to stop a long computation (Ctrl-C in the REPL): set from a
// signal handler, polled by the simulation between samples, cleared by the
// caller before the next command. One flag for the process, as signals are.
#pragma once

namespace mech::driver {

void requestInterrupt(); // async-signal-safe
bool interruptRequested();
void clearInterrupt();

} // namespace mech::driver
