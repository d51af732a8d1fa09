// The singular-position watch: C's rows scaled to length 1, its smallest
// singular value estimated from the pivoted LDL^T of C C^T (the smallest
// pivot), the branch indicator from an LU of the chosen minor. Sign changes
// are located on the cubic Hermite interpolant of q between step ends.
#include "mechanics/SingularPositions.h"

#include "support/NumberText.h"

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

// Singular values of C at the start (rows scaled to 1) below this fraction
// of the largest belong to redundant constraints, which never regain rank:
// the watch follows the rank-th singular value, not the smallest.
constexpr double kRedundant = 1e-10;
// A smallest singular value below this fraction of its value at the start
// marks a singular position (crossed, or touched at a minimum).
constexpr double kSingular = 1e-2;
// A step whose interpolant is off the constraints by more than this (per
// row scaled to length 1) where the indicator changes sign jumped between
// assembly modes.
constexpr double kJump = 1e-3;
// A run that fails with it below this fraction failed near a singular
// position.
constexpr double kNear = 0.1;
// A minimum of it at a step end below this fraction is searched for the
// true minimum between the step ends around it.
constexpr double kCandidate = 0.3;
// Bisections (and golden sections) of a step, at most.
constexpr int kBisections = 40;
// Passages named one by one in the note; the rest are counted.
constexpr size_t kListed = 5;

std::string number(double value) {
  return formatNumber(value, 4);
}

// Names, quoted or not, the first few of a long list with a count.
std::string namesText(const std::vector<std::string> &names, const std::string &quote = "'") {
  std::string text;
  size_t shown = std::min(names.size(), kListed);
  for (size_t i = 0; i < shown; ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + quote + names[i] + quote;
  if (shown < names.size())
    text += " and " + std::to_string(names.size() - shown) + " more";
  return text;
}

std::string timesText(const std::vector<double> &times) {
  std::vector<std::string> texts;
  for (double t : times)
    texts.push_back(number(t));
  return namesText(texts, "");
}

} // namespace

SingularPositionWatch::SingularPositionWatch(const Equations &equations, Kernels &kernels,
                                             const std::vector<double> &params)
    : equations_(equations), kernels_(kernels), params_(params), n_(equations.coordinates.size()),
      m_(equations.constraints.size()), residuals_(2 * m_ + m_ * n_), x_(2 * n_) {}

Eigen::MatrixXd SingularPositionWatch::scaledRows(double t, const Eigen::VectorXd &q) {
  std::copy(q.data(), q.data() + n_, x_.begin()); // C depends on q (and t) alone
  kernels_.constraints(t, x_.data(), params_.data(), residuals_.data());
  Eigen::MatrixXd C(static_cast<long>(m_), static_cast<long>(n_));
  for (size_t i = 0; i < m_; ++i)
    for (size_t j = 0; j < n_; ++j)
      C(static_cast<long>(i), static_cast<long>(j)) = residuals_[2 * m_ + i * n_ + j] * scale_[i];
  return C;
}

void SingularPositionWatch::measure(Sample &sample) {
  Eigen::MatrixXd C = scaledRows(sample.t, sample.q);
  // The rank-th largest pivot: redundant rows keep theirs at 0.
  Eigen::LDLT<Eigen::MatrixXd> gram(C * C.transpose());
  Eigen::VectorXd pivots = gram.vectorD();
  std::sort(pivots.data(), pivots.data() + pivots.size(), std::greater<double>());
  sample.sigma = std::sqrt(std::max(0.0, pivots(static_cast<long>(rank_) - 1)));
  sample.sign = 0;
  if (dependent_.empty())
    return;
  Eigen::MatrixXd minor(C.rows(), C.rows());
  for (long k = 0; k < C.rows(); ++k)
    minor.col(k) = C.col(dependent_[static_cast<size_t>(k)]);
  double det = minor.partialPivLu().determinant();
  sample.sign = det > 0 ? 1 : det < 0 ? -1 : 0;
}

void SingularPositionWatch::start(double t, const double *x) {
  if (m_ == 0 || n_ == 0)
    return;
  Sample first;
  first.t = t;
  first.q = Eigen::Map<const Eigen::VectorXd>(x, static_cast<long>(n_));
  first.qd = Eigen::Map<const Eigen::VectorXd>(x + n_, static_cast<long>(n_));
  // Each row scaled to length 1 at the start (a row of zeros as it is).
  scale_.assign(m_, 1.0);
  Eigen::MatrixXd C = scaledRows(t, first.q);
  for (size_t i = 0; i < m_; ++i)
    if (double size = C.row(static_cast<long>(i)).norm(); size > 0)
      scale_[i] = 1 / size;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> columns(scaledRows(t, first.q));
  columns.setThreshold(kRedundant);
  rank_ = static_cast<size_t>(columns.rank());
  if (rank_ == 0)
    return;
  choosePartition(t, first.q);
  measure(first);
  reference_ = first.sigma;
  if (!(reference_ > 0))
    return; // singular at the start: the start's own note says so
  previous_ = first;
  started_ = true;
}

