// Limbs of a parallel mechanism and their constraint screws. See the header.
#include "mechdyn/mobility/limb_constraints.hpp"

#include <numeric>

#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

struct Edge {
  LimbJoint joint;
  int from = 0;  // vertex: a body, or `ground` (= number of bodies)
  int to = 0;
};

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Adds the twists a joint allows between the two bodies it joins, each normalised in the
// scaled metric (so that the reference magnitude of the rank decision is 1).
void add_joint_twists(const Model& model, const Data& data, const LimbJoint& joint, const ScrewScale& scale,
                      double tolerance, ScrewSystem& twists, int& freedoms) {
  auto add_normalized = [&](const Vec6& twist) {
    const double norm = twists.scaled_norm(twist);
    if (norm > 0.0) twists.add(Vec6(twist / norm));
  };
  if (!joint.cut) {
    const Joint& tree_joint = model.joints[joint.index];
    for (int k = 0; k < tree_joint.nv; ++k) add_normalized(data.motion_axis[tree_joint.v_index + k]);
    freedoms += tree_joint.nv;
    return;
  }
  // A cut joint allows the twists reciprocal to its rows' constraint wrenches.
  ScrewSystem rows(ScrewKind::Wrench, scale);
  const int first = model.loop_row_index[joint.index];
  for (int r = first; r < first + loop_rows(model.loops[joint.index].type); ++r) {
    const Vec6 wrench = Wrench::from_spatial_force(data.loop_row_wrench_a[r]).plucker;
    const double norm = rows.scaled_norm(wrench);
    if (norm > 0.0) rows.add(Vec6(wrench / norm));
  }
  rows.factorize(tolerance, 1.0);
  const ScrewBasis allowed = rows.reciprocal_basis();
  for (Eigen::Index k = 0; k < allowed.cols(); ++k) add_normalized(allowed.col(k));
  freedoms += static_cast<int>(allowed.cols());
}

}  // namespace

std::vector<LimbConstraints> limb_constraints(const Model& model, Data& data, int platform, const ScrewScale& scale,
                                              double tolerance) {
  const int n = model.num_bodies();
  if (platform < 0 || platform >= n) throw InvalidArgument("limb_constraints: body index out of range");
  if (model.has_constraints()) loop_row_wrenches(model, data);
  const int ground = n;
  auto vertex = [&](int body) { return body == kGround ? ground : body; };
  std::vector<Edge> edges;
  for (int i = 0; i < n; ++i) edges.push_back({{false, i}, vertex(model.bodies[i].parent), i});
  for (int c = 0; c < static_cast<int>(model.loops.size()); ++c)
    edges.push_back({{true, c}, vertex(model.loops[c].a.body), vertex(model.loops[c].b.body)});

  // Connected groups of bodies once ground and the platform are removed.
  std::vector<int> group(n);
  std::iota(group.begin(), group.end(), 0);
  auto inner = [&](int v) { return v != ground && v != platform; };
  for (const Edge& e : edges)
    if (inner(e.from) && inner(e.to)) group[find_root(group, e.from)] = find_root(group, e.to);

  std::vector<LimbConstraints> limbs;
  auto finish = [&](LimbConstraints& limb) {
    ScrewSystem twists(ScrewKind::Twist, scale);
    for (const LimbJoint& joint : limb.joints) {
      limb.joint_names.push_back(joint.cut ? model.loops[joint.index].name : model.joints[joint.index].name);
      add_joint_twists(model, data, joint, scale, tolerance, twists, limb.freedoms);
    }
    if (limb.serial) {
      twists.factorize(tolerance, 1.0);
      limb.twist_rank = twists.rank();
      limb.constraint_wrenches = twists.canonical_reciprocal_basis();
    } else {
      limb.constraint_wrenches.resize(6, 0);
    }
    limbs.push_back(std::move(limb));
  };

  // A joint between ground and the platform is a limb by itself (e.g. the S chain of 3UPS-UPU-S).
  for (const Edge& e : edges) {
    if ((e.from == ground && e.to == platform) || (e.from == platform && e.to == ground)) {
      LimbConstraints limb;
      limb.joints.push_back(e.joint);
      finish(limb);
    }
  }
  for (int root = 0; root < n; ++root) {
    if (!inner(root) || find_root(group, root) != root) continue;
    std::vector<const Edge*> members;
    int to_ground = 0, to_platform = 0;
    std::vector<int> degree(n + 1, 0);
    int bodies = 0;
    for (int b = 0; b < n; ++b)
      if (inner(b) && find_root(group, b) == root) ++bodies;
    for (const Edge& e : edges) {
      const bool touches =
          (inner(e.from) && find_root(group, e.from) == root) || (inner(e.to) && find_root(group, e.to) == root);
      if (!touches) continue;
      members.push_back(&e);
      ++degree[e.from];
      ++degree[e.to];
      if (e.from == ground || e.to == ground) ++to_ground;
      if (e.from == platform || e.to == platform) ++to_platform;
    }
    if (to_ground == 0 || to_platform == 0) continue;  // not between ground and the platform
    LimbConstraints limb;
    bool path = to_ground == 1 && to_platform == 1 && static_cast<int>(members.size()) == bodies + 1;
    for (int b = 0; b < n && path; ++b)
      if (inner(b) && find_root(group, b) == root && degree[b] != 2) path = false;
    limb.serial = path;
    if (path) {  // walk from ground to the platform
      int at = ground;
      std::vector<char> used(members.size(), 0);
      while (at != platform) {
        bool stepped = false;
        for (std::size_t m = 0; m < members.size() && !stepped; ++m) {
          if (used[m] || (members[m]->from != at && members[m]->to != at)) continue;
          used[m] = 1;
          stepped = true;
          limb.joints.push_back(members[m]->joint);
          at = members[m]->from == at ? members[m]->to : members[m]->from;
        }
        if (!stepped) throw SolverError("limb_constraints: a serial limb has no path to the platform (internal error)");
      }
    } else {
      for (const Edge* e : members) limb.joints.push_back(e->joint);
    }
    finish(limb);
  }
  return limbs;
}

}  // namespace mechdyn
