// A plot written to the file the user named: SVG, or PNG when the name ends
// in .png, converted by rsvg-convert (Debian's librsvg2-bin) when it is
// installed. mech does not link librsvg: a PNG is what a few users ask for,
// and the library would add its dependencies to every start of mech.
#pragma once

#include <string>

namespace mech::driver {

// Whether `path` asks for a PNG (.png in any case).
bool isPngPath(const std::string &path);

// Empty when a plot can be written to `path` now (the folder is writable
// and, for a PNG, rsvg-convert is installed); else the error to report.
// Checked before a run, so that a long run does not end without its plot.
std::string plotFileProblem(const std::string &path);

// Writes the plot whole or not at all (support/OutputFile.h); false with
// `error` set.
bool writePlotFile(const std::string &path, const std::string &svg, std::string &error);

} // namespace mech::driver
