// Articulated-body algorithm: forward dynamics q̈ = M(q)⁻¹ (τ − h(q, q̇)) in O(n).
//
// Source: Featherstone, "Rigid Body Dynamics Algorithms" (2008), §7.3, Table 7.1, in
// absolute (world) coordinates: every X (and X*) of the table is the identity, and S_i,
// c_i = Ṡ_i q̇_i and the inertias are world quantities referred to the world origin.
// Pass 1 (forward_kinematics + initialisation), i = 1 … N:
//   v_i = v_λ(i) + S_i q̇_i,   c_i = Ṡ_i q̇_i
//   I^A_i = I_i,   p^A_i = v_i ×* I_i v_i                   (no external forces)
// Pass 2, i = N … 1:
//   U_i = I^A_i S_i,   D_i = S_iᵀ U_i,   u_i = τ_i − S_iᵀ p^A_i
//   if λ(i) ≠ 0:  I^a = I^A_i − U_i D_i⁻¹ U_iᵀ
//                 p^a = p^A_i + I^a c_i + U_i D_i⁻¹ u_i
//                 I^A_λ(i) += I^a,   p^A_λ(i) += p^a
// Pass 3, i = 1 … N (a_0 = −a_g = [0; −g]):
//   a'_i = a_λ(i) + c_i,   q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i),   a_i = a'_i + S_i q̈_i
// In world coordinates a_0 is added unchanged to every a_i, so data.acceleration keeps
// the gravity-free accelerations (as forward_kinematics would give for q̈) and a_0 is
// added where a'_i is projected.
// A joint with k velocity coordinates has a 6 x k block S_i, one column per coordinate
// (data.motion_axis), so every joint type is handled by the same lines; D_i (k x k,
// k ≤ 6) is inverted by a fixed-maximum-size Cholesky factorisation. One-coordinate
// joints (the common case) take the same steps written out with S_i, U_i 6-vectors and
// D_i a scalar, and p^a with I^a c_i = I^A_i c_i − U_i D_i⁻¹ U_iᵀ c_i (no I^a formed).
// Cost: O(n). Reads: model, q, v, τ (aba) or the velocity stage and τ
// (aba_from_kinematics). Writes: the velocity kinematics (aba),
// data.articulated_inertia (I^A_i, 6x6), data.articulated_bias (p^A_i),
// data.aba_u_force (U, per coordinate), data.aba_d_inverse (D_i⁻¹, per joint),
// data.aba_u (u, per coordinate), data.acceleration (without gravity), data.ddq.
// Allocates nothing. Throws SolverError naming the joint when D_i is singular.
#include "mechdyn/dynamics/aba.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../kinematics/kinematics_stage.hpp"
#include "dynamics_stages.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

// D⁻¹ by Cholesky, D symmetric positive definite (k x k, k ≤ 6). Throws SolverError
// naming the joint when D is not finite, not positive definite, or singular to working
// precision: a pivot below the round-off of D = Sᵀ I^A S itself, whose bound is
// ε max_c |S_c|ᵀ |I^A| |S_c| (`scale`, the sum of the magnitudes of the terms), with a
// safety factor of 10³. (A subtree with no inertia along the joint's motion, e.g. a
// massless body carrying a coaxial joint, gives D = 0 up to round-off.)
void invert_joint_inertia(const Model& model, int joint_index, const SmallMat& d, double scale,
                          SmallMat& d_inverse) {
  const Joint& joint = model.joints[joint_index];
  const auto fail = [&](const char* problem) {
    throw SolverError("aba: joint '" + joint.name + "' (body '" + model.bodies[joint_index].name +
                      "'): articulated inertia D = Sᵀ I^A S " + problem);
  };
  if (!d.allFinite()) fail("is not finite");
  const double tolerance = 1e3 * std::numeric_limits<double>::epsilon() * scale;
  if (d.rows() == 1) {  // one coordinate: the same tests as below, without a factorisation
    const double pivot = d(0, 0);
    if (!(pivot > 0.0)) fail("is singular (not positive definite)");
    if (pivot <= tolerance) fail("is singular to working precision");
    d_inverse.resize(1, 1);
    d_inverse(0, 0) = 1.0 / pivot;
    if (!std::isfinite(d_inverse(0, 0))) fail("has a non-finite inverse");
    return;
  }
  const Eigen::LLT<SmallMat> cholesky(d);
  if (cholesky.info() != Eigen::Success) fail("is singular (not positive definite)");
  if (cholesky.matrixLLT().diagonal().cwiseAbs2().minCoeff() <= tolerance) fail("is singular to working precision");
  d_inverse = cholesky.solve(SmallMat::Identity(d.rows(), d.cols()));
  if (!d_inverse.allFinite()) fail("has a non-finite inverse");
}

