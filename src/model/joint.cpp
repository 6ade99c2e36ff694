// The joint model for callers outside the hot loops (model/joint.hpp): the type table
// and the kinds' code (src/model/joint_kinds/*.hpp) behind one switch each.
#include "mechdyn/model/joint.hpp"

#include <algorithm>

#include "joint_dispatch.hpp"

namespace mechdyn {

namespace {

struct TypeInfo {
  const char* name = "unknown";
  int nq = 0, nv = 0, axes = 0;
  const JointFormat* format = nullptr;
};

// The type table of model-format.md, read off the kinds (the first kind of each type).
TypeInfo info(JointType type) {
  TypeInfo out;
  bool found = false;
  for_each_joint_kind([&](auto kind, JointKind) {
    using K = decltype(kind);
    if (found || K::type != type) return;
    out = {K::format.type_name, K::nq, K::nv, K::format.axis_count, &K::format};
    found = true;
  });
  return out;
}

// Every JointType once, in the order of the kinds.
std::vector<JointType> all_types() {
  std::vector<JointType> out;
  for_each_joint_kind([&](auto kind, JointKind) {
    if (std::find(out.begin(), out.end(), decltype(kind)::type) == out.end()) out.push_back(decltype(kind)::type);
  });
  return out;
}

}  // namespace

const char* joint_type_name(JointType type) { return info(type).name; }

std::optional<JointType> joint_type_from_name(const std::string& name) {
  for (JointType type : all_types())
    if (name == joint_type_name(type)) return type;
  return std::nullopt;
}

std::string joint_type_names() {
  const std::vector<JointType> types = all_types();
  std::string out;
  for (std::size_t i = 0; i < types.size(); ++i)
    out += (i == 0 ? "" : i + 1 == types.size() ? " or " : ", ") + std::string(joint_type_name(types[i]));
  return out;
}

int joint_nq(JointType type) { return info(type).nq; }
int joint_nv(JointType type) { return info(type).nv; }
int joint_axis_count(JointType type) { return info(type).axes; }

const JointFormat& joint_format(JointType type) {
  static const JointFormat unknown;
  const JointFormat* format = info(type).format;
  return format != nullptr ? *format : unknown;
}

JointKind joint_kind_of(const Joint& joint) {
  JointKind out = JointKind::Fixed;
  bool found = false;
  for_each_joint_kind([&](auto kind, JointKind value) {
    using K = decltype(kind);
    if (!found && K::type == joint.type && K::accepts(joint)) out = value, found = true;
  });
  return out;
}

void joint_relative_pose(const Joint& joint, const double* q, Mat3& rotation, Vec3& translation) {
  visit_joint_kind(joint.kind, [&](auto kind) { decltype(kind)::relative_pose(joint, q, rotation, translation); });
}

void joint_world_motion_axes(const Joint& joint, const Mat3& parent_rotation, const Mat3& rotation,
                             const Vec3& origin, Vec6* axes) {
  visit_joint_kind(joint.kind,
                   [&](auto kind) { decltype(kind)::world_axes(joint, parent_rotation, rotation, origin, axes); });
}

AxisCarrier joint_axis_carrier(const Joint& joint, int column) {
  return visit_joint_kind(joint.kind, [&](auto kind) { return decltype(kind)::carrier(column); });
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
