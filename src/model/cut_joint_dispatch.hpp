// The one switch from a cut joint's type (model/cut_joint.hpp) to its kind's code
// (src/model/cut_joint_kinds/*.hpp). Algorithms call
//   visit_cut_joint_kind(loop.type, [&](auto kind) { decltype(kind)::closure_rows(rows, loop); });
// once per loop: the lambda is instantiated per kind, so each kind's rows are inline
// calls with compile-time row counts (as visit_joint_kind for the tree joints). Not installed.
#pragma once

#include "cut_joint_kinds/fixed.hpp"
#include "cut_joint_kinds/gear.hpp"
#include "cut_joint_kinds/planar_revolute.hpp"
#include "cut_joint_kinds/prismatic.hpp"
#include "cut_joint_kinds/revolute.hpp"
#include "cut_joint_kinds/spherical.hpp"
#include "cut_joint_kinds/universal.hpp"

namespace mechdyn {

template <typename Visitor>
constexpr decltype(auto) visit_cut_joint_kind(LoopType type, Visitor&& visitor) {
  using namespace cut_joint_kinds;
  switch (type) {
    case LoopType::Revolute: return visitor(Revolute{});
    case LoopType::Prismatic: return visitor(Prismatic{});
    case LoopType::Universal: return visitor(Universal{});
    case LoopType::Spherical: return visitor(Spherical{});
    case LoopType::Fixed: return visitor(Fixed{});
    case LoopType::PlanarRevolute: break;
  }
  return visitor(PlanarRevolute{});
}

/// Calls visitor(kind_object) for every cut-joint kind, in the order of LoopType.
template <typename Visitor>
inline void for_each_cut_joint_kind(Visitor&& visitor) {
  for (int k = 0; k < kLoopTypeCount; ++k) visit_cut_joint_kind(static_cast<LoopType>(k), visitor);
}

/// The couplings' kinds (force-elements.md): one today, the gear.
template <typename Visitor>
inline decltype(auto) visit_coupling_kind(CouplingType type, Visitor&& visitor) {
  switch (type) {
    case CouplingType::Gear: break;
  }
  return visitor(cut_joint_kinds::Gear{});
}

}  // namespace mechdyn