void SingularPositionWatch::choosePartition(double t, const Eigen::VectorXd &q) {
  // The minor on the columns of the best-conditioned choice; none when
  // constraints are redundant (rows that depend on each other may trade
  // places along the run, so no fixed rows make a minor).
  dependent_.clear();
  if (rank_ != m_)
    return;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> columns(scaledRows(t, q));
  for (size_t k = 0; k < rank_; ++k)
    dependent_.push_back(columns.colsPermutation().indices()(static_cast<long>(k)));
}

double SingularPositionWatch::offConstraints(const Sample &at) {
  scaledRows(at.t, at.q); // Phi into residuals_
  double worst = 0;
  for (size_t i = 0; i < m_; ++i)
    worst = std::max(worst, std::abs(residuals_[i]) * scale_[i]);
  return worst;
}

SingularPositionWatch::Sample SingularPositionWatch::between(const Sample &a, const Sample &b,
                                                             double t) {
  double h = b.t - a.t, s = (t - a.t) / h;
  double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
  double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  Sample mid;
  mid.t = t;
  mid.q = h00 * a.q + h10 * h * a.qd + h01 * b.q + h11 * h * b.qd;
  mid.qd = a.qd + s * (b.qd - a.qd);
  measure(mid);
  return mid;
}

SingularPositionWatch::Sample SingularPositionWatch::lowestBetween(const Sample &a,
                                                                   const Sample &b) {
  // Golden-section search: sigma is unimodal (|linear|) near a passage.
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double low = a.t, high = b.t;
  Sample left = between(a, b, high - ratio * (high - low));
  Sample right = between(a, b, low + ratio * (high - low));
  for (int i = 0; i < kBisections && high - low > 1e-12 * (1 + std::abs(high)); ++i) {
    if (left.sigma < right.sigma) {
      high = right.t;
      right = std::move(left);
      left = between(a, b, high - ratio * (high - low));
    } else {
      low = left.t;
      left = std::move(right);
      right = between(a, b, low + ratio * (high - low));
    }
  }
  return left.sigma < right.sigma ? left : right;
}

bool SingularPositionWatch::locateSignChange(const Sample &a, const Sample &b) {
  Sample low = a, high = b, closest = a.sigma < b.sigma ? a : b;
  for (int i = 0; i < kBisections && high.t - low.t > 1e-12 * (1 + std::abs(high.t)); ++i) {
    Sample mid = between(a, b, (low.t + high.t) / 2);
    if (mid.sigma < closest.sigma)
      closest = mid;
    (mid.sign == a.sign ? low : high) = mid;
  }
  if (closest.sigma <= kSingular * reference_) {
    recordPassage(closest, true);
    return false;
  }
  // The minor alone became singular, C regular: the free coordinates no
  // longer determine the others (a limit position), and a new choice
  // follows. Unless the step's interpolant left the constraints there:
  // then the step went from one assembly mode to the other.
  Sample crossing = between(a, b, (low.t + high.t) / 2);
  if (double off = offConstraints(crossing); off > kJump)
    jumps_.push_back({a.t, b.t, off});
  return true;
}

void SingularPositionWatch::recordPassage(const Sample &at, bool flipped) {
  // Until C is regular again, what is found belongs to the same passage
  // (many rows losing rank at nearly the same instant make several minima).
  if (!regularSince_) {
    Passage &last = passages_.back();
    last.flipped = last.flipped || flipped;
    last.ratio = std::min(last.ratio, at.sigma / reference_);
    return;
  }
  regularSince_ = false;
  Passage passage;
  passage.t = at.t;
  passage.ratio = at.sigma / reference_;
  passage.flipped = flipped;
  // The left null vector of C by two steps of inverse iteration on C C^T
  // (from a start with unequal entries, which no symmetry makes orthogonal
  // to it): its large entries are the rows that depend on each other there.
  if (dependent_.empty()) { // redundant rows: their own null vectors would answer
    passages_.push_back(passage);
    return;
  }
  Eigen::MatrixXd C = scaledRows(at.t, at.q);
  Eigen::MatrixXd gram = C * C.transpose();
  gram.diagonal().array() += 1e-14;
  Eigen::LDLT<Eigen::MatrixXd> factors(gram);
  Eigen::VectorXd y(C.rows());
  for (long k = 0; k < y.size(); ++k)
    y(k) = 0.5 + std::fmod(0.5 + 0.618034 * static_cast<double>(k), 1.0);
  for (int i = 0; i < 2; ++i) {
    y = factors.solve(y);
    y /= y.cwiseAbs().maxCoeff();
  }
  for (long k = 0; k < y.size(); ++k)
    if (std::abs(y(k)) >= 0.1)
      passage.constraints.push_back(static_cast<size_t>(k));
  passages_.push_back(passage);
}

