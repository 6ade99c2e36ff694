// Private to src/flexible: the frame of a section of a flexible beam at a point (a joint's
// mount, a cut joint's side), shared by the system kinematics and the loop closure.
// Not installed.
#pragma once

#include "mechdyn/flexible/flexible_system.hpp"

namespace mechdyn::detail {

/// Pose and motion of a section frame (or of a rigid parent's frame), world components.
struct SectionMotion {
  Mat3 rotation = Mat3::Identity();  // R_b Λ
  Vec3 point = Vec3::Zero();         // the point on the deformed beam, r_b + R_b p̄
  Vec6 velocity = Vec6::Zero();      // spatial velocity at the world origin
  Vec6 acceleration = Vec6::Zero();  // at v̇ = 0
};

/// The section frame of FlexibleSystem::points[point_index] on flexible model body `body`,
/// whose own kinematics (data.rotation, position, jacobian and with v velocity,
/// bias_acceleration) are computed: beam_point_kinematics into data.point[point_index],
/// `jacobian` = J_body + the section's elastic columns; with v (nv values, or nullptr)
/// also the velocity and the acceleration at v̇ = 0.
void section_frame(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, int body,
                   int point_index, const Eigen::Ref<const VecX>& q, const double* v, Mat6X& jacobian,
                   SectionMotion& out);

}  // namespace mechdyn::detail
