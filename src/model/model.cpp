// Model validation and derived topology.
#include "mechdyn/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "mechdyn/errors.hpp"
#include "mechdyn/math/unit_direction.hpp"
#include "joint_dispatch.hpp"

namespace mechdyn {

std::optional<int> Model::body_index(const std::string& body_name) const {
  for (int i = 0; i < num_bodies(); ++i) {
    if (bodies[i].name == body_name) return i;
  }
  return std::nullopt;
}

std::optional<int> Model::joint_index(const std::string& joint_name) const {
  for (int i = 0; i < static_cast<int>(joints.size()); ++i) {
    if (joints[i].name == joint_name) return i;
  }
  return std::nullopt;
}

void SubtreeIndex::assign(const std::vector<std::vector<int>>& children, const std::vector<int>& parent) {
  const std::size_t n = children.size();
  order_.clear();
  order_.reserve(n);
  first_.assign(n, 0);
  last_.assign(n, 0);
  // Depth-first pre-order with an explicit stack (a 10,000-body chain is 10,000 deep):
  // push the children in reverse so that they come out in body order.
  std::vector<int> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (parent[root] != kGround) continue;
    stack.push_back(static_cast<int>(root));
    while (!stack.empty()) {
      const int body = stack.back();
      stack.pop_back();
      first_[static_cast<std::size_t>(body)] = static_cast<int>(order_.size());
      order_.push_back(body);
      const std::vector<int>& below = children[static_cast<std::size_t>(body)];
      for (auto c = below.rbegin(); c != below.rend(); ++c) stack.push_back(*c);
    }
  }
  // A subtree ends where the next body outside it starts: after its last descendant.
  // Bodies come before their descendants in pre-order, so a backward sweep over the
  // order sets last = first + size with size accumulated from the children.
  std::vector<int> size(n, 1);
  for (std::size_t k = order_.size(); k-- > 0;) {
    const auto body = static_cast<std::size_t>(order_[k]);
    if (parent[body] != kGround) size[static_cast<std::size_t>(parent[body])] += size[body];
  }
  for (std::size_t b = 0; b < n; ++b) last_[b] = first_[b] + size[b];
}

bool Model::is_ancestor_or_self(int ancestor, int body) const {
  for (int b = body; b != kGround; b = bodies[b].parent) {
    if (b == ancestor) return true;
  }
  return false;
}

VecX Model::neutral_configuration() const {
  VecX q = VecX::Zero(nq);  // the elastic coordinates (after the joints') are zero: undeformed
  for (const Joint& j : joints) joint_neutral_configuration(j, q.data() + j.q_index);
  return q;
}

void finalize_force_elements(Model& model, const std::string& source);  // force_element_rules.cpp

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& element, const std::string& problem) {
  throw ModelError(source + ": " + element + ": " + problem);
}

bool finite(const Vec3& v) { return v.allFinite(); }

void check_unit_axis(Vec3& axis, const std::string& source, const std::string& element, const char* key) {
  if (!finite(axis)) fail(source, element, std::string(key) + " is not finite");
  const double norm = axis.norm();
  if (norm < 1e-12) fail(source, element, std::string(key) + " is a zero vector");
  axis = unit_direction(axis, norm);  // a unit axis is kept bit for bit
}

}  // namespace

void check_inertia(const Mat3& inertia, const std::string& source, const std::string& element) {
  if (!inertia.allFinite()) fail(source, element, "inertia is not finite");
  const double scale = std::max(1.0, inertia.cwiseAbs().maxCoeff());
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
    fail(source, element, "inertia is not symmetric");
  Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia, Eigen::EigenvaluesOnly);
  const Vec3 l = eig.eigenvalues();
  const double tol = 1e-12 * scale;
  if (l.minCoeff() < -tol) {
    std::ostringstream s;
    s << "inertia is not positive semi-definite (smallest eigenvalue " << l.minCoeff() << ")";
    fail(source, element, s.str());
  }
  // Triangle inequalities hold for the principal moments of any real body.
  if (l(0) + l(1) < l(2) - tol || l(0) + l(2) < l(1) - tol || l(1) + l(2) < l(0) - tol)
    fail(source, element, "inertia breaks the triangle inequality (I1 + I2 >= I3 for principal moments)");
  const double ixx = inertia(0, 0), iyy = inertia(1, 1), izz = inertia(2, 2);
  if (ixx + iyy < izz - tol || ixx + izz < iyy - tol || iyy + izz < ixx - tol)
    fail(source, element, "inertia breaks the triangle inequality (ixx + iyy >= izz and permutations)");
}

