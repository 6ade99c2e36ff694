// The constant description of a mechanism (the Model of the Model/Data split).
//
// A Model is built once (from a file by io/model_file.hpp, or in code), validated
// and finalised by `finalize_model`, and never written by an algorithm. Bodies are
// numbered 0..n−1 in file order; every body's parent comes before it (−1 = ground).
// Body i is attached to its parent by joint i. All vectors are in the natural frame
// (world directions at q = 0): see ../shared/spec/model-format.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "mechdyn/flexible/flexible_beam.hpp"
#include "mechdyn/math/types.hpp"
#include "mechdyn/model/body_point.hpp"
#include "mechdyn/model/cut_joint.hpp"
#include "mechdyn/model/force_elements.hpp"
#include "mechdyn/model/joint.hpp"

namespace mechdyn {

/// One rigid body.
struct Body {
  std::string name;
  int parent = kGround;                 // index of the parent body, kGround for the base
  double mass = 0.0;                    // m_l (kg)
  Vec3 com = Vec3::Zero();              // r^{l}_{lI}: body frame origin → centre of mass (body frame)
  Mat3 inertia = Mat3::Zero();          // J_{lI}: inertia tensor about the centre of mass (body frame)
  // A flexible beam (format version 2, flexible/flexible_beam.hpp); mass, com and inertia
  // are then a rigid part welded to the body frame. std::nullopt: a rigid body.
  std::optional<FlexibleBeam> flexible;
};

/// A named point on a body whose world position the kinematics reports.
struct Marker {
  std::string name;
  BodyPoint at;
};

/// The subtree uL of every body: the body and all its descendants. Stored once, as a
/// depth-first (pre-order) listing of the bodies in which every subtree is one contiguous
/// run, so it costs O(n) memory and time; a separate list per body would cost
/// O(n·depth) (5·10⁷ entries, 200 MB, for a 10,000-body chain). `subtree[u]` is a range
/// of body indices: u first, then its descendants depth first (children in body order),
/// every parent before its children. For a model whose file lists each body's
/// descendants right after it (every chain, most robots) that is body order.
class SubtreeIndex {
 public:
  /// The bodies of one subtree, a view into the index (valid while the Model lives).
  class Range {
   public:
    Range(const int* first, const int* last) : first_(first), last_(last) {}
    const int* begin() const { return first_; }
    const int* end() const { return last_; }
    std::size_t size() const { return static_cast<std::size_t>(last_ - first_); }
    bool empty() const { return first_ == last_; }
    int operator[](std::size_t k) const { return first_[k]; }

   private:
    const int* first_;
    const int* last_;
  };

  /// Rebuilds the index from the children lists (children[i]: bodies whose parent is i,
  /// in body order; the roots are the bodies no list names). O(n), no recursion.
  void assign(const std::vector<std::vector<int>>& children, const std::vector<int>& parent);
  Range operator[](int body) const {
    const int* base = order_.data();
    return Range(base + first_[static_cast<std::size_t>(body)], base + last_[static_cast<std::size_t>(body)]);
  }
  std::size_t size() const { return first_.size(); }  // number of bodies
  /// Heap bytes held (the three index arrays): 12 bytes per body.
  std::size_t allocated_bytes() const {
    return (order_.capacity() + first_.capacity() + last_.capacity()) * sizeof(int);
  }

 private:
  std::vector<int> order_;  // the bodies in depth-first pre-order
  std::vector<int> first_;  // subtree of u = order_[first_[u], last_[u])
  std::vector<int> last_;
};

struct Model {
  std::string name;
  Vec3 gravity{0.0, 0.0, -9.81};  // g (m/s²), world frame
  std::vector<Body> bodies;
  std::vector<Joint> joints;       // joints[i] attaches bodies[i] to its parent
  std::vector<Loop> loops;
  std::vector<Marker> markers;
  std::vector<ForceElement> forces;   // format 3 `forces` (model/force_elements.hpp)
  std::vector<Coupling> couplings;    // format 3 `couplings`: constraint rows after the loops'
  VecX initial_configuration;  // optional (model file key `initial_configuration`, nq numbers):
                               // where a simulation starts without a given q0 (for loops: the
                               // assembly's first guess); empty: neutral_configuration()

