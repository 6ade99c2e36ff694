// Limbs of a parallel manipulator (momentum-screw §3; screw-kinematics §2–3). See the header.
#include "mechdyn/parallel/parallel_model.hpp"

#include <algorithm>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

std::string body_name(const Model& model, int body) {
  return body == kGround ? std::string("ground") : "body '" + model.bodies[body].name + "'";
}

[[noreturn]] void refuse(const Model& model, const std::string& what) {
  throw ModelError("model '" + model.name + "': not a parallel manipulator of limbs from the ground to the platform: " +
                   what);
}

int tree_joint_freedoms(const Model& model, int body) {
  const Joint& joint = model.joints[body];
  if (joint.type == JointType::Free)
    refuse(model, "joint '" + joint.name + "' is a free joint (a limb has R, P, C, U, S or fixed joints)");
  return joint.nv;
}

}  // namespace

int cut_joint_freedoms(const Model& model, const Loop& loop) {
  const CutJointFacts& facts = cut_joint_facts(loop.type);
  if (facts.planar_only)
    refuse(model, "cut joint '" + loop.name + "' is " + facts.name +
                      " (a limb ends with a revolute, prismatic, universal, spherical or fixed joint)");
  return facts.freedoms;
}

ParallelModel make_parallel_model(const Model& model, int body) {
  ParallelModel pm;
  const int n = model.num_bodies();
  if (body < 0 || body >= n) throw ModelError("model '" + model.name + "': the prescribed body is not in the model");
  pm.body = body;
  // The platform group: up through fixed joints, then every body welded below.
  int root = body;
  while (model.joints[root].type == JointType::Fixed && model.bodies[root].parent != kGround)
    root = model.bodies[root].parent;
  if (model.joints[root].type == JointType::Fixed)
    refuse(model, body_name(model, body) + " is welded to the ground: it cannot move");
  pm.group_root = root;
  std::vector<char> in_group(static_cast<std::size_t>(n), 0);
  in_group[static_cast<std::size_t>(root)] = 1;
  for (int b : model.subtree[root]) {
    if (b == root) continue;
    const int parent = model.bodies[b].parent;
    if (in_group[static_cast<std::size_t>(parent)] && model.joints[b].type == JointType::Fixed) {
      in_group[static_cast<std::size_t>(b)] = 1;
    } else if (in_group[static_cast<std::size_t>(parent)]) {
      refuse(model, body_name(model, b) + " hangs on the platform by the moving joint '" + model.joints[b].name +
                        "' (limbs must run from the ground to the platform)");
    }
  }
  for (int b = 0; b < n; ++b)
    if (in_group[static_cast<std::size_t>(b)]) pm.platform_bodies.push_back(b);
  // Offsets of the group members from the prescribed body (natural frames: at q = 0 every
  // frame is parallel to the world, and fixed joints keep it so): sums of joint origins.
  auto origin_from_root = [&](int b) {
    Vec3 offset = Vec3::Zero();
    for (int k = b; k != root; k = model.bodies[k].parent) offset += model.joints[k].origin;
    return offset;
  };
  const Vec3 body_offset = origin_from_root(body);
  for (int b : pm.platform_bodies) pm.group_offset.push_back(origin_from_root(b) - body_offset);

  std::vector<int> limb_of(static_cast<std::size_t>(n), -1);
  auto add_tree_joint = [&](Limb& limb, int b) {
    LimbJointScrews j;
    j.index = b;
    j.freedoms = tree_joint_freedoms(model, b);
    j.first_freedom = limb.freedoms;
    j.v_index = model.joints[b].v_index;
    j.actuated = model.joints[b].actuated && j.freedoms > 0;
    for (int k = 0; k < j.freedoms; ++k) {
      if (j.actuated) {
        limb.actuated_columns.push_back(limb.freedoms + k);
        limb.actuated_dofs.push_back(j.v_index + k);
      }
    }
    limb.freedoms += j.freedoms;
    limb.joints.push_back(j);
  };
  auto single_child = [&](int b, const char* where) {
    const auto& children = model.children[b];
    if (children.size() > 1)
      refuse(model, body_name(model, b) + " has " + std::to_string(children.size()) + " children: the " + where +
                        " branches");
    return children.empty() ? -1 : children[0];
  };

  // The tree limb: ground → ... → root's parent, then the root's joint.
  {
    Limb limb;
    std::vector<int> chain;
    for (int b = model.bodies[root].parent; b != kGround; b = model.bodies[b].parent) chain.push_back(b);
    std::reverse(chain.begin(), chain.end());
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const int next = i + 1 < chain.size() ? chain[i + 1] : root;
      if (model.children[chain[i]].size() != 1 || model.children[chain[i]][0] != next)
        refuse(model, body_name(model, chain[i]) + " on the platform's chain has another child (the chain branches)");
      limb.bodies.push_back(chain[i]);
      limb_of[static_cast<std::size_t>(chain[i])] = 0;
      add_tree_joint(limb, chain[i]);
    }
    add_tree_joint(limb, root);
    limb.name = model.joints[chain.empty() ? root : chain[0]].name;
    pm.limbs.push_back(limb);
  }
  // The other limbs: chains from the ground, each closed on the group by one cut joint.
  for (int b = 0; b < n; ++b) {
    if (model.bodies[b].parent != kGround || in_group[static_cast<std::size_t>(b)] ||
        limb_of[static_cast<std::size_t>(b)] >= 0)
      continue;
    Limb limb;
    limb.name = model.joints[b].name;
    const int index = static_cast<int>(pm.limbs.size());
    for (int c = b; c >= 0; c = single_child(c, "limb")) {
      limb.bodies.push_back(c);
      limb_of[static_cast<std::size_t>(c)] = index;
      add_tree_joint(limb, c);
    }
    pm.limbs.push_back(limb);
  }
  // Each cut joint closes one limb on the group, from that limb's last body.
  pm.loop_limb.assign(model.loops.size(), -1);
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const bool a_in = loop.a.body != kGround && in_group[static_cast<std::size_t>(loop.a.body)];
    const bool b_in = loop.b.body != kGround && in_group[static_cast<std::size_t>(loop.b.body)];
    if (a_in == b_in)
      refuse(model, "cut joint '" + loop.name + "' " +
                        (a_in ? std::string("joins two parts of the platform") : "does not end on the platform"));
    const int other = a_in ? loop.b.body : loop.a.body;
    if (other == kGround) refuse(model, "cut joint '" + loop.name + "' joins the platform to the ground directly");
    const int l = limb_of[static_cast<std::size_t>(other)];
    Limb& limb = pm.limbs[static_cast<std::size_t>(l)];
    if (l == 0 || other != limb.bodies.back())
      refuse(model, "cut joint '" + loop.name + "' starts on " + body_name(model, other) +
                        ", which is not the last body of a limb from the ground");
    if (!limb.joints.empty() && limb.joints.back().cut)
      refuse(model, "limb '" + limb.name + "' ends on the platform by two cut joints ('" +
                        model.loops[static_cast<std::size_t>(limb.joints.back().index)].name + "', '" + loop.name + "')");
    LimbJointScrews j;
    j.cut = true;
    j.index = static_cast<int>(i);
    j.freedoms = cut_joint_freedoms(model, loop);
    j.first_freedom = limb.freedoms;
    j.platform_is_a = a_in;
    j.limb_end_body = other;
    limb.freedoms += j.freedoms;
    limb.joints.push_back(j);
    pm.loop_limb[i] = l;
  }
  for (std::size_t l = 1; l < pm.limbs.size(); ++l)
    if (pm.limbs[l].joints.empty() || !pm.limbs[l].joints.back().cut)
      refuse(model, "the chain from '" + pm.limbs[l].name + "' (" + body_name(model, pm.limbs[l].bodies.back()) +
                        ") does not end on the platform by a cut joint");
  for (const Limb& limb : pm.limbs) {
    if (limb.freedoms > 6)
      refuse(model, "limb '" + limb.name + "' has " + std::to_string(limb.freedoms) +
                        " freedoms, more than 6 (its own motion is not determined by the platform's)");
    for (int k : limb.actuated_dofs) pm.actuated_dofs.push_back(k);
  }
  std::sort(pm.actuated_dofs.begin(), pm.actuated_dofs.end());

  // Closed-form positions: straight U–P legs (cut or tree platform joint on the axis).
  auto group_offset_of = [&](int member) {
    for (std::size_t g = 0; g < pm.platform_bodies.size(); ++g)
      if (pm.platform_bodies[g] == member) return pm.group_offset[g];
    return Vec3(Vec3::Zero());
  };
  pm.closed_form_positions = true;
  if (model.joints[root].type == JointType::Universal) {
    const Joint& j = model.joints[root];
    pm.root_perpendicular = (j.axis - j.second_axis * j.axis.dot(j.second_axis)).normalized();
  }
  for (Limb& limb : pm.limbs) {
    if (limb.bodies.empty()) {  // the group on the ground by one joint
      const JointType type = model.joints[root].type;
      if (type != JointType::Spherical && type != JointType::Universal) pm.closed_form_positions = false;
      continue;
    }
    bool straight = limb.bodies.size() == 2;
    if (straight) {
      const int lower = limb.bodies[0], upper = limb.bodies[1];
      const Joint& u = model.joints[lower];
      const Joint& p = model.joints[upper];
      // the leg must not lie along the universal joint's second axis (θ₂ undefined)
      straight = u.type == JointType::Universal && p.type == JointType::Prismatic &&
                 u.axis.cross(u.second_axis).norm() > 1e-6 && u.second_axis.cross(p.axis).norm() > 1e-6;
      Vec3 end = Vec3::Zero(), platform_point = Vec3::Zero();
      StraightLeg& leg = limb.leg;
      const LimbJointScrews& last = limb.joints.back();
      if (straight && last.cut) {
        const Loop& loop = model.loops[static_cast<std::size_t>(last.index)];
        const BodyPoint& on_platform = last.platform_is_a ? loop.a : loop.b;
        end = last.platform_is_a ? loop.b.point : loop.a.point;
        platform_point = group_offset_of(on_platform.body) + on_platform.point;
        leg.end_member = on_platform.body;
        if (loop.type == LoopType::Spherical) leg.end = LegEnd::Spherical;
        if (loop.type == LoopType::Universal) {
          leg.end = LegEnd::Universal;
          leg.end_leg_axis = last.platform_is_a ? loop.second_axis : loop.axis;
          leg.end_platform_axis = last.platform_is_a ? loop.axis : loop.second_axis;
        }
      } else if (straight) {
        const Joint& end_joint = model.joints[root];
        end = end_joint.origin;
        platform_point = group_offset_of(root);
        leg.end_member = root;
        straight = end_joint.type == JointType::Spherical || end_joint.type == JointType::Universal;
        leg.end = end_joint.type == JointType::Spherical ? LegEnd::Spherical : LegEnd::Universal;
        leg.end_leg_axis = end_joint.axis;
        leg.end_platform_axis = end_joint.second_axis;
      }
      const Vec3 reach = p.origin + end;
      straight = straight && reach.cross(p.axis).norm() <= 1e-12 * (1.0 + reach.norm());
      if (straight) {
        leg.applies = true;
        leg.lower = lower;
        leg.upper = upper;
        leg.offset = p.axis.dot(reach);
        leg.end_point = end;
        leg.end_along = p.axis.dot(end);
        leg.platform_point = platform_point;
        leg.base_point = u.origin;
        leg.first_axis = u.axis;
        leg.second_axis = u.second_axis;
        leg.slide_axis = p.axis;
        leg.first_second = u.axis.dot(u.second_axis);
        leg.second_slide = u.second_axis.dot(p.axis);
        leg.first_cross_second = u.axis.cross(u.second_axis);
        leg.second_cross_slide = u.second_axis.cross(p.axis);
        Mat3 frame;
        frame << u.second_axis, p.axis, u.second_axis.cross(p.axis);
        leg.frame_inverse = frame.inverse();
        leg.base_moment = u.origin.cross(u.axis);
        // Slender parts: centre of mass on the axis, inertia a 1 + (b − a) d dᵀ (lower frame = upper's).
        const Vec3& d = p.axis;
        auto on_axis = [&](const Vec3& x) { return (x - d * d.dot(x)).norm() <= 1e-12 * (1.0 + x.norm()); };
        auto symmetric = [&](const Mat3& inertia, double& across, double& along) {
          along = d.dot(inertia * d);
          across = 0.5 * (inertia.trace() - along);
          const Mat3 axial = across * Mat3::Identity() + (along - across) * d * d.transpose();
          return (inertia - axial).norm() <= 1e-12 * (1e-30 + inertia.norm());
        };
        const Body& lower_body = model.bodies[lower];
        const Body& upper_body = model.bodies[upper];
        const Vec3 upper_com = p.origin + upper_body.com;  // from A at prismatic q = 0, lower frame
        leg.slender = on_axis(lower_body.com) && on_axis(upper_com) &&
                      symmetric(lower_body.inertia, leg.lower_inertia_across, leg.lower_inertia_along) &&
                      symmetric(upper_body.inertia, leg.upper_inertia_across, leg.upper_inertia_along);
        leg.lower_com_along = d.dot(lower_body.com);
        leg.upper_com_along = d.dot(upper_com);
        // Closed-form motion and forces: a spherical or universal end, only the prismatic
        // joint actuated (its effort is the one effort column of the leg).
        const bool passive = !u.actuated && (last.cut || !model.joints[root].actuated);  // cut joints carry no effort
        leg.closed_form_motion = passive && leg.end != LegEnd::Other;
        leg.end_axis_is_second = leg.end == LegEnd::Universal && leg.end_leg_axis == u.second_axis;
      } else {
        limb.leg = StraightLeg{};
      }
    }
    if (!straight) pm.closed_form_positions = false;
  }
  return pm;
}

}  // namespace mechdyn
