// What each type of cut joint is, asked of its kind (src/model/cut_joint_kinds/*.hpp).
// See model/cut_joint.hpp.
#include "mechdyn/model/cut_joint.hpp"

#include <array>

#include "cut_joint_dispatch.hpp"

namespace mechdyn {

namespace {

template <class Kind>
constexpr CutJointFacts facts_of() {
  return {Kind::type, Kind::type_name, Kind::rows, 6 - Kind::rows, Kind::axis_keys, Kind::planar_only,
          Kind::row_labels, Kind::mjcf};
}

// The facts of every kind, in the order of LoopType, built at compile time (no guard of a
// function-local static on the hot paths that ask loop_rows).
constexpr std::array<CutJointFacts, kLoopTypeCount> make_facts_table() {
  std::array<CutJointFacts, kLoopTypeCount> table{};
  for (int k = 0; k < kLoopTypeCount; ++k)
    table[static_cast<std::size_t>(k)] =
        visit_cut_joint_kind(static_cast<LoopType>(k), [](auto kind) { return facts_of<decltype(kind)>(); });
  return table;
}

constexpr std::array<CutJointFacts, kLoopTypeCount> kFacts = make_facts_table();

constexpr bool kinds_sit_in_their_slots() {
  for (int k = 0; k < kLoopTypeCount; ++k)
    if (kFacts[static_cast<std::size_t>(k)].type != static_cast<LoopType>(k)) return false;
  return true;
}
static_assert(kinds_sit_in_their_slots(), "a cut-joint kind's `type` is not its slot in visit_cut_joint_kind");

}  // namespace

const CutJointFacts& cut_joint_facts(LoopType type) {
  const auto k = static_cast<std::size_t>(type);
  return kFacts[k < kFacts.size() ? k : 0];
}

const char* loop_type_name(LoopType type) { return cut_joint_facts(type).name; }

int loop_rows(LoopType type) { return cut_joint_facts(type).rows; }

std::optional<LoopType> loop_type_from_name(const std::string& name) {
  for (int k = 0; k < kLoopTypeCount; ++k)
    if (name == loop_type_name(static_cast<LoopType>(k))) return static_cast<LoopType>(k);
  return std::nullopt;
}

std::string loop_type_names() {
  std::string out;
  for (int k = 0; k < kLoopTypeCount; ++k) {
    if (k > 0) out += k + 1 < kLoopTypeCount ? ", " : " or ";
    out += loop_type_name(static_cast<LoopType>(k));
  }
  return out;
}

int cut_joint_freedom_axes(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b, CutFreedom* out) {
  return visit_cut_joint_kind(loop.type,
                              [&](auto kind) { return decltype(kind)::freedom_axes(loop, rotation_a, rotation_b, out); });
}

ReactionSplit cut_joint_reaction_split(const Loop& loop, const Mat3& rotation_a, const Mat3& rotation_b,
                                       const Vec3& force, const Vec3& torque) {
  return visit_cut_joint_kind(loop.type, [&](auto kind) {
    return decltype(kind)::split_reaction(loop, rotation_a, rotation_b, force, torque);
  });
}

}  // namespace mechdyn
