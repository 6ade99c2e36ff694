// From the world-coordinate link graph of a robot description to a mechdyn Model in
// natural frames (robot_graph.hpp). The rules (docs/robot-files.md "What is done"):
//  1. every number finite, masses ≥ 0, inertias symmetric positive semi-definite —
//     otherwise a ModelError naming the link;
//  2. mass 0 with a non-zero inertia: the inertia is dropped (warning);
//  3. principal moments breaking the triangle inequality: projected onto the nearest
//     valid tensor (repair_triangle_inequality; warning with the amount);
//  4. optionally, fixed joints merged: the child's mass, centre of mass and inertia are
//     added to the parent's (parallel-axis theorem), its children, loops, markers and
//     force-element ends move to the parent, and its frame stays available as a marker of
//     the same name; a link on a fixed joint whose own inertia is not physical (a tiny part
//     with a careless tensor) is merged so always, and the merged inertia checked instead;
//  5. a link whose whole subtree has no mass is dropped, its frame kept as a marker
//     (warning: a moving joint carrying no mass would give M a zero row and column);
//  6. bodies in depth-first order from ground, children in joint order; origins, coms,
//     inertias, axes and loop points taken relative to the joint anchors;
//  7. force elements and couplings (format 3) on the model's joints and bodies, names made
//     unique against joints, loops and each other (warning); joint stops at the limits on
//     request (BuildOptions::limit_stops).
// Cost O(links + joints + loops); runs once per file.
#include "robot_graph.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "mechdyn/errors.hpp"

namespace mechdyn::io {

void Warnings::add(const std::string& element, const std::string& text, int line) const {
  if (sink_ == nullptr) return;
  sink_->push_back(source_ + ": " + element + ": " + text + (line > 0 ? " (line " + std::to_string(line) + ")" : ""));
}

void fail_at(const std::string& source, const std::string& element, const std::string& problem, int line) {
  throw ModelError(source + ": " + element + ": " + problem + (line > 0 ? " (line " + std::to_string(line) + ")" : ""));
}

namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

bool finite(const Vec3& v) { return v.allFinite(); }

// S(d) = (dᵀd) 1 − d dᵀ: the parallel-axis term of a unit mass at offset d.
Mat3 parallel_axis(const Vec3& d) { return d.squaredNorm() * Mat3::Identity() - d * d.transpose(); }

}  // namespace

Mat3 rotation_from_rpy(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

Vec3 clean_direction(const Vec3& value) {
  const double norm = value.norm();
  if (!(norm > 0.0)) return value;
  Vec3 out = value;
  for (int k = 0; k < 3; ++k)
    if (std::abs(out[k]) < 1e-15 * norm) out[k] = 0.0;
  return out / out.norm();
}

double repair_triangle_inequality(Mat3& inertia) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inertia);
  Vec3 moments = eigen.eigenvalues();  // ascending: the largest is the only one that can break it
  const double excess = moments[2] - moments[0] - moments[1];
  // Round-off of a tensor on the boundary (a thin rod turned by a rotation: 1e-16 of its
  // trace) is no violation: finalize_model accepts up to 1e-12 of the largest entry.
  if (!(excess > 1e-13 * std::abs(moments.sum()))) return 0.0;
  moments[0] += excess / 3.0;
  moments[1] += excess / 3.0;
  moments[2] -= excess / 3.0;
  // Land on the valid side in floating point too (MuJoCo checks A + B >= C exactly).
  while (moments[0] + moments[1] < moments[2]) moments[2] = std::nextafter(moments[2], 0.0);
  const Mat3& axes = eigen.eigenvectors();
  inertia = axes * moments.asDiagonal() * axes.transpose();
  inertia = 0.5 * (inertia + inertia.transpose()).eval();
  return excess;
}

