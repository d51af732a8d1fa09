// The scene of a model (Scene.h): its points, bodies, rods and springs as
// symbolic expressions in a context of their own, evaluated by the
// interpreter at each sample. Only what is drawn is lowered: positions,
// orientations and the centroidal inertias.
#include "driver/Scene.h"

#include "driver/StateProgram.h"
#include "mechanics/BodyInertia.h"
#include "mechanics/Lowering.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace mech::driver {

namespace {

// A point's components, or a body's angle, rotation or inertia: where its
// expressions start among the evaluated ones, and how many there are.
struct Slice {
  size_t first = 0, size = 0;
};

struct PointSpec {
  std::string name, kind;
  Slice position;
  int let = -1; // the let it is, when it is one
  bool referencesAnother = false;
};

struct BodySpec {
  size_t point = 0;
  bool planar = true;
  Slice orientation, inertia, mass;
  Slice radius; // a disk hint's
};

struct BoxSpec {
  size_t point = 0;
  Slice size, angle;
};

bool isPointLet(const sema::Let &let) {
  if (let.output || !let.value)
    return false;
  const sema::Node &v = *let.value;
  return v.shape.cols == 0 && (v.shape.rows == 2 || v.shape.rows == 3) && v.dim.isKnown() &&
         v.dim.dimension == sema::Dimension::length();
}

// The point lets an expression uses directly (not through other lets).
void pointLetsUsed(const sema::Node &node, const std::map<int, size_t> &pointOfLet,
                   std::set<size_t> &used) {
  if (node.kind == sema::ExprKind::Let) {
    if (auto found = pointOfLet.find(node.index); found != pointOfLet.end())
      used.insert(found->second);
    return;
  }
  for (const sema::ExprRef &child : node.children)
    if (child)
      pointLetsUsed(*child, pointOfLet, used);
}

// sqrt(J/m): the radius of gyration of a planar body; 0 when J or m is not
// a positive number.
double gyrationRadius(double J, double m) {
  return J > 0 && m > 0 && std::isfinite(J / m) ? std::sqrt(J / m) : 0.0;
}

// The uniform solid ellipsoid with the inertia J (body axes) and mass m:
// its semi-axes a_i (a_i^2 = 5/(2m) (J_j + J_k - J_i) for the principal
// moments) and principal directions. Axes left at zero by a degenerate
// inertia (a rod, a point) are raised to a twentieth of the largest, so
// that the body still shows.
void inertiaEllipsoid(const double *J, double m, double axes[3], Eigen::Matrix3d &directions) {
  Eigen::Matrix3d inertia;
  for (int i = 0; i < 9; ++i)
    inertia(i / 3, i % 3) = J[i];
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertia);
  directions = Eigen::Matrix3d::Identity();
  axes[0] = axes[1] = axes[2] = 0;
  if (solver.info() != Eigen::Success || !(m > 0) || !inertia.allFinite())
    return;
  directions = solver.eigenvectors();
  Eigen::Vector3d moments = solver.eigenvalues();
  double largest = 0;
  for (int i = 0; i < 3; ++i) {
    double square = 5 / (2 * m) * (moments.sum() - 2 * moments(i));
    axes[i] = square > 0 ? std::sqrt(square) : 0;
    largest = std::max(largest, axes[i]);
  }
  for (int i = 0; i < 3; ++i)
    axes[i] = std::max(axes[i], largest / 20);
}

} // namespace

struct SceneBuilder::Parts {
  const LoadedModel &loaded;
  sym::Context context;
  mechanics::Lowering lower;
  std::vector<sym::Expr> exprs;
  std::vector<PointSpec> points;
  std::vector<BodySpec> bodies;
  std::vector<BoxSpec> boxes;
  std::vector<Slice> grounds;
  std::vector<SceneLink> links;
  std::map<int, size_t> pointOfLet;
  std::vector<Eigen::Matrix3d> principal; // per body: its principal directions
  std::optional<StateProgram> program;    // of exprs, once all are added
  size_t coordinates = 0;
  const std::vector<double> *outputs = nullptr; // the values of exprs last evaluated
  Scene scene;
  // The points' positions at states of no run: the first sample's with
  // every coordinate moved at random by up to 1 (SceneBuilder::finish).
  static constexpr int kProbes = 8;
  std::vector<ScenePoint> probes;

  void evaluate(double t, const double *q, const double *qd);
  void addPositions(std::vector<ScenePoint> &to);
  void probe(double t, const double *q);

  explicit Parts(const LoadedModel &l) : loaded(l), lower(l.model(), context) {}

