// Plot files (PlotFile.h): an SVG as it is, a PNG through rsvg-convert in a
// private temporary folder, then copied into place whole.
#include "driver/PlotFile.h"

#include "support/OutputFile.h"
#include "support/RunTool.h"
#include "support/TemporaryFolder.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>

namespace mech::driver {

namespace {

const char *const kConverter = "rsvg-convert";
const char *const kInstallHint =
    "a PNG plot needs rsvg-convert (Debian: apt-get install librsvg2-bin); or name the plot .svg";

} // namespace

bool isPngPath(const std::string &path) {
  if (path.size() < 4)
    return false;
  std::string suffix = path.substr(path.size() - 4);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return suffix == ".png";
}

std::string plotFileProblem(const std::string &path) {
  std::string error;
  if (!canWriteOutputFile(path, error))
    return error;
  if (isPngPath(path) && !onPath(kConverter))
    return "cannot write '" + path + "': " + kInstallHint;
  return "";
}

bool writePlotFile(const std::string &path, const std::string &svg, std::string &error) {
  if (!isPngPath(path))
    return writeOutputFile(path, svg, error);
  TemporaryFolder folder("mech-plot-");
  if (folder.path().empty()) {
    error = "cannot write '" + path + "': no temporary folder for the conversion to PNG";
    return false;
  }
  std::string svgPath = (folder.path() / "plot.svg").string();
  std::string pngPath = (folder.path() / "plot.png").string();
  if (!writeOutputFile(svgPath, svg, error))
    return false;
  if (!runTool({kConverter, "--output=" + pngPath, svgPath}, (folder.path() / "log").string(),
               kInstallHint, error)) {
    error = "cannot write '" + path + "': " + error;
    return false;
  }
  std::ifstream in(pngPath, std::ios::binary);
  std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (png.empty()) {
    error = "cannot write '" + path + "': rsvg-convert made no image";
    return false;
  }
  return writeOutputFile(path, png, error);
}

} // namespace mech::driver
