// Momentum-screw inverse dynamics (MS §2 eq. 14, §3.3–3.5 eqs. 30–41). See the header.
#include "mechdyn/parallel/momentum_screw_dynamics.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "../dynamics/body_wrench.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/spatial.hpp"
#include "mechdyn/parallel/straight_leg.hpp"

namespace mechdyn {

Vec6 body_load_local(double mass, const Vec3& com, const Mat3& rotation, const Mat3& inertia, const Vec3& gravity,
                     const Vec6& velocity, const Vec6& acceleration, const Vec6& external) {
  // As body_load, with J ω̇ + ω × J ω evaluated in the body frame: R (J_b ω̇_b + ω_b × J_b ω_b).
  const Vec3 omega_body = rotation.transpose() * velocity.head<3>();
  const Vec3 alpha_body = rotation.transpose() * acceleration.head<3>();
  const Vec3 spin = inertia * alpha_body + omega_body.cross(inertia * omega_body);
  return detail::body_wrench_from_spin_rate(mass, com, velocity, acceleration, gravity, rotation * spin) - external;
}

Vec6 body_load_axial(double mass, const Vec3& com, const Vec3& axis, double across, double along, const Vec3& gravity,
                     const Vec6& velocity, const Vec6& acceleration, const Vec6& external) {
  // As body_load, with J = a 1 + (b − a) u uᵀ (u the world axis): J ω̇ + ω × J ω = a ω̇ + (b − a)((u·ω̇) u + (u·ω) ω × u).
  const Vec3 omega = velocity.head<3>(), alpha = acceleration.head<3>();
  const Vec3 spin = across * alpha + (along - across) * (axis.dot(alpha) * axis + axis.dot(omega) * omega.cross(axis));
  return detail::body_wrench_from_spin_rate(mass, com, velocity, acceleration, gravity, spin) - external;
}

Vec6 body_load(double mass, const Vec3& com, const Mat3& inertia, const Vec3& gravity, const Vec6& velocity,
               const Vec6& acceleration, const Vec6& external) {
  // dΓ/dt = I_O A + V ×* I_O V written at the centre of mass c (the same spatial force):
  // the rate of momentum m a_c and the rate of angular momentum about c, J α + ω × J ω,
  // moved to the world origin (MS eqs. 7–8 differentiated).
  // (body_wrench.hpp: F = dp/dt − m g, moment c × F + J α + ω × J ω)
  return detail::body_wrench(mass, com, inertia, velocity, acceleration, gravity) - external;
}

MomentumScrewWorkspace::MomentumScrewWorkspace(const Model& model, const ParallelModel& parallel) {
  const int n = model.num_bodies();
  body_load.assign(static_cast<std::size_t>(n), Vec6::Zero());
  for (const Body& body : model.bodies) {
    massless.push_back(body.mass == 0.0 && body.inertia.isZero(0.0) ? 1 : 0);
    // Two equal principal moments (to 1e-12 of the largest): symmetric about the third axis.
    AxialInertia axial;
    const Eigen::SelfAdjointEigenSolver<Mat3> principal(body.inertia);
    const Vec3 moments = principal.eigenvalues();  // ascending
    const double tolerance = 1e-12 * (1e-30 + std::abs(moments[2]));
    if (std::abs(moments[1] - moments[0]) <= tolerance) {
      axial = AxialInertia{true, principal.eigenvectors().col(2), moments[0], moments[2]};
    } else if (std::abs(moments[2] - moments[1]) <= tolerance) {
      axial = AxialInertia{true, principal.eigenvectors().col(0), moments[2], moments[0]};
    }
    if (axial.applies) {  // keep it only if it reproduces J exactly enough
      const Mat3 rebuilt = axial.across * Mat3::Identity() + (axial.along - axial.across) * axial.axis * axial.axis.transpose();
      axial.applies = (rebuilt - body.inertia).norm() <= 1e-12 * (1e-30 + body.inertia.norm());
    }
    axial_inertia.push_back(axial);
  }
  Eigen::Index columns = static_cast<Eigen::Index>(parallel.actuated_dofs.size());
  for (const Limb& limb : parallel.limbs) {
    distal_load.emplace_back(limb.joints.size(), Vec6::Zero());
    constraint_column.push_back(static_cast<int>(columns));
    columns += 6 - limb.freedoms;
    std::vector<int> efforts;
    for (int dof : limb.actuated_dofs) {
      const auto at = std::find(parallel.actuated_dofs.begin(), parallel.actuated_dofs.end(), dof);
      efforts.push_back(static_cast<int>(at - parallel.actuated_dofs.begin()));
    }
    effort_column.push_back(efforts);
    effort_wrench.emplace_back(efforts.size(), Vec6::Zero());
  }
  limb_wrench.assign(parallel.limbs.size(), Vec6::Zero());
  square = columns == 6;
  system = MatX::Zero(6, square ? 0 : columns);
  std::vector<char> in_leg(static_cast<std::size_t>(n), 0);
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i)
    if (parallel.limbs[i].leg.closed_form_motion) {
      leg_limbs.push_back(static_cast<int>(i));
      for (int b : parallel.limbs[i].bodies) in_leg[static_cast<std::size_t>(b)] = 1;
    }
  for (int b = 0; b < n; ++b)
    if (!in_leg[static_cast<std::size_t>(b)]) other_bodies.push_back(b);
  unknowns = VecX::Zero(columns);
  solver.resize(6, columns, static_cast<Eigen::Index>(parallel.actuated_dofs.size()));
  effort = VecX::Zero(model.nv);
  joint_wrench.assign(static_cast<std::size_t>(n) + model.loops.size(), Vec6::Zero());
}

