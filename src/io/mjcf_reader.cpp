// MJCF reader (io/mjcf.hpp): tinyxml2 for the document, MuJoCo 2.2.2's XML reference for
// the meaning, then the common natural-frame builder (robot_graph.hpp).
//
// Frames. A <body>'s pos and orientation place it in its parent body; its joints sit at
// their pos, axes in the body frame. MuJoCo moves a body by its joints in the order they
// are written, each by (qpos − ref) about (hinge) or along (slide) its axis as carried by
// the joints before it (mj_kinematics). mechdyn's q is MuJoCo's qpos for hinge and slide
// joints, so the natural frames are those of qpos = 0: every hinge turned by −ref and every
// slide moved by −ref from the pose the file writes (nothing moves when ref = 0, the usual
// case). A body with k joints becomes k mechdyn bodies: k − 1 massless ones named
// "<body>/<joint>" carrying the chain (the model format allows a massless body that
// carries a child), the last one with the body's name, mass and children.
//   hinge → revolute, slide → prismatic, ball → spherical (q: the quaternion relative to
//   the written pose, velocities in world axes; MuJoCo's are in the body's own axes),
//   free/<freejoint> → free (position of the body frame origin from the written one and
//   the quaternion as for ball), no joint → fixed; a hinge "<joint>/angle" directly
//   followed by a slide "<joint>/shift" at the same pos with the same axis direction → one
//   cylindrical joint "<joint>" (what write_mjcf writes for one), unless either carries a
//   ref, a range, a spring, damping, friction or armature, or is coupled or driven by a
//   servo, or only one of them has a motor: those need one coordinate each, and the pair
//   stays two joints. Other names are a file's own two joints, kept (their names are what
//   a user's scenarios and --tau refer to).
// Mass: <inertial> (diaginertia + quat, or fullinertia), else by <compiler
// inertiafromgeom> the geoms' solids (mjcf_elements.cpp); then boundmass, boundinertia,
// balanceinertia and settotalmass as MuJoCo applies them.
// Loops: <equality><connect body1 body2 anchor> → a spherical cut joint at the anchor (a
// point of body1, body1's frame), joined to the point of body2 that coincides with it in
// the written pose (MuJoCo's qpos0); <weld> → a fixed cut joint; <joint> → a gear coupling
// (its linear part); tendon/distance equalities are refused.
// Format 3 (docs/robot-files.md): joint stiffness/springref/damping → a joint-spring-damper,
// frictionloss → Coulomb friction, armature → Joint::armature, a limited joint with a
// direct solreflimit → a joint-stop, two-site spatial tendons → spring-dampers,
// <position> actuators → joint-servos.
// Actuators: when the file has <actuator>s on joints, the joints without one are passive
// (actuated: false), which is what closed-chain inverse dynamics needs.
// Cost O(elements); runs once per file.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <Eigen/Eigenvalues>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mjcf_elements.hpp"
#include "robot_graph.hpp"
#include "xml_support.hpp"

namespace mechdyn {
namespace {

using io::fail_at;
using io::MjcfElement;
using io::RigidPose;

std::string in_quotes(const std::string& name) { return "'" + io::printable(name) + "'"; }

constexpr double kPi = 3.14159265358979323846;

class MjcfReader {
 public:
  MjcfReader(const std::string& text, std::string source, std::string base_directory, const ImportOptions& options,
             std::vector<std::string>* warnings)
      : text_(text),
        source_(std::move(source)),
        base_directory_(std::move(base_directory)),
        options_(options),
        warnings_(source_, warnings) {}

  Model read();

 private:
  struct LinkPoses {
    RigidPose written;  // the body frame in the file's pose (MuJoCo's qpos0)
    RigidPose zero;     // the body frame at qpos = 0 (mechdyn's q = 0)
  };
  void read_compiler(const tinyxml2::XMLElement* root);
  // Children of `element` (a <mujoco> or an included file's root) of kind `kind`, with
  // <include>s expanded in place.
  void for_each(const tinyxml2::XMLElement* element, const char* kind,
                const std::function<void(const tinyxml2::XMLElement*)>& visit, int depth = 0);
  void read_body(const tinyxml2::XMLElement* element, int parent, const LinkPoses& parent_pose,
                 const std::string& active_class);
  void read_mass(const tinyxml2::XMLElement* body, const std::string& active_class, io::GraphLink& link,
                 const RigidPose& frame);
  void read_equality(const tinyxml2::XMLElement* element);
  void read_actuators(const tinyxml2::XMLElement* element);
  void finish_masses();
  MjcfElement element(const tinyxml2::XMLElement* e, const std::string& active_class, const std::string& name) const {
    return MjcfElement(e, defaults_, active_class, source_, name);
  }

