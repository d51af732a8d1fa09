// What `mech animate` draws of a model, derived from its declarations by a
// fixed rule (docs/cli.md "animate"), and where each piece is at each
// sample of a run.
//
// The rule: every particle and body is a point, and so is every vector let
// of length (a position built in a let, `let p2 = p1 + ...`), once; a point
// whose expression uses another point's let is joined to it by a segment
// (a rod); a point built from no other is joined to the first point that
// stays at a constant distance from it (a pole on its cart), else to the
// origin when it stays at a constant distance from there (a pivot), over
// the run and over a few states of no run. A planar body is a circle of radius
// sqrt(J/m) with a mark that turns with it; a 3-D body is the ellipsoid of
// a uniform solid with its inertia. A spring is a zig-zag between its ends.
// The model's `draw` hints add what the rule cannot know (docs/language.md
// "draw"): rods, springs, points, disks, boxes and ground lines. In a planar
// drawing, a point that moves along one fixed line shows that line (a
// slider's guide, a cart's track, an incline).
#pragma once

#include "driver/Pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace mech::driver {

struct ScenePoint {
  std::string name;
  std::string kind; // "particle", "body", "point" (a let or a hint), "end" (not drawn)
  // Per sample: x, y and (in 3-D) z, in metres.
  std::vector<double> x, y, z;
};

struct SceneBody {
  size_t point = 0; // its centre, in points
  // Planar: the circle's radius sqrt(J/m) and the angle per sample.
  double radius = 0;
  std::vector<double> angle;
  // Spatial: the ellipsoid's semi-axes along the body's axes, and the
  // rotation matrix body -> world per sample, row-major.
  double axes[3] = {0, 0, 0};
  std::vector<double> rotation;
  bool mark = true; // a disk hint without an angle has no mark
};

// A box hint: a rectangle w x h centred at a point, turned by an angle per
// sample (none: 0).
struct SceneBox {
  size_t point = 0;
  double width = 0, height = 0;
  std::vector<double> angle;
};

struct SceneLink {
  long from = -1, to = 0; // indices into points; -1 is the origin
  bool spring = false;
};

struct Scene {
  int dimensions = 2;
  std::vector<double> t;
  std::vector<ScenePoint> points;
  std::vector<SceneBody> bodies;
  std::vector<SceneLink> links;
  std::vector<SceneBox> boxes;
  std::vector<double> grounds; // heights of ground lines (planar drawings)
  // Fixed lines a point moves along in a planar drawing (a slider's guide,
  // a cart's track, an incline): a point on each and its direction.
  struct Guide {
    double x = 0, y = 0, dx = 1, dy = 0;
  };
  std::vector<Guide> guides;
};

// The scene's pieces, before any sample.
class SceneBuilder {
public:
  explicit SceneBuilder(const LoadedModel &loaded);
  ~SceneBuilder();
  SceneBuilder(const SceneBuilder &) = delete;
  SceneBuilder &operator=(const SceneBuilder &) = delete;

  // Adds the sample at t with the coordinates q and velocities qd.
  void sample(double t, const double *q, const double *qd);
  // The scene of the samples added; the links to the origin are decided
  // here, from the whole run.
  Scene finish();
  // Nothing to draw (a model without positions).
  bool empty() const;

private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

} // namespace mech::driver
