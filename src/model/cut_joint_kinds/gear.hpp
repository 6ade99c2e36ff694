// Gear coupling (1 row, force-elements.md "couplings"): two joint coordinates of one
// component each tied by q_b = ratio q_a + offset. The row is linear in q, so its
// Jacobian is constant and J̇ v = 0; its force Jᵀ λ acts on the two coordinates, not
// through a pair of body wrenches (its unit wrenches are zero).
//   row       g = q_b − ratio q_a − offset                         label gear
//   Jacobian  J = e_bᵀ − ratio e_aᵀ
// Not installed.
#pragma once

#include "mechdyn/model/force_elements.hpp"

namespace mechdyn::cut_joint_kinds {

struct Gear {
  static constexpr CouplingType type = CouplingType::Gear;
  static constexpr const char* type_name = "gear";  // force-elements.md
  static constexpr int rows = 1;
  static constexpr const char* row_labels[rows] = {"gear"};

  /// g(q_a, q_b).
  static double residual(const Coupling& coupling, double q_a, double q_b) {
    return q_b - coupling.ratio * q_a - coupling.offset;
  }
  /// ∂g/∂q_a and ∂g/∂q_b: J's two entries.
  static double coefficient_a(const Coupling& coupling) { return -coupling.ratio; }
  static double coefficient_b(const Coupling&) { return 1.0; }
};

}  // namespace mechdyn::cut_joint_kinds
