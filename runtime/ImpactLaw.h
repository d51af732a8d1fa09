// The impulsive equations of an impact with Newton's law of restitution,
// for contacts that touch at one instant: the velocities jump from v- to
//   v+ = v- + M^-1 (A^T mu + G^T Lambda),   A v+ + a = 0 (bilateral),
// and for each contact i, with the gap's rate w_i = G_i v+ + b_i:
//   w_i >= r_i,  Lambda_i >= 0,  Lambda_i (w_i - r_i) = 0,
// a linear complementarity problem. r_i is -e_i times the closing rate
// before the impact (0 for a contact that was not closing), so a closing
// contact rebounds with e_i of its speed unless the others push it apart
// faster, and a touching one is not pulled. Solved by trying the sets of
// pushing contacts, smallest first: exact for the few contacts that touch
// at once in a mechanism (at most kMaxImpactContacts).
#pragma once

#include <cstddef>
#include <vector>

namespace mech::runtime {

inline constexpr size_t kMaxImpactContacts = 12;

struct ImpactProblem {
  size_t n = 0;                 // coordinates
  std::vector<double> M;        // n*n, row-major
  std::vector<double> A, a;     // m*n rows and m offsets: A v + a = 0 after the impact
  std::vector<double> G, b, r;  // k*n rows, k offsets, k least rates after the impact
  std::vector<double> velocity; // v-, n
};

enum class ImpactStatus { Solved, Singular, NoSolution, TooManyContacts };

struct ImpactSolution {
  ImpactStatus status = ImpactStatus::Solved;
  std::vector<double> velocity; // v+
  std::vector<double> impulse;  // Lambda, one per contact
  std::vector<double> reaction; // mu, one per bilateral row
};

ImpactSolution solveImpact(const ImpactProblem &problem);

} // namespace mech::runtime