  Slice add(const mechanics::Tensor &tensor) {
    Slice slice{exprs.size(), tensor.v.size()};
    exprs.insert(exprs.end(), tensor.v.begin(), tensor.v.end());
    return slice;
  }

  // The point at `position`: the let's point when it is one, else a new one.
  size_t pointAt(const sema::ExprRef &position, const std::string &name, const std::string &kind) {
    if (position->kind == sema::ExprKind::Let)
      if (auto found = pointOfLet.find(position->index); found != pointOfLet.end()) {
        PointSpec &point = points[found->second];
        // A particle or body at the let is that point, under its name; a
        // hint's end or dot there leaves the let's point as it is.
        if (point.kind == "point" && (kind == "particle" || kind == "body"))
          point.name = name, point.kind = kind;
        return found->second;
      }
    points.push_back({name, kind, add(lower.lower(position)), -1, false});
    linkToUsedPoints(*position, points.size() - 1);
    return points.size() - 1;
  }

  // A rod or a spring between two positions, whose ends are not drawn.
  void addSegment(const sema::ExprRef &from, const sema::ExprRef &to, const std::string &name,
                  bool spring) {
    size_t a = pointAt(from, name + " start", "end"), b = pointAt(to, name + " end", "end");
    links.push_back({static_cast<long>(a), static_cast<long>(b), spring});
  }

  // The i-th argument of a hint, lowered; an empty slice when it is not given.
  Slice argument(const sema::Drawing &d, size_t i) {
    return i < d.args.size() ? add(lower.lower(d.args[i])) : Slice{};
  }

  // A `draw` hint's pieces (its arguments checked by sema).
  void addHint(const sema::Drawing &d, size_t number) {
    std::string name = d.shape + " " + std::to_string(number);
    if (d.shape == "rod" || d.shape == "spring")
      addSegment(d.args[0], d.args[1], name, d.shape == "spring");
    else if (d.shape == "point")
      pointAt(d.args[0], name, "point");
    else if (d.shape == "disk")
      bodies.push_back(
          {pointAt(d.args[0], name, "end"), true, argument(d, 2), {}, {}, argument(d, 1)});
    else if (d.shape == "box")
      boxes.push_back({pointAt(d.args[0], name, "end"), argument(d, 1), argument(d, 2)});
    else if (d.shape == "ground")
      grounds.push_back(argument(d, 0));
  }

  void linkToUsedPoints(const sema::Node &expression, size_t point) {
    std::set<size_t> used;
    for (const sema::ExprRef &child : expression.children)
      if (child)
        pointLetsUsed(*child, pointOfLet, used);
    if (expression.kind == sema::ExprKind::Let)
      pointLetsUsed(expression, pointOfLet, used);
    used.erase(point);
    for (size_t from : used)
      links.push_back({static_cast<long>(from), static_cast<long>(point), false});
    points[point].referencesAnother = points[point].referencesAnother || !used.empty();
  }
};

SceneBuilder::SceneBuilder(const LoadedModel &loaded) : parts_(std::make_unique<Parts>(loaded)) {
  Parts &p = *parts_;
  const sema::CheckedModel &model = loaded.model();
  for (size_t i = 0; i < model.lets.size(); ++i)
    if (isPointLet(model.lets[i])) {
      p.pointOfLet[static_cast<int>(i)] = p.points.size();
      p.points.push_back({model.lets[i].name, "point", p.add(p.lower.lower(model.lets[i].value)),
                          static_cast<int>(i), false});
    }
  // Each let's rods, once every point let is known.
  for (size_t k = 0; k < p.points.size(); ++k)
    p.linkToUsedPoints(*model.lets[static_cast<size_t>(p.points[k].let)].value, k);
  for (const sema::Particle &particle : model.particles)
    p.pointAt(particle.position, particle.name, "particle");
  for (const sema::Body &body : model.bodies) {
    BodySpec spec;
    spec.point = p.pointAt(body.position, body.name, "body");
    spec.planar = body.planar;
    spec.orientation = p.add(p.lower.lower(body.orientation));
    if (auto inertia = mechanics::centroidalInertia(p.lower, body))
      spec.inertia = p.add(*inertia);
    spec.mass = p.add(p.lower.lower(body.mass));
    p.bodies.push_back(spec);
  }
  for (size_t k = 0; k < model.springs.size(); ++k)
    p.addSegment(model.springs[k].from, model.springs[k].to, "spring " + std::to_string(k + 1),
                 true);
  for (size_t k = 0; k < model.drawings.size(); ++k)
    p.addHint(model.drawings[k], k + 1);
  const mechanics::Equations &eq = loaded.equations();
  p.coordinates = eq.coordinates.size();
  p.program.emplace(p.exprs, model.params.size(), p.coordinates);
  for (const PointSpec &point : p.points)
    if (point.position.size == 3)
      p.scene.dimensions = 3;
  for (const BodySpec &body : p.bodies)
    if (!body.planar)
      p.scene.dimensions = 3;
  for (const PointSpec &point : p.points)
    p.scene.points.push_back({point.name, point.kind, {}, {}, {}});
  p.scene.bodies.resize(p.bodies.size());
  p.scene.boxes.resize(p.boxes.size());
}