  // ---- derived by finalize_model ------------------------------------------
  int nq = 0;  // configuration size: the joints' coordinates, then the elastic ones (flexible-bodies.md)
  int nv = 0;  // velocity size: the spanning tree's degrees of freedom, then the elastic velocities
  // Flexible bodies (format version 2): the elastic coordinates follow the joints'
  // (rigid_nq, rigid_nv) in body order; a rigid model has rigid_nq == nq, rigid_nv == nv.
  int rigid_nq = 0;                        // Σ joint nq
  int rigid_nv = 0;                        // Σ joint nv
  std::vector<int> elastic_index;          // per body: first elastic coordinate counted from the end of the
                                           // rigid ones (q index rigid_nq + k, v index rigid_nv + k); −1 rigid
  std::vector<std::vector<int>> children;  // children[i]: bodies whose parent is i
  SubtreeIndex subtree;                    // subtree[i]: i and all its descendants (uL), i first, depth first
  std::vector<int> dof_body;               // dof_body[k]: body whose joint owns velocity k
  std::vector<int> dof_parent;             // λ(k): the nearest velocity index above k in the tree, −1 at a root
  std::vector<int> body_depth;             // number of bodies from ground to i (roots: 1)
  std::vector<int> subtree_dof_end;        // when subtree[i] is the bodies i, i + 1, … (depth-first numbering):
                                           // one past its last velocity coordinate (its coordinates are
                                           // joints[i].v_index … end − 1); else −1
  std::vector<char> needs_world_rotation;  // 1 when body i or a descendant has a spherical or free joint
                                           // (body-frame algorithms track Q^i_l only there)
  std::vector<int> loop_row_index;         // first closure-equation row of each loop
  int num_loop_rows = 0;                   // rows of all closure equations together: the loops', then one
                                           // per coupling (from coupling_row_index on)
  int coupling_row_index = 0;              // first coupling row (= the loops' rows)
  VecX armature;                           // per velocity coordinate: the joint's armature (0 elsewhere), nv
  bool has_armature = false;               // some armature > 0 (the algorithms add it to M's diagonal)
  bool crba_in_body_frames = false;        // crba(q) runs in body coordinates (dynamics/crba.hpp): every joint
                                           // revolute, prismatic or fixed, every body rigid, few subtrees not
                                           // numbered depth first (model.cpp)
  bool has_force_elements = false;         // !forces.empty()
  int num_force_expressions = 0;           // the elements' time functions: per servo 1 or 2, per applied load 6
  int num_servo_targets = 0;               // servos without target_rate (their target at t ± h)

  int num_bodies() const { return static_cast<int>(bodies.size()); }
  /// True when the model has constraint rows (cut joints or couplings): a constrained
  /// mechanism (constraints/).
  bool has_constraints() const { return num_loop_rows > 0; }
  /// "loops", "couplings" or "loops and couplings": what makes the model constrained (messages).
  const char* constraint_kinds() const {
    return couplings.empty() ? "loops" : loops.empty() ? "couplings" : "loops and couplings";
  }
  /// The name of constraint k of the closure: the loops in order, then the couplings
  /// (k = loops.size() + c for coupling c).
  const std::string& constraint_name(int k) const {
    const auto nl = static_cast<int>(loops.size());
    return k < nl ? loops[static_cast<std::size_t>(k)].name : couplings[static_cast<std::size_t>(k - nl)].name;
  }
  /// The format version a writer must state: 3 with force elements, couplings or
  /// armature, 2 with flexible bodies, else 1.
  int format_version() const;

  /// Index of a body or joint by name; std::nullopt when there is none.
  std::optional<int> body_index(const std::string& body_name) const;
  std::optional<int> joint_index(const std::string& joint_name) const;

  /// True when body `ancestor` is `body` or lies on the chain from ground to `body`.
  bool is_ancestor_or_self(int ancestor, int body) const;

  /// The neutral configuration q0 (zeros and identity quaternions), size nq.
  VecX neutral_configuration() const;
};

/// Validates a model built in code or read from a file and computes the derived
/// topology (sizes, indices, subtrees, λ). Throws ModelError naming the element.
/// `source` (e.g. the file name) prefixes every message.
void finalize_model(Model& model, const std::string& source = "model");

}  // namespace mechdyn

namespace mechdyn {
/// Throws ModelError unless `inertia` is finite, symmetric, positive semi-definite and
/// satisfies the triangle inequalities; `element` names the body in the message.
void check_inertia(const Mat3& inertia, const std::string& source, const std::string& element);
}  // namespace mechdyn