Model build_model(RobotGraph graph, const BuildOptions& options, const Warnings& warnings) {
  const std::string& source = warnings.source();
  std::vector<GraphLink>& links = graph.links;
  const int n = static_cast<int>(links.size());
  if (n == 0) fail_at(source, "document", "describes no links");

  // ---- 1-3: numbers and inertias ---------------------------------------------------
  // A link on a fixed joint below another link whose own tensor is not physical (a tiny
  // part, 1e-6 kg, written with a careless inertia, as real files do) is judged by the
  // inertia of what it is welded to: it is merged into its parent (step 4) and the merged
  // tensor is checked instead.
  std::vector<int> fixed_parent(n, kGround - 1);  // the parent link when the link hangs on a fixed joint
  for (const GraphJoint& joint : graph.joints)
    if (joint.child >= 0 && joint.child < n && joint.type == JointType::Fixed && joint.parent >= 0 && joint.parent < n)
      fixed_parent[joint.child] = joint.parent;
  std::vector<bool> weld_for_inertia(n, false);
  std::vector<bool> received_part(n, false);  // got a merged part with an unphysical tensor: checked after merging
  std::vector<std::string> part_problem(n);
  for (GraphLink& link : links) {
    if (!std::isfinite(link.mass) || !finite(link.com) || !link.inertia.allFinite() || !finite(link.frame_origin))
      fail_at(source, link.element, "has a value that is not a finite number", link.line);
    if (link.mass < 0.0) fail_at(source, link.element, "mass " + number(link.mass) + " is negative", link.line);
    const double scale = std::max(1e-300, link.inertia.cwiseAbs().maxCoeff());
    if ((link.inertia - link.inertia.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
      fail_at(source, link.element, "inertia is not symmetric", link.line);
    link.inertia = 0.5 * (link.inertia + link.inertia.transpose()).eval();
  }
  auto not_physical = [](const Mat3& inertia) -> std::string {
    const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
    if (moments[0] < -1e-12 * std::max(1.0, moments.cwiseAbs().maxCoeff()))
      return "is not positive semi-definite (principal moment " + number(moments[0]) + " kg m^2)";
    if (moments[2] - moments[0] - moments[1] > 1e-13 * std::abs(moments.sum()))
      return "breaks the triangle inequality (principal moments " + number(moments[0]) + ", " + number(moments[1]) +
             ", " + number(moments[2]) + " kg m^2)";
    return "";
  };
  for (int i = 0; i < n; ++i) {
    GraphLink& link = links[i];
    if (link.mass == 0.0) continue;  // rule 2 below
    const std::string problem = not_physical(link.inertia);
    if (problem.empty() || fixed_parent[i] < 0) continue;
    weld_for_inertia[i] = true;
    part_problem[i] = problem;
  }
  auto check_inertia = [&](GraphLink& link) {
    const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(link.inertia, Eigen::EigenvaluesOnly).eigenvalues();
    if (moments[0] < -1e-12 * std::max(1.0, moments.cwiseAbs().maxCoeff()))
      fail_at(source, link.element,
              "inertia is not positive semi-definite (principal moment " + number(moments[0]) +
                  " kg m^2); no mass distribution has it",
              link.line);
    if (link.mass == 0.0 && link.inertia.cwiseAbs().maxCoeff() > 0.0) {
      warnings.add(link.element,
                   "has inertia (largest principal moment " + number(moments[2]) +
                       " kg m^2) but no mass; the inertia is ignored (a massless link has none)",
                   link.line);
      link.inertia.setZero();
      return;
    }
    const Vec3 before = moments;
    const double excess = repair_triangle_inequality(link.inertia);
    if (excess > 0.0) {
      const Vec3 after = Eigen::SelfAdjointEigenSolver<Mat3>(link.inertia, Eigen::EigenvaluesOnly).eigenvalues();
      warnings.add(link.element,
                   "inertia breaks the triangle inequality (principal moments " + number(before[0]) + ", " +
                       number(before[1]) + ", " + number(before[2]) + " kg m^2: the two smaller fall short of the largest by " +
                       number(excess) + ", " + number(100.0 * excess / before.sum()) +
                       "% of the trace); moved to the nearest valid inertia, moments " + number(after[0]) + ", " +
                       number(after[1]) + ", " + number(after[2]) + " (each changed by " + number(excess / 3.0) + ")",
                   link.line);
    }
  };
  for (int i = 0; i < n; ++i)
    if (!weld_for_inertia[i]) check_inertia(links[i]);

  // ---- tree structure -------------------------------------------------------------------
  std::vector<int> joint_of(n, -1);
  for (int j = 0; j < static_cast<int>(graph.joints.size()); ++j) {
    GraphJoint& joint = graph.joints[j];
    if (joint.child < 0 || joint.child >= n || joint.parent < kGround || joint.parent >= n)
      fail_at(source, joint.element, "connects a link that does not exist", joint.line);
    if (joint.parent == joint.child) fail_at(source, joint.element, "connects a link to itself", joint.line);
    if (joint_of[joint.child] >= 0)
      fail_at(source, joint.element,
              "link '" + links[joint.child].name + "' already hangs from joint '" +
                  graph.joints[joint_of[joint.child]].name + "'",
              joint.line);
    joint_of[joint.child] = j;
    if (!finite(joint.anchor) || !finite(joint.axis) || !finite(joint.second_axis))
      fail_at(source, joint.element, "has a value that is not a finite number", joint.line);
    const int axes = joint_axis_count(joint.type);  // the kind's `axis` (1) or `axes` (2)
    if (axes >= 1) {
      if (!(joint.axis.norm() > 1e-12)) fail_at(source, joint.element, "axis is a zero vector", joint.line);
      joint.axis = clean_direction(joint.axis);
    }
    if (axes == 2) {
      if (!(joint.second_axis.norm() > 1e-12)) fail_at(source, joint.element, "second axis is a zero vector", joint.line);
      joint.second_axis = clean_direction(joint.second_axis);
      if (joint.axis.cross(joint.second_axis).norm() < 1e-9)
        fail_at(source, joint.element, "the two axes are parallel", joint.line);
    }
  }
  for (int i = 0; i < n; ++i)
    if (joint_of[i] < 0) fail_at(source, links[i].element, "is attached to nothing (no joint has it as child)", links[i].line);
  // Every chain of parents must reach ground: otherwise the joints form a cycle.
  for (int i = 0; i < n; ++i) {
    int at = i;
    for (int steps = 0; at != kGround; ++steps) {
      if (steps > n)
        fail_at(source, links[i].element,
                "its chain of parent joints never reaches the base (the joints form a cycle)", links[i].line);
      at = graph.joints[joint_of[at]].parent;
    }
  }
  for (GraphLoop& loop : graph.loops) {
    if (loop.a < 0 || loop.a >= n || loop.b < kGround || loop.b >= n)
      fail_at(source, loop.element, "connects a link that does not exist", loop.line);
    if (!finite(loop.point) || !finite(loop.axis) || !finite(loop.second_axis) ||
        (loop.point_b && !finite(*loop.point_b)))
      fail_at(source, loop.element, "has a value that is not a finite number", loop.line);
    if (loop.a == loop.b) fail_at(source, loop.element, "connects a link to itself; it closes no loop", loop.line);
    const CutAxisKeys keys = cut_joint_facts(loop.type).axis_keys;
    if (keys != CutAxisKeys::None) {
      if (!(loop.axis.norm() > 1e-12)) fail_at(source, loop.element, "axis is a zero vector", loop.line);
      loop.axis = clean_direction(loop.axis);
    }
    if (keys == CutAxisKeys::Axes) {
      if (!(loop.second_axis.norm() > 1e-12)) fail_at(source, loop.element, "second axis is a zero vector", loop.line);
      loop.second_axis = clean_direction(loop.second_axis);
      if (loop.axis.cross(loop.second_axis).norm() < 1e-9)
        fail_at(source, loop.element, "the two axes are parallel", loop.line);
    }
  }

  // `parent[i]`: the link link i hangs from (kGround); `alive[i]`: still a body.
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = graph.joints[joint_of[i]].parent;
  std::vector<bool> alive(n, true);
  // Moves everything attached to link `from` (children, loops, markers) to `to`.
  auto reattach = [&](int from, int to) {
    for (int i = 0; i < n; ++i)
      if (alive[i] && parent[i] == from) {
        parent[i] = to;
        graph.joints[joint_of[i]].parent = to;
      }
    for (GraphLoop& loop : graph.loops) {
      if (loop.a == from) loop.a = to;
      if (loop.b == from) loop.b = to;
    }
    for (GraphMarker& marker : graph.markers)
      if (marker.link == from) marker.link = to;
    for (GraphForce& force : graph.forces) {
      if (force.force.a.body == from) force.force.a.body = to;
      if (force.force.b.body == from) force.force.b.body = to;
    }
  };
  // Depth-first order from ground; children in joint order.
  auto depth_first = [&]() {
    std::vector<std::vector<int>> children(n + 1);  // index n: ground
    for (const GraphJoint& joint : graph.joints)
      if (alive[joint.child]) children[joint.parent == kGround ? n : joint.parent].push_back(joint.child);
    std::vector<int> order;
    std::function<void(int)> visit = [&](int link) {
      order.push_back(link);
      for (int c : children[link]) visit(c);
    };
    for (int root : children[n]) visit(root);
    return order;
  };

  // ---- 4: merge fixed joints (option; and parts whose own inertia is not physical) ----
  {
    std::vector<std::vector<int>> parts(n);  // the unphysical parts merged into each link
    const std::vector<int> order = depth_first();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int i = *it;
      if (graph.joints[joint_of[i]].type != JointType::Fixed) continue;
      if (!options.merge_fixed_joints && !weld_for_inertia[i]) continue;
      const int to = parent[i];
      graph.markers.push_back({links[i].name, to, links[i].frame_origin});
      if (to != kGround) {
        GraphLink& p = links[to];
        const GraphLink& c = links[i];
        const double mass = p.mass + c.mass;
        if (mass > 0.0) {
          const Vec3 com = (p.mass * p.com + c.mass * c.com) / mass;
          p.inertia = p.inertia + p.mass * parallel_axis(p.com - com) + c.inertia + c.mass * parallel_axis(c.com - com);
          p.com = com;
          p.mass = mass;
        } else {
          p.inertia += c.inertia;
        }
        if (weld_for_inertia[i]) {
          parts[to].push_back(i);
          for (int part : parts[i]) parts[to].push_back(part);
          warnings.add(c.element,
                       "inertia " + part_problem[i] + " on its own; it is welded by " + graph.joints[joint_of[i]].element +
                           " to " + p.element + ", so it is merged into it (mass, centre of mass and inertia added; its "
                           "frame kept as marker '" + c.name + "') and the combined inertia is checked instead",
                       c.line);
          received_part[to] = true;
        }
      } else if (weld_for_inertia[i]) {
        warnings.add(links[i].element,
                     "inertia " + part_problem[i] + "; it is welded to the fixed base, where its mass never moves: "
                     "merged into the base, its frame kept as marker '" + links[i].name + "'",
                     links[i].line);
      }
      alive[i] = false;
      reattach(i, to);
    }
    for (int i = 0; i < n; ++i) {
      if (!alive[i] || !received_part[i]) continue;
      const std::string problem = not_physical(links[i].inertia);
      if (problem.find("semi-definite") != std::string::npos) {
        std::string names;
        for (int part : parts[i]) names += (names.empty() ? "" : ", ") + links[part].element;
        fail_at(source, links[i].element,
                "with the parts welded to it (" + names + ", whose own inertia is not physical), the combined inertia " +
                    problem + "; no mass distribution has it",
                links[i].line);
      }
      check_inertia(links[i]);
    }
  }

  // ---- 5: links whose subtree has no mass ------------------------------------------------
  {
    const std::vector<int> order = depth_first();
    std::vector<double> subtree_mass(n, 0.0);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      subtree_mass[*it] += links[*it].mass;
      if (parent[*it] != kGround) subtree_mass[parent[*it]] += subtree_mass[*it];
    }
    for (const int i : order) {
      if (!alive[i] || subtree_mass[i] > 0.0) continue;
      // The top of a massless subtree: drop it whole; every frame in it becomes a marker.
      std::vector<int> dropped;
      std::function<void(int)> collect = [&](int link) {
        dropped.push_back(link);
        for (int c = 0; c < n; ++c)
          if (alive[c] && parent[c] == link) collect(c);
      };
      collect(i);
      for (const GraphLoop& loop : graph.loops)
        for (int d : dropped)
          if (loop.a == d || loop.b == d)
            fail_at(source, links[d].element,
                    "has no mass and carries nothing with mass, yet loop joint '" + loop.name +
                        "' holds it; give it an inertial",
                    links[d].line);
      // A joint that moves no mass would give M a zero row and column (no forward
      // dynamics), and removing it would change the robot's coordinates: refused.
      for (int d : dropped) {
        const GraphJoint& moving = graph.joints[joint_of[d]];
        if (moving.type != JointType::Fixed)
          fail_at(source, links[d].element,
                  "has no mass (no inertial) and carries nothing with mass, but " + moving.element + " (" +
                      joint_type_name(moving.type) +
                      ") moves it: the mass matrix would have a zero row; give the link an inertial",
                  links[d].line);
      }
      std::string text = "has no mass and carries nothing with mass: dropped, its frame kept as marker '" +
                         links[i].name + "'";
      if (dropped.size() > 1) text += " (and " + std::to_string(dropped.size() - 1) + " massless frames below it)";
      warnings.add(links[i].element, text, links[i].line);
      const int to = parent[i];
      for (int d : dropped) {
        graph.markers.push_back({links[d].name, to, links[d].frame_origin});
        alive[d] = false;
      }
      for (int d : dropped) reattach(d, to);
    }
  }

  // ---- 6: the Model -------------------------------------------------------------------
  const std::vector<int> order = depth_first();
  if (order.empty()) fail_at(source, "document", "no link has mass: there is nothing to move");
  std::vector<int> body_of(n, kGround);
  for (int k = 0; k < static_cast<int>(order.size()); ++k) body_of[order[k]] = k;
  auto anchor_of = [&](int link) -> Vec3 {
    return link == kGround ? Vec3::Zero() : Vec3(graph.joints[joint_of[link]].anchor);
  };

  Model model;
  model.name = graph.name;
  model.gravity = graph.gravity;
  std::set<std::string> body_names, joint_names;
  for (const int i : order) {
    body_names.insert(links[i].name);
    joint_names.insert(graph.joints[joint_of[i]].name);
  }
  for (const int i : order) {
    const GraphLink& link = links[i];
    const GraphJoint& graph_joint = graph.joints[joint_of[i]];
    Body body;
    body.name = link.name;
    if (body.name == "ground") {  // reserved for the fixed base in model files
      std::string renamed = "ground_link";
      while (body_names.count(renamed)) renamed += "_";
      warnings.add(link.element, "'ground' names the fixed base in mechdyn; the link is called '" + renamed + "'",
                   link.line);
      body.name = renamed;
      body_names.insert(renamed);
    }
    body.parent = parent[i] == kGround ? kGround : body_of[parent[i]];
    body.mass = link.mass;
    const Vec3 anchor = graph_joint.anchor;
    body.com = link.mass > 0.0 ? Vec3(link.com - anchor) : Vec3::Zero();
    body.inertia = link.inertia;
    Joint joint;
    joint.name = graph_joint.name;
    joint.type = graph_joint.type;
    joint.axis = graph_joint.axis;
    joint.second_axis = graph_joint.second_axis;
    joint.origin = anchor - anchor_of(parent[i]);
    joint.actuated = graph_joint.actuated;
    joint.friction = graph_joint.friction;
    joint.limits = graph_joint.limits;
    joint.armature = graph_joint.armature;
    model.bodies.push_back(std::move(body));
    model.joints.push_back(std::move(joint));
  }
  for (const GraphLoop& graph_loop : graph.loops) {
    Loop loop;
    loop.name = graph_loop.name;
    if (joint_names.count(loop.name)) {
      std::string renamed = loop.name + "_loop";
      while (joint_names.count(renamed)) renamed += "_";
      warnings.add(graph_loop.element, "a tree joint has the same name; the loop is called '" + renamed + "'",
                   graph_loop.line);
      loop.name = renamed;
    }
    joint_names.insert(loop.name);
    loop.type = graph_loop.type;
    int a = graph_loop.a, b = graph_loop.b;
    Vec3 first = graph_loop.axis, second = graph_loop.second_axis;
    Vec3 point_a = graph_loop.point, point_b = graph_loop.point_b.value_or(graph_loop.point);
    if (a == kGround) {  // after merging into ground; the universal's axes follow their bodies
      std::swap(a, b);
      std::swap(first, second);
      std::swap(point_a, point_b);
    }
    if (a == b) {
      warnings.add(graph_loop.element,
                   a == kGround ? "both sides were welded to the base; the loop constrains nothing and is dropped"
                                : "both sides were welded into body '" + links[a].name +
                                      "'; the loop constrains nothing and is dropped",
                   graph_loop.line);
      continue;
    }
    loop.a = {body_of[a], point_a - anchor_of(a)};
    loop.b = {b == kGround ? kGround : body_of[b], point_b - anchor_of(b)};
    loop.axis = first;
    loop.second_axis = second;
    model.loops.push_back(std::move(loop));
  }
  std::set<std::string> marker_names;
  for (const GraphMarker& graph_marker : graph.markers) {
    if (!marker_names.insert(graph_marker.name).second) continue;  // a frame named twice keeps its first place
    Marker marker;
    marker.name = graph_marker.name;
    marker.at = {graph_marker.link == kGround ? kGround : body_of[graph_marker.link],
                 graph_marker.point - anchor_of(graph_marker.link)};
    model.markers.push_back(std::move(marker));
  }
  // ---- force elements and couplings (format 3) -------------------------------------
  std::set<std::string> taken = joint_names;  // tree joints and loops
  auto model_joint = [&](int graph_joint, const std::string& element, int line) -> int {
    if (graph_joint < 0 || graph_joint >= static_cast<int>(graph.joints.size()))
      fail_at(source, element, "names a joint that does not exist", line);
    const int child = graph.joints[graph_joint].child;
    if (!alive[child])
      fail_at(source, element, graph.joints[graph_joint].element + " was welded or dropped; it has no coordinate", line);
    return body_of[child];
  };
  auto name_of = [&](const std::string& wanted, const std::string& element, int line) {
    const std::string name = unique_name(wanted, taken);
    if (name != wanted)
      warnings.add(element, "'" + wanted + "' is already the name of a joint, loop or element; it is called '" + name + "'",
                   line);
    return name;
  };
  std::set<int> joints_with_stop;
  for (const GraphForce& graph_force : graph.forces) {
    ForceElement force = graph_force.force;
    if (is_joint_element(force.type)) {
      force.joint = model_joint(force.joint, graph_force.element, graph_force.line);
      if (force.type == ForceElementType::JointStop) joints_with_stop.insert(force.joint);
    } else {
      const int a = force.a.body, b = force.b.body;
      if (a == b && force.type != ForceElementType::Applied) {
        warnings.add(graph_force.element,
                     a == kGround ? "both ends were welded to the base; it exerts nothing on the bodies and is dropped"
                                  : "both ends were welded into body '" + links[a].name +
                                        "'; it exerts nothing on the bodies and is dropped",
                     graph_force.line);
        continue;
      }
      force.a = {a == kGround ? kGround : body_of[a], force.a.point - anchor_of(a)};
      force.b = {b == kGround ? kGround : body_of[b], force.b.point - anchor_of(b)};
    }
    force.name = name_of(force.name, graph_force.element, graph_force.line);
    model.forces.push_back(std::move(force));
  }
  for (const GraphCoupling& graph_coupling : graph.couplings) {
    Coupling coupling = graph_coupling.coupling;
    coupling.a = model_joint(coupling.a, graph_coupling.element, graph_coupling.line);
    coupling.b = model_joint(coupling.b, graph_coupling.element, graph_coupling.line);
    coupling.name = name_of(coupling.name, graph_coupling.element, graph_coupling.line);
    model.couplings.push_back(std::move(coupling));
  }
  if (options.limit_stops) {
    if (!(options.limit_stops->stiffness > 0.0) || !std::isfinite(options.limit_stops->stiffness) ||
        !(options.limit_stops->damping >= 0.0) || !std::isfinite(options.limit_stops->damping))
      fail_at(source, "limit stops", "stiffness must be > 0 and damping >= 0 (finite)");
    for (int j = 0; j < static_cast<int>(model.joints.size()); ++j) {
      const Joint& joint = model.joints[static_cast<std::size_t>(j)];
      if (joint_nv(joint.type) != 1 || !joint.limits || joints_with_stop.count(j)) continue;
      if (!std::isfinite(joint.limits->lower) && !std::isfinite(joint.limits->upper)) continue;
      ForceElement stop;
      stop.type = ForceElementType::JointStop;
      stop.joint = j;
      stop.lower = joint.limits->lower;
      stop.upper = joint.limits->upper;
      stop.stiffness = options.limit_stops->stiffness;
      stop.damping = options.limit_stops->damping;
      stop.name = name_of(joint.name + "_stop", "joint '" + joint.name + "'", 0);
      model.forces.push_back(std::move(stop));
    }
  }
  finalize_model(model, source);
  return model;
}

std::string unique_name(const std::string& base, std::set<std::string>& taken) {
  std::string name = base;
  while (taken.count(name)) name += "_";
  taken.insert(name);
  return name;
}

}  // namespace mechdyn::io