// D⁻¹ of a one-coordinate joint, with the decision of invert_joint_inertia. Its tolerance
// 10³ ε scale needs scale = |S|ᵀ |I^A| |S| (36 products); a cheap bound decides first:
// every term |S_r| |I^A_rc| |S_c| ≤ max_rc |I^A_rc| |S_r| |S_c|, so scale ≤ max|I^A| ‖S‖₁²
// for any matrix (I^A need not be exactly positive semidefinite after round-off, so the
// bound does not use its diagonal). A pivot above twice the tolerance of that bound (the
// factor 2 covers the round-off of both sums) is above today's tolerance and passes; only
// otherwise is the exact scale formed and invert_joint_inertia decides, with its messages.
// `largest` is max_rc |I^A_rc|.
double single_axis_inverse(const Model& model, int joint_index, double d, const Vec6& axis,
                           const Mat6& articulated_inertia, double largest) {
  const double axis_norm = axis.cwiseAbs().sum();  // ‖S‖₁
  const double bound = largest * axis_norm * axis_norm;
  if (d > 2e3 * std::numeric_limits<double>::epsilon() * bound && d <= std::numeric_limits<double>::max()) {
    const double d_inverse = 1.0 / d;
    if (d_inverse <= std::numeric_limits<double>::max()) return d_inverse;
  }
  const Vec6 magnitude = axis.cwiseAbs();
  const double scale = magnitude.dot(articulated_inertia.cwiseAbs() * magnitude);
  SmallMat pivot(1, 1), inverse;
  pivot(0, 0) = d;
  invert_joint_inertia(model, joint_index, pivot, scale, inverse);  // throws, or the same 1 / D
  return inverse(0, 0);
}

}  // namespace