void finalize_model(Model& model, const std::string& source) {
  const int n = model.num_bodies();
  if (n == 0) fail(source, "bodies", "the model has no bodies");
  if (!finite(model.gravity)) fail(source, "gravity", "is not finite");
  if (static_cast<int>(model.joints.size()) != n)
    fail(source, "joints", "there must be exactly one joint per body");

  std::set<std::string> body_names, joint_names;
  model.children.assign(n, {});
  model.nq = 0;
  model.nv = 0;
  for (int i = 0; i < n; ++i) {
    Body& body = model.bodies[i];
    Joint& joint = model.joints[i];
    const std::string element = "body '" + body.name + "'";
    if (body.name.empty()) fail(source, "bodies[" + std::to_string(i) + "]", "has no name");
    if (body.name == "ground") fail(source, element, "the name 'ground' is reserved for the base");
    if (!body_names.insert(body.name).second) fail(source, element, "duplicate body name");
    if (joint.name.empty()) joint.name = body.name;
    if (!joint_names.insert(joint.name).second) fail(source, "joint '" + joint.name + "'", "duplicate joint name");
    if (body.parent != kGround && (body.parent < 0 || body.parent >= i))
      fail(source, element, "parent must be ground or a body defined before it");
    if (body.parent != kGround) model.children[body.parent].push_back(i);
    if (!std::isfinite(body.mass)) fail(source, element, "mass is not finite");
    if (body.mass < 0.0) fail(source, element, "mass must be positive");
    if (!finite(body.com)) fail(source, element, "com is not finite");
    check_inertia(body.inertia, source, element);
    if (body.flexible) check_flexible_beam(*body.flexible, source, element + " flexible");
    if (!finite(joint.origin)) fail(source, "joint '" + joint.name + "'", "origin is not finite");
    const std::string jelement = "joint '" + joint.name + "'";
    const int axes = joint_axis_count(joint.type);
    if (axes > 0) check_unit_axis(joint.axis, source, jelement, axes == 2 ? "axes[0]" : "axis");
    if (axes == 2) {
      check_unit_axis(joint.second_axis, source, jelement, "axes[1]");
      if (joint.axis.cross(joint.second_axis).norm() < 1e-9)
        fail(source, jelement, std::string(joint_type_name(joint.type)) + " joint axes are parallel");
    }
    joint.kind = joint_kind_of(joint);  // after the axis is normalised
    joint.nq = joint_nq(joint.type);
    joint.nv = joint_nv(joint.type);
    joint.q_index = model.nq;
    joint.v_index = model.nv;
    model.nq += joint.nq;
    model.nv += joint.nv;
  }
  model.rigid_nq = model.nq;
  model.rigid_nv = model.nv;
  model.elastic_index.assign(n, -1);
  for (int i = 0; i < n; ++i) {  // elastic coordinates after the rigid ones (flexible-bodies.md)
    if (!model.bodies[i].flexible) continue;
    model.elastic_index[i] = model.nq - model.rigid_nq;
    const int elastic = model.bodies[i].flexible->num_elastic();
    model.nq += elastic;
    model.nv += elastic;
  }
  // A massless body is allowed only where it carries a child (composite joints).
  for (int i = 0; i < n; ++i) {
    if (model.bodies[i].mass == 0.0 && model.children[i].empty() && !model.bodies[i].flexible)
      fail(source, "body '" + model.bodies[i].name + "'",
           "mass must be positive (a massless body must carry a child)");
  }

  std::vector<int> parents(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) parents[static_cast<std::size_t>(i)] = model.bodies[i].parent;
  model.subtree.assign(model.children, parents);
  model.subtree_dof_end.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    const auto bodies = model.subtree[i];
    int last = i;
    for (const int b : bodies) last = std::max(last, b);
    if (last - i + 1 == static_cast<int>(bodies.size()))  // size distinct indices ≥ i up to i + size − 1
      model.subtree_dof_end[i] = model.joints[last].v_index + model.joints[last].nv;
  }
  model.body_depth.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    const int p = model.bodies[i].parent;
    model.body_depth[i] = (p == kGround ? 0 : model.body_depth[p]) + 1;
  }
  model.needs_world_rotation.assign(n, 0);
  for (int i = n - 1; i >= 0; --i) {
    if (visit_joint_kind(model.joints[i].kind, [](auto kind) { return decltype(kind)::uses_world_rotation; }))
      model.needs_world_rotation[i] = 1;
    const int p = model.bodies[i].parent;
    if (p != kGround && model.needs_world_rotation[i]) model.needs_world_rotation[p] = 1;
  }
  model.dof_body.assign(model.nv, 0);
  model.dof_parent.assign(model.nv, -1);
  std::vector<int> last_dof(n, -1);  // last velocity index on the path ground → i
  for (int i = 0; i < n; ++i) {
    const Joint& joint = model.joints[i];
    const int p = model.bodies[i].parent;
    int above = (p == kGround) ? -1 : last_dof[p];
    for (int k = 0; k < joint.nv; ++k) {
      const int dof = joint.v_index + k;
      model.dof_body[dof] = i;
      model.dof_parent[dof] = above;
      above = dof;
    }
    last_dof[i] = above;
  }
  for (int i = 0; i < n; ++i) {  // elastic velocities belong to their body; no tree parent (λ = −1)
    if (model.elastic_index[i] < 0) continue;
    for (int k = 0; k < model.bodies[i].flexible->num_elastic(); ++k)
      model.dof_body[model.rigid_nv + model.elastic_index[i] + k] = i;
  }
  // crba(q) in body coordinates (dynamics/crba_body_frames.cpp) when every joint has one
  // coordinate or none about or along a fixed axis, no body is flexible, and the subtrees not
  // numbered depth first hold few bodies: there each (body, ancestor) pair costs a force
  // transform of ~70 instructions against the world form's ~22 (a 6-vector dot), while
  // each body saves ~300 (no kinematics step, no world inertia); so at most 4 such pairs per
  // body (callgrind; a heap-ordered binary tree of 500 bodies has ~7 and was 15 % slower in
  // body coordinates, docs/benchmarks.md "CRBA in body coordinates").
  model.crba_in_body_frames = model.rigid_nv == model.nv;
  long scattered_pairs = 0;
  for (int i = 0; i < n; ++i) {
    model.crba_in_body_frames = model.crba_in_body_frames && visit_joint_kind(model.joints[i].kind, [](auto kind) {
                                  using J = decltype(kind);
                                  return J::nv <= 1 && !J::uses_world_rotation;
                                });
    if (model.subtree_dof_end[i] < 0) scattered_pairs += static_cast<long>(model.subtree[i].size());
  }
  model.crba_in_body_frames = model.crba_in_body_frames && scattered_pairs <= 4L * n;

  model.loop_row_index.clear();
  model.num_loop_rows = 0;
  std::set<std::string> loop_names;
  for (Loop& loop : model.loops) {
    const std::string element = "loop '" + loop.name + "'";
    if (!loop_names.insert(loop.name).second) fail(source, element, "duplicate loop name");
    const CutAxisKeys keys = cut_joint_facts(loop.type).axis_keys;
    if (keys != CutAxisKeys::None) check_unit_axis(loop.axis, source, element, keys == CutAxisKeys::Axes ? "axes[0]" : "axis");
    if (keys == CutAxisKeys::Axes) check_unit_axis(loop.second_axis, source, element, "axes[1]");
    model.loop_row_index.push_back(model.num_loop_rows);
    model.num_loop_rows += loop_rows(loop.type);
    for (const BodyPoint* bp : {&loop.a, &loop.b}) {
      if (bp->body != kGround && (bp->body < 0 || bp->body >= n)) fail(source, element, "unknown body");
      if (!finite(bp->point)) fail(source, element, "point is not finite");
    }
    if (loop.a.body == loop.b.body) fail(source, element, "a and b are the same body");
    // model-format.md: a is a body, b a body or ground (what the reader and writer assume).
    if (loop.a.body == kGround) fail(source, element, "a.body must be a body, not ground (put ground in b)");
  }
  for (const Marker& marker : model.markers) {
    if (marker.at.body != kGround && (marker.at.body < 0 || marker.at.body >= n))
      fail(source, "marker '" + marker.name + "'", "unknown body");
  }  for (const Joint& joint : model.joints)  // joint friction (friction/friction_models.hpp)
    if (joint.friction) check_joint_friction(*joint.friction, joint.type, source + ": joint '" + joint.name + "'");
  check_points_on_flexible_bodies(model, source);  // flexible/flexible_beam.hpp
  finalize_force_elements(model, source);          // src/model/force_element_rules.cpp (format 3)
}

}  // namespace mechdyn
