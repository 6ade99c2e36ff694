// The joint model for callers outside the hot loops (model/joint.hpp): the type table
// and the kinds' code (src/model/joint_kinds/*.hpp) behind one switch each.
#include "mechdyn/model/joint.hpp"

#include "joint_dispatch.hpp"

namespace mechdyn {

namespace {

struct TypeInfo {
  JointType type;
  const char* name;
  int nq, nv, axes;
};

// The joint types of model-format.md: name, nq, nv and the number of axes in a file.
constexpr TypeInfo kTypes[] = {
    {JointType::Revolute, "revolute", 1, 1, 1},   {JointType::Prismatic, "prismatic", 1, 1, 1},
    {JointType::Universal, "universal", 2, 2, 2}, {JointType::Spherical, "spherical", 4, 3, 0},
    {JointType::Free, "free", 7, 6, 0},           {JointType::Fixed, "fixed", 0, 0, 0},
};

const TypeInfo& info(JointType type) {
  for (const TypeInfo& t : kTypes)
    if (t.type == type) return t;
  return kTypes[0];  // unreachable for a valid enum value
}

/// k when n = ±e_k exactly (two zero components), else −1.
int principal_axis(const Vec3& n) {
  if (n.y() == 0.0 && n.z() == 0.0) return 0;
  if (n.x() == 0.0 && n.z() == 0.0) return 1;
  if (n.x() == 0.0 && n.y() == 0.0) return 2;
  return -1;
}

}  // namespace

const char* joint_type_name(JointType type) { return info(type).name; }

std::optional<JointType> joint_type_from_name(const std::string& name) {
  for (const TypeInfo& t : kTypes)
    if (name == t.name) return t.type;
  return std::nullopt;
}

std::string joint_type_names() {
  std::string out;
  const std::size_t count = sizeof kTypes / sizeof kTypes[0];
  for (std::size_t i = 0; i < count; ++i) out += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + std::string(kTypes[i].name);
  return out;
}

int joint_nq(JointType type) { return info(type).nq; }
int joint_nv(JointType type) { return info(type).nv; }
int joint_axis_count(JointType type) { return info(type).axes; }

JointKind joint_kind_of(const Joint& joint) {
  const int k = principal_axis(joint.axis);
  switch (joint.type) {
    case JointType::Revolute:
      return k < 0 ? JointKind::Revolute : static_cast<JointKind>(static_cast<int>(JointKind::RevoluteX) + k);
    case JointType::Prismatic:
      return k < 0 ? JointKind::Prismatic : static_cast<JointKind>(static_cast<int>(JointKind::PrismaticX) + k);
    case JointType::Universal: return JointKind::Universal;
    case JointType::Spherical: return JointKind::Spherical;
    case JointType::Free: return JointKind::Free;
    case JointType::Fixed: return JointKind::Fixed;
  }
  return JointKind::Fixed;
}

void joint_relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
  visit_joint_kind(joint.kind, [&](auto kind) { decltype(kind)::relative_pose(joint, q, rotation, translation); });
}

void joint_configuration_rate(const Joint& joint, const double* q, const double* v, const Mat3& parent_rotation,
                              double* q_rate) {
  visit_joint_kind(joint.kind,
                   [&](auto kind) { decltype(kind)::configuration_rate(joint, parent_rotation, q, v, q_rate); });
}

void joint_integrate(const Joint& joint, const Mat3& parent_rotation, const double* q, const double* dv,
                     double* out) {
  visit_joint_kind(joint.kind, [&](auto kind) { decltype(kind)::integrate(joint, parent_rotation, q, dv, out); });
}

void joint_difference(const Joint& joint, const Mat3& parent_rotation, const double* q0, const double* q1,
                      double* dv) {
  visit_joint_kind(joint.kind, [&](auto kind) { decltype(kind)::difference(joint, parent_rotation, q0, q1, dv); });
}

void joint_neutral_configuration(const Joint& joint, double* q) {
  visit_joint_kind(joint.kind, [&](auto kind) { decltype(kind)::neutral(joint, q); });
}

int joint_quaternion_offset(const Joint& joint) {
  return visit_joint_kind(joint.kind, [](auto kind) { return decltype(kind)::quaternion_offset; });
}

double joint_normalize(const Joint& joint, double* q) {
  return visit_joint_kind(joint.kind, [&](auto kind) { return decltype(kind)::normalize(joint, q); });
}

void joint_coordinate_names(const Joint& joint, std::vector<CoordinateName>& configuration,
                            std::vector<CoordinateName>& velocity) {
  visit_joint_kind(joint.kind,
                   [&](auto kind) { decltype(kind)::coordinate_names(joint, configuration, velocity); });
}

ReactionSplit joint_reaction_split(const Joint& joint, const Vec6* world_axes, const Vec3& force,
                                   const Vec3& torque) {
  return visit_joint_kind(joint.kind, [&](auto kind) {
    return decltype(kind)::split_reaction(joint, world_axes, force, torque);
  });
}

}  // namespace mechdyn