SceneBuilder::~SceneBuilder() = default;

bool SceneBuilder::empty() const {
  return parts_->points.empty();
}

void SceneBuilder::Parts::evaluate(double t, const double *q, const double *qd) {
  outputs = &(*program)(loaded.paramValues(t), t, q, qd);
}

void SceneBuilder::Parts::addPositions(std::vector<ScenePoint> &to) {
  to.resize(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    const Slice &at = points[k].position;
    to[k].x.push_back((*outputs)[at.first]);
    to[k].y.push_back((*outputs)[at.first + 1]);
    if (scene.dimensions == 3)
      to[k].z.push_back(at.size == 3 ? (*outputs)[at.first + 2] : 0.0);
  }
}

void SceneBuilder::Parts::probe(double t, const double *q) {
  probes.assign(points.size(), ScenePoint{});
  // A model with constraints moves on them only: states moved at random
  // are off them, where a rod they keep (a pendulum written in x and y)
  // would not be found. Its run alone decides.
  if (!loaded.equations().constraints.empty())
    return;
  // Seeded: the same model draws the same rods on every run.
  std::mt19937 random(20261205);
  std::uniform_real_distribution<double> shift(-1.0, 1.0);
  size_t n = coordinates;
  std::vector<double> state(q, q + n), rates(n, 0.0);
  for (int k = 0; k < kProbes; ++k) {
    for (size_t i = 0; i < n; ++i)
      state[i] = q[i] + shift(random);
    evaluate(t + 0.37 * k, state.data(), rates.data());
    addPositions(probes);
  }
}

void SceneBuilder::sample(double t, const double *q, const double *qd) {
  Parts &p = *parts_;
  bool first = p.scene.t.empty();
  if (first)
    p.probe(t, q);
  p.evaluate(t, q, qd);
  const std::vector<double> &v = *p.outputs;
  p.scene.t.push_back(t);
  p.addPositions(p.scene.points);
  p.principal.resize(p.bodies.size());
  for (size_t k = 0; k < p.bodies.size(); ++k) {
    const BodySpec &spec = p.bodies[k];
    SceneBody &body = p.scene.bodies[k];
    body.point = spec.point;
    double mass = spec.mass.size ? v[spec.mass.first] : 0;
    if (spec.planar) {
      if (first && spec.inertia.size)
        body.radius = gyrationRadius(v[spec.inertia.first], mass);
      if (first && spec.radius.size)
        body.radius = std::max(v[spec.radius.first], 0.0);
      body.mark = spec.orientation.size > 0;
      body.angle.push_back(body.mark ? v[spec.orientation.first] : 0.0);
      continue;
    }
    if (first && spec.inertia.size == 9)
      inertiaEllipsoid(&v[spec.inertia.first], mass, body.axes, p.principal[k]);
    else if (first)
      p.principal[k] = Eigen::Matrix3d::Identity();
    Eigen::Matrix3d R;
    for (int i = 0; i < 9; ++i)
      R(i / 3, i % 3) = v[spec.orientation.first + static_cast<size_t>(i)];
    Eigen::Matrix3d world = R * p.principal[k];
    for (int i = 0; i < 9; ++i)
      body.rotation.push_back(world(i / 3, i % 3));
  }
  for (size_t k = 0; k < p.boxes.size(); ++k) {
    const BoxSpec &spec = p.boxes[k];
    SceneBox &box = p.scene.boxes[k];
    box.point = spec.point;
    if (first) {
      box.width = std::max(v[spec.size.first], 0.0);
      box.height = std::max(v[spec.size.first + 1], 0.0);
    }
    box.angle.push_back(spec.angle.size ? v[spec.angle.first] : 0.0);
  }
  if (first)
    for (const Slice &ground : p.grounds)
      p.scene.grounds.push_back(v[ground.first]);
}

