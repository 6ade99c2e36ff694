// The one switch from a joint's kind (chosen once by finalize_model, model/joint.hpp) to
// its kind's code (src/model/joint_kinds/*.hpp). Algorithms call
//   visit_joint_kind(joint.kind, [&](auto kind) { step<decltype(kind)>(...); });
// once per body: the lambda is instantiated per kind, so inside it every joint
// operation is an inline call with compile-time constants — no virtual call, no test of
// the axis in the hot loop (Pinocchio's JointModel visitors, with a switch instead of a
// variant). Not installed.
#pragma once

#include "joint_kinds/cylindrical.hpp"
#include "joint_kinds/fixed.hpp"
#include "joint_kinds/free.hpp"
#include "joint_kinds/prismatic.hpp"
#include "joint_kinds/revolute.hpp"
#include "joint_kinds/spherical.hpp"
#include "joint_kinds/universal.hpp"

namespace mechdyn {

template <typename Visitor>
constexpr decltype(auto) visit_joint_kind(JointKind kind, Visitor&& visitor) {
  using namespace joint_kinds;
  switch (kind) {
    case JointKind::RevoluteX: return visitor(Revolute<0>{});
    case JointKind::RevoluteY: return visitor(Revolute<1>{});
    case JointKind::RevoluteZ: return visitor(Revolute<2>{});
    case JointKind::Revolute: return visitor(Revolute<-1>{});
    case JointKind::PrismaticX: return visitor(Prismatic<0>{});
    case JointKind::PrismaticY: return visitor(Prismatic<1>{});
    case JointKind::PrismaticZ: return visitor(Prismatic<2>{});
    case JointKind::Prismatic: return visitor(Prismatic<-1>{});
    case JointKind::Universal: return visitor(Universal{});
    case JointKind::Spherical: return visitor(Spherical{});
    case JointKind::Free: return visitor(Free{});
    case JointKind::Cylindrical: return visitor(Cylindrical{});
    case JointKind::Fixed: break;
  }
  return visitor(Fixed{});
}

/// Calls visitor(kind_object, JointKind) for every kind, in the order of JointKind: the
/// kinds serving one JointType are listed specialised first, so the first that accepts
/// a joint is its kind (joint_kind_of).
template <typename Visitor>
inline void for_each_joint_kind(Visitor&& visitor) {
  for (int k = 0; k < kJointKindCount; ++k) {
    const JointKind kind = static_cast<JointKind>(k);
    visit_joint_kind(kind, [&](auto object) { visitor(object, kind); });
  }
}

/// The kinds for which `predicate(kind_object)` holds, as bits over JointKind (bit k: kind
/// k), a compile-time constant: a hot loop tests a kind trait with one shift and no switch,
/// and without assuming an order of the enum (joint_trigonometry.hpp).
template <typename Predicate>
constexpr unsigned joint_kind_mask(Predicate predicate) {
  static_assert(kJointKindCount <= 32, "a JointKind bit mask holds 32 kinds");
  unsigned mask = 0;
  for (int k = 0; k < kJointKindCount; ++k)
    if (visit_joint_kind(static_cast<JointKind>(k), predicate)) mask |= 1u << k;
  return mask;
}

/// Whether `kind` is in a joint_kind_mask.
constexpr bool joint_kind_in(unsigned mask, JointKind kind) { return (mask >> static_cast<int>(kind)) & 1u; }

}  // namespace mechdyn