void SingularPositionWatch::step(double t, const double *x) {
  if (!started_)
    return;
  Sample now;
  now.t = t;
  now.q = Eigen::Map<const Eigen::VectorXd>(x, static_cast<long>(n_));
  now.qd = Eigen::Map<const Eigen::VectorXd>(x + n_, static_cast<long>(n_));
  measure(now);
  bool flipped = now.sign != previous_.sign && now.sign != 0 && previous_.sign != 0;
  if (flipped && locateSignChange(previous_, now)) {
    choosePartition(now.t, now.q);
    measure(now);
  }
  // A minimum without a sign change (an even number of rows lost at once,
  // or C touching a singular position): located on the interpolants on
  // either side of the step end, unless a sign change next to it was.
  bool minimum = haveBeforePrevious_ && previous_.sigma < beforePrevious_.sigma &&
                 previous_.sigma <= now.sigma && previous_.sigma <= kCandidate * reference_;
  bool seen = !passages_.empty() && passages_.back().t >= beforePrevious_.t;
  if (minimum && !seen) {
    Sample lowest = previous_;
    for (const Sample *a : {&beforePrevious_, &previous_}) {
      Sample inside = lowestBetween(*a, a == &previous_ ? now : previous_);
      if (inside.sigma < lowest.sigma)
        lowest = std::move(inside);
    }
    if (lowest.sigma <= kSingular * reference_)
      recordPassage(lowest, false);
  }
  if (now.sigma > kCandidate * reference_)
    regularSince_ = true;
  beforePrevious_ = std::move(previous_);
  haveBeforePrevious_ = true;
  previous_ = std::move(now);
}

std::string SingularPositionWatch::failureNote(bool daeForm) const {
  double ratio = started_ ? previous_.sigma / reference_ : 1.0;
  if (!(ratio <= kNear))
    return "";
  return " (near a singular position of the constraints: C's smallest singular value at the "
         "last step was " +
         formatNumber(ratio, 3) + " of its value at the start" +
         (daeForm ? "; the DAE form does not pass singular positions, the projection form does "
                    "(--constraints projection)"
                  : "") +
         ")";
}

std::vector<std::string> SingularPositionWatch::warnings() const {
  if (jumps_.empty())
    return {};
  const Jump &first = jumps_.front();
  std::string count = jumps_.size() == 1 ? "" : " " + std::to_string(jumps_.size()) + " times";
  return {"the run may have jumped to another assembly mode" + count +
          ", first between t = " + number(first.from) + " and " + number(first.to) +
          " (the branch indicator changed sign with C regular where the step's interpolant is " +
          number(first.off) + " off the constraints): lower --rtol"};
}

std::vector<std::string> SingularPositionWatch::notes() const {
  if (passages_.empty())
    return {};
  std::vector<std::string> names;
  for (size_t i : passages_.front().constraints)
    names.push_back(equations_.constraints[i].name);
  std::vector<double> times;
  double closest = 1;
  size_t flipped = 0;
  for (const Passage &p : passages_) {
    times.push_back(p.t);
    closest = std::min(closest, p.ratio);
    flipped += p.flipped ? 1 : 0;
  }
  std::string indicator =
      dependent_.empty() ? ""
                         : "; the branch indicator, the sign of a minor of C, changed sign at " +
                               std::to_string(flipped) + " of them (where the branches meet it " +
                               "cannot tell which one the motion takes)";
  return {"the run passed " + std::to_string(passages_.size()) + " singular position" +
          (passages_.size() == 1 ? "" : "s") + " of the constraints, at t = " + timesText(times) +
          ": " +
          (names.empty() ? std::string("C lost rank")
                         : "at the first, the rows of C of constraints " + namesText(names) +
                               " became dependent") +
          " (its smallest singular value, rows scaled to 1, fell to " + number(closest) +
          " of its value at the start at the closest); near them the multipliers are not "
          "meaningful" +
          indicator};
}

} // namespace mech::mechanics