// Passes 1 (after the kinematics) to 3 of Table 7.1.
const VecX& detail::articulated_body(const Model& model, Data& data, const double* tau) {
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {  // pass 1: I^A_i = I_i, p^A_i = v_i ×* I_i v_i, written by 3x3 blocks
    const double mass = model.bodies[i].mass;
    // I_i = [[I_O, h̃], [h̃ᵀ, m 1]], I_O = I_c + m (|c|² 1 − c cᵀ), h = m c
    const SpatialInertia body = SpatialInertia::from_com(mass, data.com_position[i], data.inertia_world[i]);
    const Vec3& h = body.first_moment;
    const Mat3& rotational = body.rotational;
    Mat6& inertia = data.articulated_inertia[i];  // by columns, with h̃ᵀ = −h̃
    inertia.col(0) << rotational(0, 0), rotational(1, 0), rotational(2, 0), 0.0, -h.z(), h.y();
    inertia.col(1) << rotational(0, 1), rotational(1, 1), rotational(2, 1), h.z(), 0.0, -h.x();
    inertia.col(2) << rotational(0, 2), rotational(1, 2), rotational(2, 2), -h.y(), h.x(), 0.0;
    inertia.col(3) << 0.0, h.z(), -h.y(), mass, 0.0, 0.0;
    inertia.col(4) << -h.z(), 0.0, h.x(), 0.0, mass, 0.0;
    inertia.col(5) << h.y(), -h.x(), 0.0, 0.0, 0.0, mass;
    const Vec6& velocity = data.velocity[i];
    const Vec3 w = velocity.head<3>(), v = velocity.tail<3>();
    const Vec3 moment = rotational * w + h.cross(v), force = mass * v - h.cross(w);  // I_i v_i
    Vec6& bias = data.articulated_bias[i];
    bias.head<3>() = w.cross(moment) + v.cross(force);  // p^A_i = v_i ×* I_i v_i
    bias.tail<3>() = w.cross(force);
  }
  MotionAxes axes, u_force;  // S_i and U_i, 6 x k, fixed maximum size
  SmallMat d;
  SmallVec d_inverse_u;
  for (int i = n - 1; i >= 0; --i) {  // pass 2
    const Joint& joint = model.joints[i];
    const int k0 = joint.v_index, nv = joint.nv;
    const Mat6& articulated_inertia = data.articulated_inertia[i];
    const Vec6& articulated_bias = data.articulated_bias[i];
    const int parent = model.bodies[i].parent;
    if (nv == 1) {  // one coordinate: S_i and U_i 6-vectors, D_i a scalar (fixed sizes only)
      const Vec6& axis = data.motion_axis[k0];
      const Vec6& joint_bias = data.joint_bias[i];
      // U_i = I^A_i S_i and I^A_i c_i, and max |I^A_i| for the singularity test, in one
      // pass over the columns of I^A_i
      Vec6 u_column = articulated_inertia.col(0) * axis[0];
      Vec6 inertia_c = articulated_inertia.col(0) * joint_bias[0];
      Vec6 largest = articulated_inertia.col(0).cwiseAbs();
      for (int c = 1; c < 6; ++c) {
        u_column += articulated_inertia.col(c) * axis[c];
        inertia_c += articulated_inertia.col(c) * joint_bias[c];
        largest = largest.cwiseMax(articulated_inertia.col(c).cwiseAbs());
      }
      data.aba_u_force[k0] = u_column;
      const double u = tau[k0] - axis.dot(articulated_bias);  // u_i = τ_i − S_iᵀ p^A_i
      data.aba_u[k0] = u;
      double d = axis.dot(u_column);  // D_i = S_iᵀ U_i
      if (model.has_armature) d += model.armature[k0];
      const double d_inverse = single_axis_inverse(model, i, d, axis, articulated_inertia, largest.maxCoeff());  // D_i⁻¹
      data.aba_d_inverse[i](0, 0) = d_inverse;
      if (parent == kGround) continue;
      // p^a = p^A + I^a c_i + U D⁻¹ u with I^a c_i = I^A c_i − U D⁻¹ Uᵀ c_i
      const double scaled = d_inverse * (u - u_column.dot(joint_bias));
      data.articulated_bias[parent] += articulated_bias + inertia_c + u_column * scaled;  // p^A_λ(i) += p^a
      const Vec6 u_scaled = u_column * d_inverse;  // U D⁻¹
      Mat6& parent_inertia = data.articulated_inertia[parent];
      for (int c = 0; c < 6; ++c)  // I^A_λ(i) += I^a = I^A − U D⁻¹ Uᵀ, by columns
        parent_inertia.col(c) += articulated_inertia.col(c) - u_scaled * u_column[c];
      continue;
    }
    axes.resize(6, nv);
    u_force.resize(6, nv);
    for (int c = 0; c < nv; ++c) {
      axes.col(c) = data.motion_axis[k0 + c];
      u_force.col(c).noalias() = articulated_inertia * axes.col(c);  // U_i = I^A_i S_i
      data.aba_u_force[k0 + c] = u_force.col(c);
      data.aba_u[k0 + c] = tau[k0 + c] - axes.col(c).dot(articulated_bias);  // u_i = τ_i − S_iᵀ p^A_i
    }
    d.resize(nv, nv);
    d.noalias() = axes.transpose() * u_force;  // D_i = S_iᵀ U_i
    if (model.has_armature)  // + the drive's reflected inertia (force-elements.md; Featherstone 2008 §9.4)
      for (int c = 0; c < nv; ++c) d(c, c) += model.armature[k0 + c];
    SmallMat& d_inverse = data.aba_d_inverse[i];
    if (nv > 0) {
      double scale = 0.0;  // max_c |S_c|ᵀ |I^A_i| |S_c|: the size of the terms summed into D
      for (int c = 0; c < nv; ++c) {
        const Vec6 magnitude = axes.col(c).cwiseAbs();
        scale = std::max(scale, magnitude.dot(articulated_inertia.cwiseAbs() * magnitude));
      }
      invert_joint_inertia(model, i, d, scale, d_inverse);  // D_i⁻¹
    }

    if (parent == kGround) continue;
    d_inverse_u.noalias() = d_inverse * data.aba_u.segment(k0, nv);
    Mat6 inertia_a = articulated_inertia;
    inertia_a.noalias() -= u_force * (d_inverse * u_force.transpose());  // I^a = I^A − U D⁻¹ Uᵀ
    Vec6 bias_a = articulated_bias;
    bias_a.noalias() += inertia_a * data.joint_bias[i];  // p^a = p^A + I^a c_i
    bias_a.noalias() += u_force * d_inverse_u;          //       + U D⁻¹ u
    data.articulated_inertia[parent] += inertia_a;      // I^A_λ(i) += I^a
    data.articulated_bias[parent] += bias_a;            // p^A_λ(i) += p^a
  }

  const Vec6 base_acceleration = make_vec6(Vec3::Zero(), -model.gravity);  // a_0 = −a_g
  SmallVec rhs;
  for (int i = 0; i < n; ++i) {  // pass 3
    const Joint& joint = model.joints[i];
    const int k0 = joint.v_index, nv = joint.nv;
    const int parent = model.bodies[i].parent;
    Vec6 acceleration = (parent == kGround ? Vec6::Zero() : data.acceleration[parent]) + data.joint_bias[i];  // a'_i
    const Vec6 acceleration_with_gravity = acceleration + base_acceleration;
    if (nv == 1) {  // one coordinate: scalars
      const double ddq = data.aba_d_inverse[i](0, 0) *
                         (data.aba_u[k0] - data.aba_u_force[k0].dot(acceleration_with_gravity));  // q̈_i
      data.ddq[k0] = ddq;
      data.acceleration[i] = acceleration + data.motion_axis[k0] * ddq;  // a_i = a'_i + S_i q̈_i
      continue;
    }
    rhs.resize(nv);
    for (int c = 0; c < nv; ++c)
      rhs[c] = data.aba_u[k0 + c] - data.aba_u_force[k0 + c].dot(acceleration_with_gravity);  // u_i − U_iᵀ a'_i
    data.ddq.segment(k0, nv).noalias() = data.aba_d_inverse[i] * rhs;  // q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i)
    for (int c = 0; c < nv; ++c) acceleration += data.motion_axis[k0 + c] * data.ddq[k0 + c];  // a_i = a'_i + S_i q̈_i
    data.acceleration[i] = acceleration;
  }
  data.kinematics_level = 2;  // data.acceleration now holds the accelerations of q̈
  return data.ddq;
}

const VecX& aba(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "aba");
  check_state(model, q, &v, &tau, "tau");
  detail::kinematics_stage(model, data, q.data(), v.data(), nullptr);  // pass 1: v_i, S_i, c_i = Ṡ_i q̇_i
  return detail::articulated_body(model, data, tau.data());
}

const VecX& aba_from_kinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& tau) {
  check_data(model, data, "aba_from_kinematics");
  check_kinematics(data, 1, "aba_from_kinematics");
  check_vector(tau, model.nv, "tau");
  return detail::articulated_body(model, data, tau.data());
}

}  // namespace mechdyn