namespace {

// The distances from a (the origin when null) to b over their samples:
// the range they span, and whether b moves.
void distances(const ScenePoint *a, const ScenePoint &b, double &lo, double &hi, bool &moves) {
  for (size_t i = 0; i < b.x.size(); ++i) {
    double dx = b.x[i] - (a ? a->x[i] : 0), dy = b.y[i] - (a ? a->y[i] : 0);
    double dz = b.z.empty() ? 0 : b.z[i] - (a ? a->z[i] : 0);
    double r = std::sqrt(dx * dx + dy * dy + dz * dz);
    lo = std::min(lo, r), hi = std::max(hi, r);
    moves = moves || b.x[i] != b.x[0] || b.y[i] != b.y[0] || (!b.z.empty() && b.z[i] != b.z[0]);
  }
}

// Whether b stays at a constant, non-zero distance from a (the origin when
// a is null) while it moves, over the run and over the probes (states of
// no run), so that the rod is the model's, not the run's: a pole on its
// cart is found when the run is at rest, a planet on a circular orbit is
// not tied to its sun.
bool rigidlyJoined(const ScenePoint *a, const ScenePoint &b, const ScenePoint *probeA,
                   const ScenePoint &probeB) {
  double lo = INFINITY, hi = 0;
  bool moves = false, probeMoves = false;
  distances(a, b, lo, hi, moves);
  distances(probeA, probeB, lo, hi, probeMoves);
  return (moves || probeMoves) && std::isfinite(hi) && hi > 0 && hi - lo <= 1e-6 * hi;
}

// The line a point's path lies on, when it moves along one: the spread of
// its positions across their principal direction is nil (below 1e-9 of the
// spread along it, with the path at least a millimetre long).
std::optional<Scene::Guide> guideOf(const ScenePoint &p) {
  size_t n = p.x.size();
  if (n < 3)
    return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i)
    mx += p.x[i], my += p.y[i];
  mx /= static_cast<double>(n), my /= static_cast<double>(n);
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    double dx = p.x[i] - mx, dy = p.y[i] - my;
    sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
  }
  double mean = (sxx + syy) / 2, d = std::sqrt((sxx - syy) * (sxx - syy) / 4 + sxy * sxy);
  double along = mean + d, across = mean - d;
  if (!std::isfinite(along) || along / static_cast<double>(n) < 1e-6 || across > 1e-9 * along)
    return std::nullopt;
  double angle = 0.5 * std::atan2(2 * sxy, sxx - syy);
  return Scene::Guide{mx, my, std::cos(angle), std::sin(angle)};
}

bool sameLine(const Scene::Guide &a, const Scene::Guide &b) {
  double cross = a.dx * b.dy - a.dy * b.dx;
  double offset = (b.x - a.x) * a.dy - (b.y - a.y) * a.dx;
  return std::abs(cross) < 1e-6 && std::abs(offset) < 1e-6;
}

} // namespace

Scene SceneBuilder::finish() {
  Parts &p = *parts_;
  Scene scene = std::move(p.scene);
  scene.links = p.links;
  // A point built from no other is joined to the first point it keeps its
  // distance from (a pole on its cart), else to the origin when it keeps
  // its distance from there (a pivot).
  for (size_t k = 0; k < scene.points.size(); ++k) {
    const ScenePoint &point = scene.points[k];
    if (p.points[k].referencesAnother || point.kind == "end" || point.x.empty() ||
        p.probes.size() != scene.points.size())
      continue;
    auto linked = [&](long j) {
      return std::any_of(scene.links.begin(), scene.links.end(), [&](const SceneLink &l) {
        return (l.from == j && l.to == static_cast<long>(k)) ||
               (l.to == j && l.from == static_cast<long>(k));
      });
    };
    long joined = -2;
    for (size_t j = 0; j < scene.points.size() && joined == -2; ++j)
      if (j != k && scene.points[j].kind != "end" && !linked(static_cast<long>(j)) &&
          rigidlyJoined(&scene.points[j], point, &p.probes[j], p.probes[k]))
        joined = static_cast<long>(j);
    if (joined == -2 && rigidlyJoined(nullptr, point, nullptr, p.probes[k]))
      joined = -1;
    if (joined != -2)
      scene.links.push_back({joined, static_cast<long>(k), false});
  }
  for (const ScenePoint &point : scene.points)
    if (scene.dimensions == 2 && point.kind != "end")
      if (auto guide = guideOf(point);
          guide && std::none_of(scene.guides.begin(), scene.guides.end(),
                                [&](const Scene::Guide &g) { return sameLine(g, *guide); }))
        scene.guides.push_back(*guide);
  return scene;
}

} // namespace mech::driver
