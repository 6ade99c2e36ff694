// What each type of cut joint is, asked of its kind (src/model/cut_joint_kinds/*.hpp).
// See model/cut_joint.hpp.
#include "mechdyn/model/cut_joint.hpp"

#include <array>

#include "cut_joint_dispatch.hpp"

namespace mechdyn {

namespace {

// The facts of every kind, in the order of LoopType (a kind whose `type` is not its
// slot in LoopType fails tests/unit/test_cut_joint_kinds.cpp).
std::array<CutJointFacts, kLoopTypeCount> make_facts_table() {
  std::array<CutJointFacts, kLoopTypeCount> table{};
  for (int k = 0; k < kLoopTypeCount; ++k)
    visit_cut_joint_kind(static_cast<LoopType>(k), [&](auto kind) {
      using Kind = decltype(kind);
      table[static_cast<std::size_t>(k)] = {Kind::type,        Kind::type_name,   Kind::rows, 6 - Kind::rows,
                                            Kind::axis_keys,   Kind::planar_only, Kind::row_labels,
                                            Kind::mjcf};
    });
  return table;
}

}  // namespace

const CutJointFacts& cut_joint_facts(LoopType type) {
  static const std::array<CutJointFacts, kLoopTypeCount> table = make_facts_table();
  const int k = static_cast<int>(type);
  return table[static_cast<std::size_t>(k >= 0 && k < kLoopTypeCount ? k : 0)];
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