void momentum_screw_inverse_dynamics(const Model& model, const ParallelModel& parallel, const Data& data,
                                     const LimbWorkspace& limbs, const AlignedVector<Vec6>& external,
                                     MomentumScrewWorkspace& work, double rank_tolerance) {
  const int n = model.num_bodies();
  // F_b = dΓ_b/dt − $_g − $_e for every moving body (eq. 14 per body); a closed-form leg's
  // two bodies together (they share the leg's rotation and angular motion).
  auto general_load = [&](int b) {
    const Body& body = model.bodies[b];
    if (work.massless[static_cast<std::size_t>(b)]) {
      work.body_load[b] = -external[b];
      return;
    }
    const auto& axial = work.axial_inertia[static_cast<std::size_t>(b)];
    if (axial.applies) {
      work.body_load[b] = body_load_axial(body.mass, data.com_position[b], data.rotation[b] * axial.axis, axial.across,
                                          axial.along, model.gravity, limbs.body_velocity[b],
                                          limbs.body_acceleration[b], external[b]);
      return;
    }
    work.body_load[b] = body_load_local(body.mass, data.com_position[b], data.rotation[b], body.inertia, model.gravity,
                                        limbs.body_velocity[b], limbs.body_acceleration[b], external[b]);
  };
  for (int leg : work.leg_limbs) {
    const Limb& limb = parallel.limbs[static_cast<std::size_t>(leg)];
    const LimbState& state = limbs.limbs[static_cast<std::size_t>(leg)];
    if (state.closed_form) {
      straight_leg_loads(model, limb, state, data, external, work.body_load[limb.leg.lower], work.body_load[limb.leg.upper]);
    } else {
      general_load(limb.leg.lower);
      general_load(limb.leg.upper);
    }
  }
  for (int b : work.other_bodies) general_load(b);
  // Column c of A (eq. 40).
  auto column = [&](int c) -> Eigen::Block<Mat6, 6, 1, true> { return work.square_system.col(c); };
  auto set_column = [&](int c, const Vec6& x) {
    if (work.square) column(c) = x;
    else work.system.col(c) = x;
  };
  // The platform group's load: the right-hand side of eq. (39) before the limbs' known parts.
  work.right_hand_side.setZero();
  for (int b : parallel.platform_bodies) work.right_hand_side += work.body_load[b];
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i) {
    const Limb& limb = parallel.limbs[i];
    const LimbState& s = limbs.limbs[i];
    auto& distal = work.distal_load[i];
    for (int c = 0; c < 6 - limb.freedoms; ++c) set_column(work.constraint_column[i] + c, s.constraint.col(c));
    if (s.closed_form) {  // a straight leg: W⁰_i and its effort column in closed form (parallel/straight_leg.hpp)
      Vec6& unit = work.effort_wrench[i].empty() ? work.scratch_wrench : work.effort_wrench[i][0];
      straight_leg_wrenches(limb, s, work.body_load[limb.leg.lower], work.body_load[limb.leg.upper], distal.data(),
                            work.limb_wrench[i], unit);
      work.right_hand_side -= work.limb_wrench[i];
      if (!limb.actuated_columns.empty()) set_column(work.effort_column[i][0], unit);  // the prismatic joint
      continue;
    }
    // D_j: loads of the limb's bodies beyond joint j (the platform joint has none).
    Vec6 beyond = Vec6::Zero();
    for (std::size_t j = limb.joints.size(); j-- > 0;) {
      const LimbJointScrews& joint = limb.joints[j];
      if (!joint.cut && joint.index != parallel.group_root) beyond += work.body_load[joint.index];
      distal[j] = beyond;
    }
    // W_i⁰ = D_i g_i, g_s = −s ∘ D_j (eqs. 31–36 generalised), D_i = S_i G_i⁻¹.
    double g[6];
    for (std::size_t j = 0; j < limb.joints.size(); ++j) {
      const LimbJointScrews& joint = limb.joints[j];
      for (int c = joint.first_freedom; c < joint.first_freedom + joint.freedoms; ++c)
        g[c] = -s.screws.col(c).dot(distal[j]);
    }
    const Vec6 known = s.gram.dual(s.screws, g);
    work.limb_wrench[i] = known;
    work.right_hand_side -= known;
    for (std::size_t e = 0; e < limb.actuated_columns.size(); ++e) {  // the columns D_i e_a of A
      double unit[6] = {};
      unit[limb.actuated_columns[e]] = 1.0;
      work.effort_wrench[i][e] = s.gram.dual(s.screws, unit);
      set_column(work.effort_column[i][e], work.effort_wrench[i][e]);
    }
  }
  // A x = b (eq. 40): square (as many unknowns as the platform's 6 equations) through
  // the Cholesky factor of AᵀA; redundant (more unknowns) by minimum-norm efforts.
  const char* singular = "the limbs cannot hold the platform in every direction (the momentum-screw system of eq. (40) "
                         "loses rank): a singular configuration of the actuation";
  if (work.square) {
    // x = (AᵀA)⁻¹ Aᵀ b through the Cholesky factor of AᵀA (parallel/screw_gram.hpp): A's
    // columns are the unit wrenches of the unknowns; rank lost when a column comes closer
    // than 1e-7 (relative) to the span of the others.
    if (work.square_gram.factor(work.square_system, 1e-7) < 6) throw SolverError(singular);
    work.square_gram.least_squares(work.right_hand_side, work.unknowns.data());
    work.internal_force_dimension = 0;
  } else {
    if (!work.solver.solve(work.system, work.right_hand_side, work.unknowns, rank_tolerance)) throw SolverError(singular);
    work.internal_force_dimension = work.solver.internal_force_dimension();
  }
  for (std::size_t c = 0; c < parallel.actuated_dofs.size(); ++c)
    work.effort[parallel.actuated_dofs[c]] = work.unknowns[static_cast<Eigen::Index>(c)];
  // W_i, then every joint's wrench T_j = D_j + W_i.
  for (std::size_t i = 0; i < parallel.limbs.size(); ++i) {
    const Limb& limb = parallel.limbs[i];
    const LimbState& s = limbs.limbs[i];
    Vec6& wrench = work.limb_wrench[i];
    if (s.closed_form) {  // a straight leg: universal, prismatic, platform joint
      if (!limb.actuated_columns.empty()) wrench += work.effort_wrench[i][0] * work.unknowns[work.effort_column[i][0]];
      if (limb.freedoms == 5) wrench += s.constraint.col(0) * work.unknowns[work.constraint_column[i]];
      const Vec6* distal = work.distal_load[i].data();
      work.joint_wrench[static_cast<std::size_t>(limb.leg.lower)] = distal[0] + wrench;
      work.joint_wrench[static_cast<std::size_t>(limb.leg.upper)] = distal[1] + wrench;
      const LimbJointScrews& end = limb.joints[2];
      if (!end.cut) work.joint_wrench[static_cast<std::size_t>(end.index)] = wrench;
      else if (end.platform_is_a) work.joint_wrench[static_cast<std::size_t>(n + end.index)] = wrench;
      else work.joint_wrench[static_cast<std::size_t>(n + end.index)] = -wrench;
      continue;
    }
    for (std::size_t e = 0; e < limb.actuated_columns.size(); ++e)
      wrench += work.effort_wrench[i][e] * work.unknowns[work.effort_column[i][e]];
    for (int c = 0; c < 6 - limb.freedoms; ++c)
      wrench += s.constraint.col(c) * work.unknowns[work.constraint_column[i] + c];
    for (std::size_t j = 0; j < limb.joints.size(); ++j) {
      const LimbJointScrews& joint = limb.joints[j];
      if (!joint.cut) {
        work.joint_wrench[static_cast<std::size_t>(joint.index)] = work.distal_load[i][j] + wrench;
      } else {
        work.joint_wrench[static_cast<std::size_t>(n + joint.index)] = joint.platform_is_a ? wrench : Vec6(-wrench);
      }
    }
  }
  // Welds inside the platform group: T_m = F_m − Σ (limb ends on m) + Σ T_children (bottom-up).
  for (auto it = parallel.platform_bodies.rbegin(); it != parallel.platform_bodies.rend(); ++it) {
    const int m = *it;
    if (m == parallel.group_root) continue;
    Vec6 transmitted = work.body_load[m];
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      const Loop& loop = model.loops[i];
      const Vec6& on_a = work.joint_wrench[static_cast<std::size_t>(n) + i];  // b on a
      if (loop.a.body == m) transmitted -= on_a;
      if (loop.b.body == m) transmitted += on_a;
    }
    for (int child : model.children[m]) transmitted += work.joint_wrench[static_cast<std::size_t>(child)];
    work.joint_wrench[static_cast<std::size_t>(m)] = transmitted;
  }
}

}  // namespace mechdyn
