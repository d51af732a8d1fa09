// The page of `mech animate`: one self-contained HTML file (no network, no
// external script) that draws a Scene in inline SVG and moves it with a
// small script: play/pause, a scrubber, the speed, the time, the trails of
// chosen points, a plot of one quantity kept in step, and for a 3-D scene
// an orthographic view turned by dragging.
#pragma once

#include "driver/Scene.h"

#include <string>
#include <utility>
#include <vector>

namespace mech::driver {

struct AnimationPlot {
  std::string name, unit;
  std::vector<double> values; // one per sample of the scene
};

struct AnimationOptions {
  std::string title;
  std::vector<std::string> traced; // names of points whose paths are drawn
  double yaw = 30, pitch = 20;     // the initial view of a 3-D scene, degrees
  std::vector<AnimationPlot> plots;
  std::string note; // shown under the title ("every 3rd sample of 60000")
  // The impacts of a model with contacts (each time, with the contacts
  // that pushed) and its frictions' switches (`belt sticks`): marked on the
  // plots' time axes and named in the time readout at their frames.
  std::vector<std::pair<double, std::string>> impacts;
};

std::string animationPage(const Scene &scene, const AnimationOptions &options);

} // namespace mech::driver