  const std::string& text_;
  std::string source_;
  std::string base_directory_;
  ImportOptions options_;
  io::Warnings warnings_;
  io::MjcfCompiler compiler_;
  io::MjcfDefaults defaults_;
  std::vector<std::unique_ptr<tinyxml2::XMLDocument>> documents_;  // the file and its includes
  io::RobotGraph graph_;
  std::vector<LinkPoses> poses_;            // per graph link
  std::map<std::string, int> body_link_;    // MJCF body name → graph link carrying its mass
  std::set<int> body_links_;                // the graph links that are MuJoCo bodies
  std::map<std::string, std::vector<int>> joint_links_;  // joint name → graph joints
  int bodies_seen_ = 0;                     // MuJoCo's body id of the next body (world = 0)
  std::set<std::string> driven_joints_;
  bool has_joint_actuators_ = false;
  struct Site {
    int link = kGround;
    Vec3 zero = Vec3::Zero();  // world point at qpos = 0
  };
  std::map<std::string, Site> sites_;
  std::map<std::string, double> joint_refs_;  // hinge/slide joint → ref (rad or m): its qpos0
  void read_joint_equality(const MjcfElement& eq, const std::string& name);
  void read_tendons(const tinyxml2::XMLElement* element);
  Vec3 point_at_spring(int link, const Vec3& zero) const;
  std::map<int, double> joint_springref_;  // graph hinge/slide joint → springref (rad or m): MuJoCo's qpos_spring
  // Joint names that <equality><joint> couples, and the actuator elements on each joint
  // name ("motor", "position", ...): read before the bodies, for cylindrical_pair.
  std::set<std::string> coupled_joints_;
  std::map<std::string, std::set<std::string>> joint_actuators_;
  void scan_joint_references(const tinyxml2::XMLElement* root);
  bool cylindrical_pair(const MjcfElement& hinge, const MjcfElement& slide, const std::string& hinge_name,
                        const std::string& slide_name) const;
};

void MjcfReader::scan_joint_references(const tinyxml2::XMLElement* root) {
  for_each(root, "equality", [&](const tinyxml2::XMLElement* equality) {
    for (const tinyxml2::XMLElement* e = equality->FirstChildElement(); e != nullptr; e = e->NextSiblingElement())
      for (const char* attribute : {"joint1", "joint2"})
        if (const char* name = e->Attribute(attribute)) coupled_joints_.insert(name);
  });
  for_each(root, "actuator", [&](const tinyxml2::XMLElement* actuators) {
    for (const tinyxml2::XMLElement* e = actuators->FirstChildElement(); e != nullptr; e = e->NextSiblingElement())
      if (const char* name = e->Attribute("joint")) joint_actuators_[name].insert(e->Name());
  });
}

// Whether a hinge and the slide written after it in one body are one cylindrical joint:
// same pos, same axis direction, no attribute of one coordinate (the file's joint class
// defaults included), not coupled, no servo, and a motor on both or on neither.
bool MjcfReader::cylindrical_pair(const MjcfElement& hinge, const MjcfElement& slide, const std::string& hinge_name,
                                  const std::string& slide_name) const {
  if (hinge.text("type").value_or("hinge") != "hinge" || slide.text("type").value_or("hinge") != "slide") return false;
  const Vec3 a = hinge.vec3("axis", Vec3::UnitZ()), b = slide.vec3("axis", Vec3::UnitZ());
  if (!(a.norm() > 1e-12) || !(b.norm() > 1e-12)) return false;  // read_body says so
  if ((a.normalized() - b.normalized()).norm() > 1e-12) return false;
  if ((hinge.vec3("pos", Vec3::Zero()) - slide.vec3("pos", Vec3::Zero())).norm() > 1e-12) return false;
  for (const MjcfElement* joint : {&hinge, &slide}) {
    for (const char* attribute : {"ref", "stiffness", "springref", "damping", "frictionloss", "armature"})
      if (joint->number(attribute, 0.0) != 0.0) return false;
    if (joint->numbers("range") && joint->text("limited").value_or("") != "false") return false;
  }
  for (const std::string& name : {hinge_name, slide_name}) {
    if (coupled_joints_.count(name)) return false;
    const auto found = joint_actuators_.find(name);
    if (found != joint_actuators_.end() && (found->second.size() != 1 || !found->second.count("motor"))) return false;
  }
  return joint_actuators_.count(hinge_name) == joint_actuators_.count(slide_name);
}

void MjcfReader::for_each(const tinyxml2::XMLElement* element, const char* kind,
                          const std::function<void(const tinyxml2::XMLElement*)>& visit, int depth) {
  for (const tinyxml2::XMLElement* e = element->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const std::string name = e->Name();
    if (name == "include") {
      const char* file = e->Attribute("file");
      if (file == nullptr) fail_at(source_, "<include>", "has no file attribute", e->GetLineNum());
      if (base_directory_.empty())
        fail_at(source_, "<include file=" + in_quotes(file) + ">",
                "includes are read only from files (the model was given as text)", e->GetLineNum());
      if (depth > 20) fail_at(source_, "<include file=" + in_quotes(file) + ">", "includes nest too deeply", e->GetLineNum());
      const std::filesystem::path path = std::filesystem::path(base_directory_) / file;
      std::ifstream in(path, std::ios::binary);
      if (!in) fail_at(source_, "<include file=" + in_quotes(file) + ">", "cannot open " + path.string(), e->GetLineNum());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      documents_.push_back(io::parse_xml(text, path.string()));
      const tinyxml2::XMLElement* root = documents_.back()->RootElement();
      if (std::string(root->Name()) != "mujoco")
        fail_at(path.string(), "document", "an included file's root element must be <mujoco>", root->GetLineNum());
      // The included file's top-level elements stand where the <include> is.
      for_each(root, kind, visit, depth + 1);
      continue;
    }
    if (name == kind) visit(e);
  }
}

void MjcfReader::read_compiler(const tinyxml2::XMLElement* root) {
  for_each(root, "compiler", [&](const tinyxml2::XMLElement* e) {
    const io::XmlAttributes a(e, source_, "<compiler>");
    if (const auto angle = a.text("angle")) {
      if (*angle != "degree" && *angle != "radian") a.fail("angle=" + in_quotes(*angle) + " is not degree or radian");
      compiler_.degrees = *angle == "degree";
    }
    if (const auto coordinate = a.text("coordinate"); coordinate && *coordinate != "local")
      a.fail("coordinate=" + in_quotes(*coordinate) + ": only local coordinates are read (MuJoCo 2.2.2's default)");
    if (const auto sequence = a.text("eulerseq")) {
      if (sequence->size() != 3 || sequence->find_first_not_of("xyzXYZ") != std::string::npos)
        a.fail("eulerseq=" + in_quotes(*sequence) + " is not three of x, y, z, X, Y, Z");
      compiler_.euler_sequence = *sequence;
    }
    if (const auto from_geom = a.text("inertiafromgeom")) {
      if (*from_geom != "auto" && *from_geom != "true" && *from_geom != "false")
        a.fail("inertiafromgeom=" + in_quotes(*from_geom) + " is not auto, true or false");
      compiler_.inertia_from_geom = *from_geom;
    }
    if (const auto range = a.numbers("inertiagrouprange", 2)) {
      compiler_.inertia_group_low = static_cast<int>((*range)[0]);
      compiler_.inertia_group_high = static_cast<int>((*range)[1]);
    }
    compiler_.bound_mass = a.number("boundmass").value_or(compiler_.bound_mass);
    compiler_.bound_inertia = a.number("boundinertia").value_or(compiler_.bound_inertia);
    if (const auto balance = a.text("balanceinertia")) compiler_.balance_inertia = *balance == "true";
    compiler_.total_mass = a.number("settotalmass").value_or(compiler_.total_mass);
    if (const auto limits = a.text("autolimits")) compiler_.auto_limits = *limits == "true";
  });
}

void MjcfReader::read_mass(const tinyxml2::XMLElement* body, const std::string& active_class, io::GraphLink& link,
                           const RigidPose& frame) {
  const tinyxml2::XMLElement* inertial = body->FirstChildElement("inertial");
  const bool from_geoms = compiler_.inertia_from_geom == "true" || (compiler_.inertia_from_geom == "auto" && !inertial);
  if (!from_geoms) {
    if (!inertial) return;  // massless (inertiafromgeom="false")
    const MjcfElement e = element(inertial, active_class, "body " + in_quotes(link.name) + " <inertial>");
    if (!e.text("mass")) e.fail("has no mass");
    const double mass = e.number("mass", 0.0);
    if (mass < 0.0) e.fail("mass " + shortest_decimal(mass) + " is negative");
    const RigidPose placed = frame * e.pose(compiler_);
    Mat3 tensor = Mat3::Zero();
    const auto diagonal = e.numbers("diaginertia", 3);
    const auto full = e.numbers("fullinertia", 6);
    if (diagonal && full) e.fail("has both diaginertia and fullinertia: give one");
    if (!diagonal && !full) e.fail("has no diaginertia or fullinertia");
    if (diagonal) {
      tensor = Vec3((*diagonal)[0], (*diagonal)[1], (*diagonal)[2]).asDiagonal();
    } else {  // fullinertia = "ixx iyy izz ixy ixz iyz", tensor entries
      const std::vector<double>& f = *full;
      tensor << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
      if (e.explicitly_has("quat") || e.explicitly_has("euler") || e.explicitly_has("axisangle") ||
          e.explicitly_has("xyaxes") || e.explicitly_has("zaxis"))
        e.fail("has fullinertia and an orientation; MuJoCo takes fullinertia in the body frame");
    }
    link.mass = mass;
    link.com = placed.position;
    const Mat3 rotation = diagonal ? placed.rotation : frame.rotation;
    link.inertia = rotation * tensor * rotation.transpose();
    return;
  }
  // Sum of the geoms' solids (parallel-axis theorem about the common centre of mass).
  std::vector<io::GeomMass> parts;
  for_each(body, "geom", [&](const tinyxml2::XMLElement* g) {
    const char* name = g->Attribute("name");
    const MjcfElement geom = element(g, active_class,
                                     "geom " + (name ? in_quotes(name) : std::string("of body ") + in_quotes(link.name)));
    const int group = static_cast<int>(geom.number("group", 0.0));
    if (group < compiler_.inertia_group_low || group > compiler_.inertia_group_high) return;
    io::GeomMass part = io::geom_mass(geom, compiler_);
    part.com = frame.apply(part.com);
    part.inertia = frame.rotation * part.inertia * frame.rotation.transpose();
    parts.push_back(part);
  });
  double mass = 0.0;
  Vec3 moment = Vec3::Zero();
  for (const io::GeomMass& part : parts) {
    mass += part.mass;
    moment += part.mass * part.com;
  }
  if (!(mass > 0.0)) return;
  link.mass = mass;
  link.com = moment / mass;
  link.inertia.setZero();
  for (const io::GeomMass& part : parts) {
    const Vec3 d = part.com - link.com;
    link.inertia += part.inertia + part.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
}

void MjcfReader::read_body(const tinyxml2::XMLElement* e, int parent, const LinkPoses& parent_pose,
                           const std::string& inherited_class) {
  const int body_id = ++bodies_seen_;
  const char* given_name = e->Attribute("name");
  const std::string name = given_name ? given_name : "body" + std::to_string(body_id);
  const std::string element_name = "body " + in_quotes(name);
  if (body_link_.count(name)) fail_at(source_, element_name, "is defined twice", e->GetLineNum());
  const std::string active_class = e->Attribute("childclass") ? e->Attribute("childclass") : inherited_class;
  const MjcfElement body = element(e, active_class, element_name);
  if (const auto mocap = body.text("mocap"); mocap && *mocap == "true")
    warnings_.add(element_name, "is a mocap body: read as welded to its parent (its motion is prescribed)", body.line());
  const RigidPose local = body.pose(compiler_);
  LinkPoses poses{parent_pose.written * local, parent_pose.zero * local};

  // Joints in order, each carried by the ones before it.
  std::vector<const tinyxml2::XMLElement*> joints;
  for_each(e, "joint", [&](const tinyxml2::XMLElement* j) { joints.push_back(j); });
  for_each(e, "freejoint", [&](const tinyxml2::XMLElement* j) { joints.push_back(j); });
  int at = parent;
  auto add_link = [&](const std::string& link_name, const RigidPose& zero) {
    io::GraphLink link;
    link.name = link_name;
    link.element = element_name;
    link.line = body.line();
    link.frame_origin = zero.position;
    graph_.links.push_back(link);
    poses_.push_back({poses.written, zero});
    return static_cast<int>(graph_.links.size()) - 1;
  };
  if (joints.empty()) {
    io::GraphJoint weld;
    weld.name = name;
    weld.element = element_name;
    weld.line = body.line();
    weld.type = JointType::Fixed;
    weld.parent = parent;
    weld.child = add_link(name, poses.zero);
    weld.anchor = poses.zero.position;
    graph_.joints.push_back(weld);
    at = weld.child;
  }
  auto joint_name_of = [&](std::size_t k) {
    const char* joint_given = joints[k]->Attribute("name");
    return joint_given ? std::string(joint_given) : name + "_joint" + std::to_string(k);
  };
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const bool free_element = std::string(joints[k]->Name()) == "freejoint";
    const std::string joint_name = joint_name_of(k);
    const MjcfElement joint = element(joints[k], active_class, "joint " + in_quotes(joint_name));
    const std::string type = free_element ? "free" : joint.text("type").value_or("hinge");
    io::GraphJoint out;
    out.name = joint_name;
    out.element = joint.name();
    out.line = joint.line();
    out.parent = at;
    // A hinge and a slide on one axis: one cylindrical joint (the pair write_mjcf writes).
    std::string slide_name;
    const std::string angle = "/angle", shift = "/shift";
    auto ends_with = [](const std::string& text, const std::string& end) {
      return text.size() > end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
    };
    const std::string stem = joint_name.substr(0, joint_name.size() - (ends_with(joint_name, angle) ? angle.size() : 0));
    if (type == "hinge" && ends_with(joint_name, angle) && k + 1 < joints.size() &&
        std::string(joints[k + 1]->Name()) == "joint" && joint_name_of(k + 1) == stem + shift) {
      slide_name = joint_name_of(k + 1);
      const MjcfElement slide = element(joints[k + 1], active_class, "joint " + in_quotes(slide_name));
      if (!cylindrical_pair(joint, slide, joint_name, slide_name)) slide_name.clear();
    }
    if (!slide_name.empty()) {
      out.name = stem;
      const Vec3 position = joint.vec3("pos", Vec3::Zero());
      out.type = JointType::Cylindrical;
      out.axis = (poses.zero.rotation * joint.vec3("axis", Vec3::UnitZ())).normalized();
      out.anchor = poses.zero.apply(position);
      ++k;  // the slide is read
      const bool last = k + 1 == joints.size();
      out.child = add_link(last ? name : name + "/" + out.name, poses.zero);
      joint_links_[joint_name].push_back(static_cast<int>(graph_.joints.size()));
      joint_links_[slide_name].push_back(static_cast<int>(graph_.joints.size()));
      graph_.joints.push_back(out);
      at = out.child;
      continue;
    }
    if (type == "hinge" || type == "slide") {
      const Vec3 position = joint.vec3("pos", Vec3::Zero());
      const Vec3 axis = joint.vec3("axis", Vec3::UnitZ());
      if (!(axis.norm() > 1e-12)) joint.fail("axis is a zero vector");
      const double unit = type == "hinge" && compiler_.degrees ? kPi / 180.0 : 1.0;
      const double ref = joint.number("ref", 0.0) * unit;
      // Move the body to qpos = 0: by −ref about (along) the axis as it stands now.
      const Vec3 world_axis = (poses.zero.rotation * axis).normalized();
      const Vec3 anchor = poses.zero.apply(position);
      if (ref != 0.0) {
        if (type == "hinge") {
          const Mat3 turn = Eigen::AngleAxisd(-ref, world_axis).toRotationMatrix();
          poses.zero = RigidPose{turn, anchor - turn * anchor} * poses.zero;
        } else {
          poses.zero.position -= ref * world_axis;
        }
      }
      out.type = type == "hinge" ? JointType::Revolute : JointType::Prismatic;
      out.axis = world_axis;
      out.anchor = poses.zero.apply(position);
      const std::optional<std::string> limited = joint.text("limited");
      const std::optional<std::vector<double>> range = joint.numbers("range", 2);
      if (range && (limited == std::optional<std::string>("true") ||
                    (compiler_.auto_limits && (!limited || *limited == "auto")))) {
        JointLimits limits;
        limits.lower = (*range)[0] * unit;
        limits.upper = (*range)[1] * unit;
        if (limits.lower > limits.upper) joint.fail("range lower bound is above the upper");
        out.limits = limits;
      }
      // stiffness, springref, damping (MuJoCo XML reference, joint): the passive force
      // −stiffness (qpos − springref) − damping qvel: one joint-spring-damper, rest = springref
      // (an angle in the compiler's unit, as range and ref).
      const double damping = joint.number("damping", 0.0), friction = joint.number("frictionloss", 0.0);
      const double stiffness = joint.number("stiffness", 0.0), springref = joint.number("springref", 0.0) * unit;
      if (damping < 0.0 || friction < 0.0) joint.fail("damping and frictionloss must not be negative");
      if (stiffness < 0.0) joint.fail("stiffness " + shortest_decimal(stiffness) + " is negative");
      const int index = static_cast<int>(graph_.joints.size());  // `out`, pushed below
      if (!options_.joint_dynamics && (damping != 0.0 || friction != 0.0))
        warnings_.add(joint.name(),
                      "damping " + shortest_decimal(damping) + ", frictionloss " + shortest_decimal(friction) +
                          " ignored (joint dynamics off)",
                      joint.line());
      const double read_damping = options_.joint_dynamics ? damping : 0.0;
      if (stiffness != 0.0 || read_damping != 0.0) {
        io::GraphForce spring;
        spring.force.name = joint_name + "_spring";
        spring.force.type = ForceElementType::JointSpringDamper;
        spring.force.joint = index;
        spring.force.stiffness = stiffness;
        spring.force.damping = read_damping;
        spring.force.rest = springref;
        spring.element = joint.name();
        spring.line = joint.line();
        graph_.forces.push_back(spring);
      }
      if (options_.joint_dynamics && friction != 0.0) {
        JointFriction law;
        law.model = FrictionModel::CoulombViscous;
        law.coulomb = friction;
        out.friction = law;
        warnings_.add(joint.name(),
                      "frictionloss " + shortest_decimal(friction) +
                          " read as coulomb_viscous friction with coulomb " + shortest_decimal(friction) +
                          " (MuJoCo's frictionloss is a soft constraint, not a Coulomb law)",
                      joint.line());
      }
      // A limited joint whose solreflimit is MuJoCo's direct form "−stiffness −damping"
      // (both ≤ 0; XML reference, "Solver parameters") states the stops' stiffness and
      // damping: a joint-stop at the range. (Other solreflimit values are a time constant
      // and damping ratio of MuJoCo's soft constraint: stops only on request, limit_stops.)
      if (out.limits) {
        if (const auto solref = joint.numbers("solreflimit")) {
          if (solref->size() != 2) joint.fail("solreflimit must have 2 numbers");
          if ((*solref)[0] < 0.0 || ((*solref)[0] == 0.0 && (*solref)[1] < 0.0)) {
            if ((*solref)[1] > 0.0)
              joint.fail("solreflimit \"" + shortest_decimal((*solref)[0]) + " " + shortest_decimal((*solref)[1]) +
                         "\" mixes the direct form (negative stiffness) with a positive damping ratio");
            io::GraphForce stop;
            stop.force.name = joint_name + "_stop";
            stop.force.type = ForceElementType::JointStop;
            stop.force.joint = index;
            stop.force.lower = out.limits->lower;
            stop.force.upper = out.limits->upper;
            stop.force.stiffness = -(*solref)[0];
            stop.force.damping = -(*solref)[1];
            stop.element = joint.name() + " solreflimit";
            stop.line = joint.line();
            graph_.forces.push_back(stop);
          }
        }
      }
      out.armature = joint.number("armature", 0.0);
      if (!(out.armature >= 0.0)) joint.fail("armature " + shortest_decimal(out.armature) + " is negative");
      joint_refs_[joint_name] = ref;
      joint_springref_[index] = springref;
    } else if (type == "ball") {
      out.type = JointType::Spherical;
      out.anchor = poses.zero.apply(joint.vec3("pos", Vec3::Zero()));
    } else if (type == "free") {
      out.type = JointType::Free;
      out.anchor = poses.zero.position;
      if (joints.size() > 1) joint.fail("a free joint must be the body's only joint");
    } else {
      joint.fail("unknown joint type " + in_quotes(type) + " (MJCF types: hinge, slide, ball, free)");
    }
    if (type == "ball" || type == "free")
      for (const char* ignored : {"armature", "stiffness", "damping", "frictionloss"})
        if (const double value = joint.number(ignored, 0.0); value != 0.0)
          warnings_.add(joint.name(),
                        std::string(ignored) + " " + shortest_decimal(value) + " on a " + type +
                            " joint ignored (mechdyn's joint elements and armature need one coordinate)",
                        joint.line());
    const bool last = k + 1 == joints.size();
    out.child = add_link(last ? name : name + "/" + joint_name, poses.zero);
    joint_links_[joint_name].push_back(static_cast<int>(graph_.joints.size()));
    graph_.joints.push_back(out);
    at = out.child;
  }
  poses_[static_cast<std::size_t>(at)] = poses;
  body_link_[name] = at;
  body_links_.insert(at);
  read_mass(e, active_class, graph_.links[static_cast<std::size_t>(at)], poses.zero);
  for_each(e, "site", [&](const tinyxml2::XMLElement* s) {
    const char* site_name = s->Attribute("name");
    if (site_name == nullptr) return;
    const MjcfElement site = element(s, active_class, "site " + in_quotes(site_name));
    const Vec3 local = site.vec3("pos", Vec3::Zero());
    graph_.markers.push_back({site_name, at, poses.zero.apply(local)});
    sites_[site_name] = {at, poses.zero.apply(local)};
  });
  for_each(e, "body", [&](const tinyxml2::XMLElement* child) { read_body(child, at, poses, active_class); });
}

void MjcfReader::read_equality(const tinyxml2::XMLElement* equality) {
  for (const tinyxml2::XMLElement* e = equality->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const std::string kind = e->Name();
    const char* given = e->Attribute("name");
    const std::string name = given ? given : kind + std::to_string(graph_.loops.size());
    const MjcfElement eq = element(e, "", "equality " + in_quotes(name));
    if (kind == "tendon" || kind == "distance")
      eq.fail("<" + kind + "> equality is not supported: mechdyn couples joint coordinates only (<joint>)");
    if (kind != "connect" && kind != "weld" && kind != "joint") eq.fail("unknown equality type <" + io::printable(kind) + ">");
    if (const auto active = eq.text("active"); active && *active == "false") {
      warnings_.add(eq.name(), "is inactive (active=\"false\"): not read", eq.line());
      continue;
    }
    if (kind == "joint") {
      read_joint_equality(eq, name);
      continue;
    }
    auto link_of = [&](const char* attribute, bool required) -> int {
      const std::optional<std::string> body = eq.text(attribute);
      if (!body || *body == "world") {
        if (required && !body) eq.fail(std::string("has no ") + attribute);
        return kGround;
      }
      if (!body_link_.count(*body)) eq.fail(std::string(attribute) + " " + in_quotes(*body) + " is not a body");
      return body_link_.at(*body);
    };
    io::GraphLoop loop;
    loop.name = name;
    loop.element = eq.name();
    loop.line = eq.line();
    loop.a = link_of("body1", true);
    loop.b = link_of("body2", false);
    if (loop.a == kGround) eq.fail("body1 is the world; name a body");
    const LinkPoses& pa = poses_[static_cast<std::size_t>(loop.a)];
    const RigidPose written_b = loop.b == kGround ? RigidPose{} : poses_[static_cast<std::size_t>(loop.b)].written;
    const RigidPose zero_b = loop.b == kGround ? RigidPose{} : poses_[static_cast<std::size_t>(loop.b)].zero;
    if (kind == "connect") {
      const std::optional<std::vector<double>> anchor = eq.numbers("anchor", 3);
      if (!anchor) eq.fail("has no anchor");
      const Vec3 local((*anchor)[0], (*anchor)[1], (*anchor)[2]);
      const Vec3 world = pa.written.apply(local);  // where both points meet (qpos0)
      loop.type = LoopType::Spherical;
      loop.point = pa.zero.apply(local);
      loop.point_b = zero_b.apply(written_b.inverse().apply(world));
    } else {
      // weld: the relative pose of qpos0 (MuJoCo's default relpose), a point of body2.
      if (const auto relpose = eq.numbers("relpose", 7)) {
        const Quat q((*relpose)[3], (*relpose)[4], (*relpose)[5], (*relpose)[6]);
        if (q.norm() > 0.0) {
          const RigidPose relative = pa.written.inverse() * written_b;
          const RigidPose given_pose{q.normalized().toRotationMatrix(), Vec3((*relpose)[0], (*relpose)[1], (*relpose)[2])};
          if ((given_pose.rotation - relative.rotation).norm() > 1e-9 ||
              (given_pose.position - relative.position).norm() > 1e-9)
            eq.fail("relpose differs from the bodies' relative pose in the file; mechdyn's fixed cut joint keeps the "
                    "relative pose of the file's configuration");
        }
      }
      const RigidPose relative_zero = pa.zero.inverse() * zero_b, relative_written = pa.written.inverse() * written_b;
      if ((relative_zero.rotation - relative_written.rotation).norm() > 1e-9)
        eq.fail("the joint refs turn body1 against body2 between qpos = 0 and the file's pose; a weld is read only when "
                "they keep the same relative orientation");
      const Vec3 local_b = eq.vec3("anchor", Vec3::Zero());
      const Vec3 world = written_b.apply(local_b);
      loop.type = LoopType::Fixed;
      loop.point = pa.zero.apply(pa.written.inverse().apply(world));
      loop.point_b = zero_b.apply(local_b);
    }
    graph_.loops.push_back(loop);
  }
}

// <equality><joint joint1 joint2 polycoef> (XML reference, equality/joint): with y, x the
// values of joint1, joint2 and y0, x0 their reference positions (qpos0, the refs),
// y − y0 = a0 + a1 (x − x0) + a2 (x − x0)² + ...; mechdyn's q is qpos, so the linear
// part is the gear q_joint1 = a1 q_joint2 + (a0 + y0 − a1 x0): a = joint2, b = joint1.
void MjcfReader::read_joint_equality(const MjcfElement& eq, const std::string& name) {
  const std::optional<std::string> first = eq.text("joint1"), second = eq.text("joint2");
  if (!first) eq.fail("has no joint1");
  auto graph_joint = [&](const std::string& joint_name, const char* attribute) {
    const auto found = joint_links_.find(joint_name);
    if (found == joint_links_.end()) eq.fail(std::string(attribute) + " " + in_quotes(joint_name) + " is not a joint");
    const int index = found->second.front();
    if (joint_nv(graph_.joints[static_cast<std::size_t>(index)].type) != 1)
      eq.fail(std::string(attribute) + " " + in_quotes(joint_name) +
              " is not a hinge or slide joint; a coupling ties joints of one coordinate");
    return index;
  };
  const int b = graph_joint(*first, "joint1");
  std::vector<double> coefficients = eq.numbers("polycoef").value_or(std::vector<double>{0.0, 1.0, 0.0, 0.0, 0.0});
  if (coefficients.size() != 5) eq.fail("polycoef must have 5 numbers");
  if (!second)
    eq.fail("has no joint2: it locks joint1 " + in_quotes(*first) +
            " at its reference plus a0; mechdyn has no joint lock (make the joint fixed in the file, or give joint2)");
  const int a = graph_joint(*second, "joint2");
  if (a == b) eq.fail("joint1 and joint2 are the same joint");
  if (coefficients[1] == 0.0)
    eq.fail("polycoef a1 = 0: the constraint locks joint1 (no linear coupling); mechdyn has no joint lock");
  if (coefficients[2] != 0.0 || coefficients[3] != 0.0 || coefficients[4] != 0.0)
    warnings_.add(eq.name(),
                  "polycoef a2..a4 (" + shortest_decimal(coefficients[2]) + ", " + shortest_decimal(coefficients[3]) +
                      ", " + shortest_decimal(coefficients[4]) +
                      ") ignored: mechdyn's gear coupling is linear; only a0 and a1 are read",
                  eq.line());
  const double y0 = joint_refs_.count(*first) ? joint_refs_.at(*first) : 0.0;
  const double x0 = joint_refs_.count(*second) ? joint_refs_.at(*second) : 0.0;
  io::GraphCoupling coupling;
  coupling.coupling.name = name;
  coupling.coupling.type = CouplingType::Gear;
  coupling.coupling.a = a;
  coupling.coupling.b = b;
  coupling.coupling.ratio = coefficients[1];
  coupling.coupling.offset = coefficients[0] + y0 - coefficients[1] * x0;
  coupling.element = eq.name();
  coupling.line = eq.line();
  graph_.couplings.push_back(coupling);
}

// <tendon><spatial stiffness damping springlength> through exactly two <site>s (XML
// reference, tendon/spatial): its length is the distance between the sites, its passive
// force −stiffness (L − springlength) − damping L̇: a spring-damper between the sites'
// points, free length = springlength, or (absent or negative) the length MuJoCo 2.2.2
// computes then: at qpos_spring, every joint at its springref (measured against MuJoCo's
// qfrc_passive in tests/reference/test_robot_files_mujoco.cpp; not qpos0, the written pose). Tendons through more sites, wrapping geoms or pulleys, and fixed
// tendons are skipped with a warning.
// World position of a point of `link` (world `zero` at qpos = 0) at MuJoCo's qpos_spring:
// every hinge and slide at its springref, ball and free joints at their written pose
// (mechdyn's q = 0 for them). Product of exponentials from the link's joint up to the root.
Vec3 MjcfReader::point_at_spring(int link, const Vec3& zero) const {
  Vec3 p = zero;
  for (int at = link; at != kGround;) {
    int joint = -1;
    for (int j = 0; j < static_cast<int>(graph_.joints.size()); ++j)
      if (graph_.joints[static_cast<std::size_t>(j)].child == at) joint = j;
    if (joint < 0) break;
    const io::GraphJoint& g = graph_.joints[static_cast<std::size_t>(joint)];
    const auto found = joint_springref_.find(joint);
    const double value = found == joint_springref_.end() ? 0.0 : found->second;
    if (g.type == JointType::Revolute)
      p = g.anchor + Eigen::AngleAxisd(value, g.axis.normalized()).toRotationMatrix() * (p - g.anchor);
    else if (g.type == JointType::Prismatic)
      p += value * g.axis.normalized();
    at = g.parent;
  }
  return p;
}

void MjcfReader::read_tendons(const tinyxml2::XMLElement* tendons) {
  for (const tinyxml2::XMLElement* e = tendons->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const std::string kind = e->Name();
    const char* given = e->Attribute("name");
    const std::string name = given ? given : "tendon" + std::to_string(graph_.forces.size());
    const MjcfElement tendon = element(e, "", "tendon " + in_quotes(name));
    if (kind != "spatial") {
      warnings_.add(tendon.name(), "<" + io::printable(kind) + "> tendon not read (mechdyn reads two-site spatial tendons)",
                    tendon.line());
      continue;
    }
    std::vector<std::string> site_names;
    bool other = false;
    for (const tinyxml2::XMLElement* p = e->FirstChildElement(); p != nullptr; p = p->NextSiblingElement()) {
      if (std::string(p->Name()) != "site") {
        other = true;
        continue;
      }
      const char* site = p->Attribute("site");
      if (site == nullptr) fail_at(source_, tendon.name(), "a <site> has no site attribute", p->GetLineNum());
      site_names.push_back(site);
    }
    const double stiffness = tendon.number("stiffness", 0.0), damping = tendon.number("damping", 0.0);
    if (stiffness < 0.0 || damping < 0.0) tendon.fail("stiffness and damping must not be negative");
    if (other || site_names.size() != 2) {
      warnings_.add(tendon.name(),
                    other ? "wraps around geoms or pulleys: not read (mechdyn reads straight two-site tendons)"
                          : "passes " + std::to_string(site_names.size()) +
                                " sites: not read (mechdyn reads straight tendons between exactly two sites)",
                    tendon.line());
      continue;
    }
    if (stiffness == 0.0 && damping == 0.0) {
      warnings_.add(tendon.name(), "has no stiffness or damping: it exerts no passive force and is not read",
                    tendon.line());
      continue;
    }
    const Site* ends[2];
    for (int k = 0; k < 2; ++k) {
      const auto found = sites_.find(site_names[static_cast<std::size_t>(k)]);
      if (found == sites_.end()) tendon.fail("site " + in_quotes(site_names[static_cast<std::size_t>(k)]) + " is not defined");
      ends[k] = &found->second;
    }
    double length = -1.0;
    if (const auto given_length = tendon.numbers("springlength")) {
      if (given_length->empty() || given_length->size() > 2) tendon.fail("springlength must have 1 or 2 numbers");
      if (given_length->size() == 2 && (*given_length)[0] != (*given_length)[1])
        tendon.fail("springlength gives a dead band (two different lengths); mechdyn's spring has one free length");
      length = (*given_length)[0];
    }
    if (length < 0.0) length = (point_at_spring(ends[1]->link, ends[1]->zero) - point_at_spring(ends[0]->link, ends[0]->zero)).norm();
    io::GraphForce spring;
    spring.force.name = name;
    spring.force.type = ForceElementType::SpringDamper;
    spring.force.a = {ends[0]->link, ends[0]->zero};
    spring.force.b = {ends[1]->link, ends[1]->zero};
    spring.force.stiffness = stiffness;
    spring.force.damping = damping;
    spring.force.free_length = length;
    spring.element = tendon.name();
    spring.line = tendon.line();
    if (ends[0]->link == ends[1]->link) {
      warnings_.add(tendon.name(), "both sites are on one body: it exerts nothing and is not read", tendon.line());
      continue;
    }
    graph_.forces.push_back(spring);
  }
}

// Actuators on joints make the joints without one passive. <position joint kp kv> is also
// a joint-servo (XML reference, actuator/position: force kp (ctrl − q) − kv q̇): MuJoCo's
// ctrl is an input of the simulation, mechdyn's target an expression of t: target "0"
// (edit it after conversion); stiffness kp gear², damping kv gear², max_effort from
// forcerange when force-limited (forcelimited true, or auto with autolimits and a forcerange).
void MjcfReader::read_actuators(const tinyxml2::XMLElement* actuators) {
  for (const tinyxml2::XMLElement* e = actuators->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const char* joint = e->Attribute("joint");
    if (joint == nullptr) continue;
    if (!joint_links_.count(joint))
      fail_at(source_, std::string("<") + e->Name() + ">", "joint " + in_quotes(joint) + " is not defined", e->GetLineNum());
    has_joint_actuators_ = true;
    driven_joints_.insert(joint);
    if (std::string(e->Name()) != "position") continue;
    const char* given = e->Attribute("name");
    const std::string name = given ? given : std::string(joint) + "_servo";
    const MjcfElement actuator = element(e, "", "actuator " + in_quotes(name));
    const int index = joint_links_.at(joint).front();
    if (joint_nv(graph_.joints[static_cast<std::size_t>(index)].type) != 1)
      actuator.fail("drives " + in_quotes(joint) + ", not a hinge or slide joint; a joint servo needs one coordinate");
    const double kp = actuator.number("kp", 1.0), kv = actuator.number("kv", 0.0);
    const std::vector<double> gear = actuator.numbers("gear").value_or(std::vector<double>{1.0});
    if (gear.empty() || gear[0] == 0.0) actuator.fail("gear must be a non-zero number");
    for (std::size_t k = 1; k < gear.size(); ++k)
      if (gear[k] != 0.0) actuator.fail("gear has components beyond the first; a joint takes one");
    if (kp < 0.0 || kv < 0.0) actuator.fail("kp and kv must not be negative");
    io::GraphForce servo;
    servo.force.name = name;
    servo.force.type = ForceElementType::JointServo;
    servo.force.joint = index;
    servo.force.target = "0";
    servo.force.stiffness = kp * gear[0] * gear[0];
    servo.force.damping = kv * gear[0] * gear[0];
    const std::optional<std::string> limited = actuator.text("forcelimited");
    const std::optional<std::vector<double>> range = actuator.numbers("forcerange", 2);
    if (range && (limited == std::optional<std::string>("true") ||
                  (compiler_.auto_limits && (!limited || *limited == "auto")))) {
      const double low = (*range)[0], high = (*range)[1];
      if (!(low < 0.0 && high > 0.0)) actuator.fail("forcerange must have a negative lower and a positive upper bound");
      if (low != -high)
        warnings_.add(actuator.name(),
                      "forcerange " + shortest_decimal(low) + " " + shortest_decimal(high) +
                          " is not symmetric; the servo is clamped to +-" + shortest_decimal(std::min(-low, high)),
                      actuator.line());
      servo.force.max_effort = std::min(-low, high) * std::abs(gear[0]);
    } else if (limited == std::optional<std::string>("true")) {
      actuator.fail("forcelimited=\"true\" without a forcerange");
    }
    servo.element = actuator.name();
    servo.line = actuator.line();
    graph_.forces.push_back(servo);
    warnings_.add(actuator.name(),
                  "<position> read as joint-servo " + in_quotes(name) + " with target \"0\" (MuJoCo's ctrl is an input; "
                  "set the servo's target expression in the model)",
                  actuator.line());
  }
}

// boundmass, boundinertia, balanceinertia, settotalmass (MuJoCo's order), on principal moments.
void MjcfReader::finish_masses() {
  const bool bound = compiler_.bound_mass > 0.0 || compiler_.bound_inertia > 0.0 || compiler_.balance_inertia;
  for (std::size_t l = 0; bound && l < graph_.links.size(); ++l) {
    io::GraphLink& link = graph_.links[l];
    if (!body_links_.count(static_cast<int>(l))) continue;  // a massless link of a joint chain is not a MuJoCo body
    link.mass = std::max(link.mass, compiler_.bound_mass);
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(0.5 * (link.inertia + link.inertia.transpose()));
    Vec3 moments = eigen.eigenvalues().cwiseMax(compiler_.bound_inertia);
    if (compiler_.balance_inertia && moments[0] + moments[1] < moments[2]) moments.setConstant(moments.sum() / 3.0);
    link.inertia = eigen.eigenvectors() * moments.asDiagonal() * eigen.eigenvectors().transpose();
  }
  if (compiler_.total_mass > 0.0) {
    double total = 0.0;
    for (const io::GraphLink& link : graph_.links) total += link.mass;
    if (!(total > 0.0)) fail_at(source_, "<compiler settotalmass>", "the model has no mass to scale");
    const double scale = compiler_.total_mass / total;
    for (io::GraphLink& link : graph_.links) {
      link.mass *= scale;
      link.inertia *= scale;
    }
  }
}

Model MjcfReader::read() {
  documents_.push_back(io::parse_xml(text_, source_));
  const tinyxml2::XMLElement* root = documents_.front()->RootElement();
  if (std::string(root->Name()) != "mujoco")
    fail_at(source_, "document", "the root element is <" + io::printable(root->Name()) + ">, an MJCF file has <mujoco>",
            root->GetLineNum());
  graph_.name = root->Attribute("model") ? root->Attribute("model") : "mujoco_model";
  read_compiler(root);
  defaults_.read(root, source_);
  scan_joint_references(root);
  for_each(root, "option", [&](const tinyxml2::XMLElement* e) {
    const io::XmlAttributes option(e, source_, "<option>");
    if (const auto gravity = option.vec3("gravity")) graph_.gravity = *gravity;
  });
  const LinkPoses world;
  for_each(root, "worldbody", [&](const tinyxml2::XMLElement* worldbody) {
    for_each(worldbody, "site", [&](const tinyxml2::XMLElement* s) {
      const char* name = s->Attribute("name");
      if (name == nullptr) return;
      const MjcfElement site = element(s, "", "site " + in_quotes(name));
      const Vec3 point = site.vec3("pos", Vec3::Zero());
      graph_.markers.push_back({name, kGround, point});
      sites_[name] = {kGround, point};
    });
    for_each(worldbody, "body", [&](const tinyxml2::XMLElement* body) { read_body(body, kGround, world, ""); });
  });
  if (graph_.links.empty()) fail_at(source_, "<worldbody>", "has no <body>");
  for_each(root, "equality", [&](const tinyxml2::XMLElement* e) { read_equality(e); });
  for_each(root, "actuator", [&](const tinyxml2::XMLElement* e) { read_actuators(e); });
  for_each(root, "tendon", [&](const tinyxml2::XMLElement* e) { read_tendons(e); });
  for (const char* kind : {"contact"})
    for_each(root, kind, [&](const tinyxml2::XMLElement* e) {
      if (e->FirstChildElement() != nullptr)
        warnings_.add(std::string("<") + kind + ">", "not read (mechdyn reads bodies, joints, masses and equality loops)",
                      e->GetLineNum());
    });
  if (has_joint_actuators_) {
    std::set<int> passive;  // graph joints (a cylindrical joint is two MJCF joints)
    for (const auto& [joint_name, indices] : joint_links_)
      if (!driven_joints_.count(joint_name))
        for (const int j : indices) {
          graph_.joints[static_cast<std::size_t>(j)].actuated = false;
          passive.insert(j);
        }
    if (!passive.empty())
      warnings_.add("<actuator>", std::to_string(passive.size()) +
                                      " joint(s) without an actuator are passive (actuated: false); the others take "
                                      "input efforts");
  }
  finish_masses();
  io::BuildOptions build;
  build.merge_fixed_joints = options_.merge_fixed_joints;
  build.limit_stops = options_.limit_stops;
  return io::build_model(std::move(graph_), build, warnings_);
}

}  // namespace

Model read_mjcf(const std::string& text, const std::string& source, const std::string& base_directory,
                const ImportOptions& options, std::vector<std::string>* warnings) {
  return MjcfReader(text, source, base_directory, options, warnings).read();
}

}  // namespace mechdyn
