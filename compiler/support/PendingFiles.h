// Temporary files that a signal must not leave behind. An OutputFile's
// staging file is listed while it is being written; when SIGINT, SIGTERM
// or SIGHUP ends the process (a closed terminal, Ctrl-C, a killed job),
// the handler removes the listed files before the process dies of the
// signal, as destructors do not run then.
#pragma once

namespace mech {

// Lists `path` (copied); the slot to unlist it by, or -1 when the list is
// full (the file is then only removed by its owner).
int listPendingFile(const char *path);
// Takes the file of `slot` off the list (-1: nothing).
void unlistPendingFile(int slot);

// Installs, for SIGINT, SIGTERM and SIGHUP left at their default action,
// a handler that removes the listed files, then ends the process by the
// same signal. A later handler (a sweep's, which stops and keeps its rows)
// takes over while it is installed.
void removePendingFilesOnSignals();

} // namespace mech
