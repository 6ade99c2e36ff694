// URDF reader (io/urdf.hpp): urdfdom for the meaning of every element, tinyxml2 for the
// line numbers and element order urdfdom does not keep, then the common natural-frame
// builder (robot_graph.hpp).
//
// URDF frames (ROS wiki "urdf/XML/joint", "urdf/XML/link"): a joint's <origin> is the
// pose of the joint frame in the parent link's frame; the child link's frame IS the joint
// frame; <axis> is in the joint frame; <inertial><origin> is the pose of the inertia's
// frame in the link frame, <inertia> the tensor entries about the centre of mass in that
// frame. So, at q = 0, with T_child = T_parent · origin (composed from the root):
//   anchor = p_child,  axis_world = R_child · axis,  com = p_child + R_child · p_inertial,
//   J_world = (R_child R_inertial) J (R_child R_inertial)ᵀ.
// The quirks of real files and what is done with each: docs/robot-files.md (URDF).
#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/urdf.hpp"
#include "robot_graph.hpp"
#include "xml_support.hpp"

namespace mechdyn {
namespace {

using io::fail_at;

// urdfdom reports through console_bridge (to stderr by default) and may go on after an
// error with a half-read element. The capture silences it and keeps every error; one
// error is enough to refuse the file. console_bridge's handler is global: one at a time.
std::mutex console_mutex;

class ConsoleCapture : public console_bridge::OutputHandler {
 public:
  ConsoleCapture() : lock_(console_mutex) {
    previous_ = console_bridge::getOutputHandler();
    previous_level_ = console_bridge::getLogLevel();
    console_bridge::useOutputHandler(this);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  }
  ~ConsoleCapture() override {
    console_bridge::useOutputHandler(previous_);
    console_bridge::setLogLevel(previous_level_);
  }
  ConsoleCapture(const ConsoleCapture&) = delete;
  ConsoleCapture& operator=(const ConsoleCapture&) = delete;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
  }
  std::vector<std::string> errors;

 private:
  std::lock_guard<std::mutex> lock_;
  console_bridge::OutputHandler* previous_ = nullptr;
  console_bridge::LogLevel previous_level_ = console_bridge::CONSOLE_BRIDGE_LOG_WARN;
};

struct Element {
  std::string name;
  int line = 0;
};

struct JointElement : Element {
  std::string type, parent, child;
};

Mat3 rotation_of(const urdf::Rotation& r) { return Quat(r.w, r.x, r.y, r.z).normalized().toRotationMatrix(); }
Vec3 vector_of(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }

std::string quoted(const std::string& name) { return "'" + io::printable(name) + "'"; }

class UrdfReader {
 public:
  UrdfReader(const std::string& text, std::string source, const ImportOptions& options,
             std::vector<std::string>* warnings)
      : text_(text), source_(std::move(source)), options_(options), warnings_(source_, warnings) {}

  Model read();

 private:
  void index_elements();
  [[noreturn]] void fail_from_urdfdom(const std::vector<std::string>& errors);
  void add_joint(const urdf::Joint& joint, const JointElement& element, const Mat3& rotation, const Vec3& position,
                 int parent, int child);

  const std::string& text_;
  std::string source_;
  ImportOptions options_;
  io::Warnings warnings_;
  std::vector<Element> links_;
  std::vector<JointElement> joints_;
  std::map<std::string, int> link_index_, joint_index_;
  io::RobotGraph graph_;
  struct Mimic {
    std::string other;  // the joint mimicked
    int joint = 0;      // graph joint of the mimicking joint
    double multiplier = 1.0, offset = 0.0;
    int line = 0;
  };
  std::vector<Mimic> mimics_;
  std::map<std::string, int> graph_link_;  // URDF link name → graph link (absent: the world)
};

// Link and joint elements in file order with their lines; the structural rules urdfdom
// checks loosely (a link with two parent joints passes it silently) are checked here.
void UrdfReader::index_elements() {
  const std::unique_ptr<tinyxml2::XMLDocument> document = io::parse_xml(text_, source_);
  const tinyxml2::XMLElement* root = document->RootElement();
  const std::string root_name = root->Name();
  if (root_name != "robot")
    fail_at(source_, "document",
            "the root element is <" + io::printable(root_name) + ">, a URDF file has <robot>" +
                (root_name == "mujoco" ? " (this is MJCF: name it .xml)" : root_name == "sdf" ? " (this is SDFormat: name it .sdf)" : ""),
            root->GetLineNum());
  // A file xacro wrote keeps the xmlns:xacro declaration; only unexpanded macros
  // (<xacro:...> elements, anywhere) make it a xacro source.
  std::function<void(const tinyxml2::XMLElement*)> refuse_macros = [&](const tinyxml2::XMLElement* parent) {
    for (const tinyxml2::XMLElement* e = parent->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
      if (std::string(e->Name()).rfind("xacro:", 0) == 0)
        fail_at(source_, "<" + io::printable(e->Name()) + ">",
                "is a xacro macro: expand the file first (xacro robot.urdf.xacro > robot.urdf)", e->GetLineNum());
      refuse_macros(e);
    }
  };
  refuse_macros(root);
  for (const tinyxml2::XMLElement* e = root->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const std::string kind = e->Name();
    if (kind != "link" && kind != "joint") continue;
    const char* name = e->Attribute("name");
    if (name == nullptr || *name == '\0') fail_at(source_, "<" + kind + ">", "has no name", e->GetLineNum());
    if (kind == "link") {
      if (!link_index_.emplace(name, static_cast<int>(links_.size())).second)
        fail_at(source_, "link " + quoted(name),
                "is defined twice (also line " + std::to_string(links_[link_index_[name]].line) + ")", e->GetLineNum());
      links_.push_back({name, e->GetLineNum()});
      continue;
    }
    JointElement joint;
    joint.name = name;
    joint.line = e->GetLineNum();
    const std::string element = "joint " + quoted(name);
    if (!joint_index_.emplace(name, static_cast<int>(joints_.size())).second)
      fail_at(source_, element, "is defined twice (also line " + std::to_string(joints_[joint_index_[name]].line) + ")",
              joint.line);
    joint.type = e->Attribute("type") ? e->Attribute("type") : "";
    for (const auto& [tag, out] : {std::pair<const char*, std::string*>{"parent", &joint.parent}, {"child", &joint.child}}) {
      const tinyxml2::XMLElement* link = e->FirstChildElement(tag);
      if (link == nullptr || link->Attribute("link") == nullptr)
        fail_at(source_, element, std::string("has no <") + tag + " link=\"...\"/>", joint.line);
      *out = link->Attribute("link");
    }
    joints_.push_back(joint);
  }
  if (links_.empty()) fail_at(source_, "document", "has no <link>", root->GetLineNum());

  static const std::set<std::string> known_types = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"};
  std::map<std::string, int> parent_joint;  // child link → joint
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j) {
    const JointElement& joint = joints_[j];
    const std::string element = "joint " + quoted(joint.name);
    if (!known_types.count(joint.type))
      fail_at(source_, element,
              "unknown joint type " + quoted(joint.type) +
                  " (URDF types: revolute, continuous, prismatic, fixed, floating, planar)",
              joint.line);
    for (const std::string* link : {&joint.parent, &joint.child})
      if (!link_index_.count(*link))
        fail_at(source_, element,
                std::string(link == &joint.parent ? "parent" : "child") + " link " + quoted(*link) + " is not defined",
                joint.line);
    if (joint.parent == joint.child) fail_at(source_, element, "connects link " + quoted(joint.child) + " to itself", joint.line);
    const auto [at, inserted] = parent_joint.emplace(joint.child, j);
    if (!inserted)
      fail_at(source_, "link " + quoted(joint.child),
              "is the child of two joints, " + quoted(joints_[at->second].name) + " (line " +
                  std::to_string(joints_[at->second].line) + ") and " + quoted(joint.name) + " (line " +
                  std::to_string(joint.line) +
                  "): a URDF describes a tree (write closed loops in SDFormat or MJCF)",
              joint.line);
  }
  std::vector<std::string> roots;
  for (const Element& link : links_)
    if (!parent_joint.count(link.name)) roots.push_back(link.name);
  if (roots.size() > 1)
    fail_at(source_, "document",
            "has " + std::to_string(roots.size()) + " root links (" + quoted(roots[0]) + ", " + quoted(roots[1]) +
                (roots.size() > 2 ? ", ..." : "") + "): no joint connects them; a URDF has exactly one",
            root->GetLineNum());
  if (roots.empty()) {
    // Every link has a parent: follow parents from the first link until one repeats.
    std::vector<std::string> cycle;
    std::set<std::string> seen;
    std::string at = links_[0].name;
    while (seen.insert(at).second) at = joints_[parent_joint[at]].parent;
    const std::string start = at;
    do {
      cycle.push_back(at);
      at = joints_[parent_joint[at]].parent;
    } while (at != start);
    std::string names;
    for (auto it = cycle.rbegin(); it != cycle.rend(); ++it) names += quoted(*it) + " -> ";
    fail_at(source_, "document", "has no root link: the joints form a cycle " + names + quoted(cycle.back()),
            root->GetLineNum());
  }
}

// urdfdom's first error, with the element it names ("... Link [b]", "joint [j]").
void UrdfReader::fail_from_urdfdom(const std::vector<std::string>& errors) {
  std::string element = "document";
  int line = 0;
  for (const std::string& message : errors) {
    std::size_t open = message.find('[');
    while (open != std::string::npos && line == 0) {
      const std::size_t close = message.find(']', open);
      if (close == std::string::npos) break;
      const std::string name = message.substr(open + 1, close - open - 1);
      const bool about_link = message.find("ink") != std::string::npos && message.find("oint") == std::string::npos;
      if (about_link && link_index_.count(name)) {
        element = "link " + quoted(name);
        line = links_[link_index_[name]].line;
      } else if (joint_index_.count(name)) {
        element = "joint " + quoted(name);
        line = joints_[joint_index_[name]].line;
      } else if (link_index_.count(name)) {
        element = "link " + quoted(name);
        line = links_[link_index_[name]].line;
      }
      open = message.find('[', close);
    }
    if (line != 0) break;
  }
  fail_at(source_, element, "urdfdom: " + io::printable(errors.empty() ? std::string("cannot read the file") : errors[0], 300), line);
}

void UrdfReader::add_joint(const urdf::Joint& joint, const JointElement& element, const Mat3& rotation,
                           const Vec3& position, int parent, int child) {
  const std::string name = "joint " + quoted(joint.name);
  io::GraphJoint out;
  out.name = joint.name;
  out.element = name;
  out.line = element.line;
  out.parent = parent;
  out.child = child;
  out.anchor = position;
  out.axis = rotation * vector_of(joint.axis);

  const bool moving = joint.type == urdf::Joint::REVOLUTE || joint.type == urdf::Joint::CONTINUOUS ||
                      joint.type == urdf::Joint::PRISMATIC;
  if (moving && !(out.axis.norm() > 1e-12)) fail_at(source_, name, "<axis xyz=\"0 0 0\"> has no direction", element.line);

  // <limit>: positions for revolute/prismatic; effort and velocity (0 means "not given" in
  // real files, e.g. passive joints) for every moving joint.
  if (moving && joint.limits) {
    JointLimits limits;
    // |limit| ≥ 1e30 is "unlimited" (URDF requires position limits on prismatic joints;
    // write_urdf writes ±1e30 for none).
    if (joint.type != urdf::Joint::CONTINUOUS) {
      if (std::abs(joint.limits->lower) < 1e30) limits.lower = joint.limits->lower;
      if (std::abs(joint.limits->upper) < 1e30) limits.upper = joint.limits->upper;
    }
    if (joint.limits->effort > 0.0) limits.effort = joint.limits->effort;
    if (joint.limits->velocity > 0.0) limits.velocity = joint.limits->velocity;
    if (limits.lower > limits.upper) {
      warnings_.add(name, "<limit lower=\"" + shortest_decimal(limits.lower) + "\" upper=\"" + shortest_decimal(limits.upper) +
                              "\"> has lower above upper; the position limits are ignored",
                    element.line);
      limits.lower = -std::numeric_limits<double>::infinity();
      limits.upper = std::numeric_limits<double>::infinity();
    }
    if (std::isfinite(limits.lower) || std::isfinite(limits.upper) || std::isfinite(limits.effort) ||
        std::isfinite(limits.velocity))
      out.limits = limits;
  }

  // <dynamics damping friction> (ROS wiki urdf/XML/joint: "damping: the physical damping
  // value of the joint (N m s/rad or N s/m)", "friction: the physical static friction value
  // of the joint (N m or N)"): damping is a viscous joint damper, mechdyn's
  // joint-spring-damper with stiffness 0; the friction's law is left to the simulator
  // (Gazebo: Coulomb), read as coulomb_viscous friction with k_c = friction (an effort:
  // no `load` block, docs/friction.md §2).
  const int index = static_cast<int>(graph_.joints.size());  // of `out` (a planar joint takes no element)
  if (joint.dynamics && (joint.dynamics->damping != 0.0 || joint.dynamics->friction != 0.0)) {
    const double damping = joint.dynamics->damping, friction = joint.dynamics->friction;
    if (!std::isfinite(damping) || !std::isfinite(friction))
      fail_at(source_, name, "<dynamics> has a damping or friction that is not a finite number", element.line);
    if (damping < 0.0 || friction < 0.0)
      fail_at(source_, name, "<dynamics> has a negative damping or friction; no joint adds energy that way", element.line);
    std::ostringstream what;
    what << "<dynamics damping=\"" << damping << "\" friction=\"" << friction << "\">";
    if (!moving || joint.type == urdf::Joint::PLANAR) {
      warnings_.add(name, what.str() + " on a " + element.type + " joint is ignored", element.line);
    } else if (!options_.joint_dynamics) {
      warnings_.add(name, what.str() + " ignored (joint dynamics off)", element.line);
    } else {
      if (damping != 0.0) {
        io::GraphForce damper;
        damper.force.name = joint.name + "_damping";
        damper.force.type = ForceElementType::JointSpringDamper;
        damper.force.joint = index;
        damper.force.stiffness = 0.0;
        damper.force.damping = damping;
        damper.element = name + " <dynamics>";
        damper.line = element.line;
        graph_.forces.push_back(damper);
      }
      if (friction != 0.0) {
        JointFriction law;
        law.model = FrictionModel::CoulombViscous;
        law.coulomb = friction;
        out.friction = law;
        warnings_.add(name,
                      what.str() + ": friction read as coulomb_viscous friction with coulomb " +
                          shortest_decimal(friction) +
                          " (an effort); URDF leaves the law to the simulator, so check it (or load without joint "
                          "dynamics)",
                      element.line);
      }
    }
  }
  // <mimic joint multiplier offset> (ROS wiki urdf/XML/joint: "value = multiplier *
  // other_joint_value + offset"): a gear coupling, a = the other joint, b = this one, which
  // is then passive (its effort comes through the coupling). Resolved in read() once
  // every joint is known.
  if (joint.mimic) {
    const std::string& other = joint.mimic->joint_name;
    if (joint_index_.find(other) == joint_index_.end())
      fail_at(source_, name, "<mimic joint=" + quoted(other) + ">: the file has no joint " + quoted(other), element.line);
    const double multiplier = joint.mimic->multiplier, offset = joint.mimic->offset;
    if (!std::isfinite(multiplier) || !std::isfinite(offset))
      fail_at(source_, name, "<mimic joint=" + quoted(other) + ">: multiplier and offset must be finite numbers",
              element.line);
    if (other == joint.name) fail_at(source_, name, "<mimic> names the joint itself", element.line);
    if (multiplier == 0.0)
      fail_at(source_, name,
              "<mimic joint=" + quoted(other) +
                  " multiplier=\"0\">: a multiplier of 0 locks the joint at the offset; a gear needs a non-zero ratio",
              element.line);
    if (!moving || joint.type == urdf::Joint::PLANAR)
      fail_at(source_, name,
              "<mimic> on a " + element.type + " joint: a coupling ties joints of one coordinate (revolute, continuous, "
                                               "prismatic)",
              element.line);
    mimics_.push_back({other, index, multiplier, offset, element.line});
    out.actuated = false;
  }

  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      out.type = JointType::Revolute;
      break;
    case urdf::Joint::PRISMATIC:
      out.type = JointType::Prismatic;
      break;
    case urdf::Joint::FIXED:
      out.type = JointType::Fixed;
      break;
    case urdf::Joint::FLOATING:
      out.type = JointType::Free;
      warnings_.add(name,
                    "'floating' read as a free joint: q = position of link " + quoted(joint.child_link_name) +
                        "'s frame origin relative to its parent's, then the quaternion w, x, y, z",
                    element.line);
      break;
    case urdf::Joint::PLANAR: {
      // Two prismatic joints along the plane and a revolute about its normal, through two
      // massless links (MuJoCo's URDF import does the same with three joints in one body).
      const Vec3 normal = io::clean_direction(out.axis);
      if (!(normal.norm() > 0.5)) fail_at(source_, name, "a planar joint needs its normal as <axis>", element.line);
      const Vec3 helper = std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
      const Vec3 first = io::clean_direction(helper - normal * normal.dot(helper));
      const Vec3 second = normal.cross(first);
      int at = parent;
      const char* suffix[2] = {"_TX", "_TY"};
      const Vec3 directions[2] = {first, second};
      for (int k = 0; k < 2; ++k) {
        io::GraphLink link;
        link.name = graph_.links[child].name + "__planar" + suffix[k];
        link.element = name;
        link.line = element.line;
        link.frame_origin = position;
        graph_.links.push_back(link);
        io::GraphJoint slide = out;
        slide.name = joint.name + suffix[k];
        slide.type = JointType::Prismatic;
        slide.axis = directions[k];
        slide.parent = at;
        slide.child = static_cast<int>(graph_.links.size()) - 1;
        slide.limits.reset();
        slide.friction.reset();
        graph_.joints.push_back(slide);
        at = slide.child;
      }
      out.name = joint.name + "_RZ";
      out.type = JointType::Revolute;
      out.axis = normal;
      out.parent = at;
      out.limits.reset();
      out.friction.reset();
      warnings_.add(name,
                    "'planar' read as prismatic joints " + quoted(joint.name + "_TX") + ", " +
                        quoted(joint.name + "_TY") + " and revolute joint " + quoted(joint.name + "_RZ") +
                        " through two massless links",
                    element.line);
      break;
    }
    default:
      fail_at(source_, name, "unknown joint type", element.line);
  }
  graph_.joints.push_back(out);
}

Model UrdfReader::read() {
  index_elements();
  urdf::ModelInterfaceSharedPtr urdf;
  {
    ConsoleCapture capture;
    try {
      urdf = urdf::parseURDF(text_);
    } catch (const std::exception& e) {
      capture.errors.insert(capture.errors.begin(), e.what());
    }
    if (!urdf || !capture.errors.empty()) fail_from_urdfdom(capture.errors);
  }
  graph_.name = urdf->getName();

  // The root: a massless link called "world" is the fixed world itself (the ROS
  // convention); any other root is attached to ground by a fixed joint, or a free one
  // with the floating-base option.
  const std::string root_name = urdf->getRoot()->name;
  const bool world_root = root_name == "world" && (!urdf->getRoot()->inertial || urdf->getRoot()->inertial->mass == 0.0);

  // Links in file order (the world root is no link).
  for (const Element& element : links_) {
    if (world_root && element.name == root_name) continue;
    graph_link_[element.name] = static_cast<int>(graph_.links.size());
    io::GraphLink link;
    link.name = element.name;
    link.element = "link " + quoted(element.name);
    link.line = element.line;
    graph_.links.push_back(link);
  }

  // World poses, depth first from the root (children in joint order).
  std::map<std::string, std::pair<Mat3, Vec3>> pose;  // link → (R, p) at q = 0
  pose[root_name] = {Mat3::Identity(), Vec3::Zero()};
  std::vector<std::string> stack = {root_name};
  while (!stack.empty()) {
    const std::string parent = stack.back();
    stack.pop_back();
    for (auto it = joints_.rbegin(); it != joints_.rend(); ++it) {
      if (it->parent != parent) continue;
      const urdf::Joint& joint = *urdf->getJoint(it->name);
      const auto& [rotation, position] = pose[parent];
      const urdf::Pose& origin = joint.parent_to_joint_origin_transform;
      pose[it->child] = {rotation * rotation_of(origin.rotation), position + rotation * vector_of(origin.position)};
      stack.push_back(it->child);
    }
  }

  for (const Element& element : links_) {
    if (world_root && element.name == root_name) continue;
    io::GraphLink& link = graph_.links[graph_link_[element.name]];
    const auto& [rotation, position] = pose[element.name];
    link.frame_origin = position;
    const urdf::InertialSharedPtr inertial = urdf->getLink(element.name)->inertial;
    if (!inertial) continue;
    const Mat3 frame = rotation * rotation_of(inertial->origin.rotation);
    Mat3 tensor;
    tensor << inertial->ixx, inertial->ixy, inertial->ixz, inertial->ixy, inertial->iyy, inertial->iyz, inertial->ixz,
        inertial->iyz, inertial->izz;
    link.mass = inertial->mass;
    link.com = position + rotation * vector_of(inertial->origin.position);
    link.inertia = frame * tensor * frame.transpose();
  }

  // The root's joint to ground.
  if (!world_root) {
    io::GraphJoint root;
    root.name = options_.floating_base ? "floating_base" : root_name;
    if (joint_index_.count(root.name)) root.name += "_root";
    root.element = "link " + quoted(root_name);
    root.line = links_[link_index_[root_name]].line;
    root.type = options_.floating_base ? JointType::Free : JointType::Fixed;
    root.parent = kGround;
    root.child = graph_link_[root_name];
    graph_.joints.push_back(root);
  } else if (options_.floating_base) {
    int from_world = 0;
    for (const JointElement& joint : joints_) from_world += joint.parent == root_name;
    if (from_world != 1)
      fail_at(source_, "link " + quoted(root_name),
              "floating base asked for, but " + std::to_string(from_world) +
                  " joints hang from the world link; attach the robot by one joint",
              links_[link_index_[root_name]].line);
  }

  // Joints in file order (their children keep the file's order among siblings).
  for (const JointElement& element : joints_) {
    const urdf::Joint& joint = *urdf->getJoint(element.name);
    const auto& [rotation, position] = pose[element.child];
    const int parent = world_root && element.parent == root_name ? kGround : graph_link_[element.parent];
    const std::size_t before = graph_.joints.size();
    add_joint(joint, element, rotation, position, parent, graph_link_[element.child]);
    io::GraphJoint& added = graph_.joints.back();
    if (options_.floating_base && parent == kGround && added.type != JointType::Free && graph_.joints.size() == before + 1) {
      warnings_.add(added.element,
                    std::string("attaches the robot to the world; with the floating base it becomes a free joint (was ") +
                        joint_type_name(added.type) + ")",
                    element.line);
      added.type = JointType::Free;
      added.limits.reset();
      added.friction.reset();
      const int index = static_cast<int>(graph_.joints.size()) - 1;
      const auto on_it = [&](const io::GraphForce& f) { return is_joint_element(f.force.type) && f.force.joint == index; };
      if (std::any_of(graph_.forces.begin(), graph_.forces.end(), on_it)) {
        graph_.forces.erase(std::remove_if(graph_.forces.begin(), graph_.forces.end(), on_it), graph_.forces.end());
        warnings_.add(added.element, "its <dynamics> damping is dropped with the free joint", element.line);
      }
      for (const Mimic& mimic : mimics_)
        if (mimic.joint == index || mimic.other == element.name)
          fail_at(source_, added.element, "is coupled by <mimic>, but the floating base makes it a free joint",
                  element.line);
    }
  }
  // Mimics: gear couplings between the graph joints of the two names.
  for (const Mimic& mimic : mimics_) {
    int other = -1;
    for (int j = 0; j < static_cast<int>(graph_.joints.size()); ++j)
      if (graph_.joints[static_cast<std::size_t>(j)].name == mimic.other) other = j;
    const std::string element = "joint " + quoted(graph_.joints[static_cast<std::size_t>(mimic.joint)].name);
    if (other < 0 || joint_nv(graph_.joints[static_cast<std::size_t>(other)].type) != 1)
      fail_at(source_, element,
              "<mimic joint=" + quoted(mimic.other) + ">: joint " + quoted(mimic.other) + " is " +
                  joints_[joint_index_.at(mimic.other)].type +
                  "; a coupling ties joints of one coordinate (revolute, continuous, prismatic)",
              mimic.line);
    io::GraphCoupling coupling;
    coupling.coupling.name = graph_.joints[static_cast<std::size_t>(mimic.joint)].name + "_mimic";
    coupling.coupling.type = CouplingType::Gear;
    coupling.coupling.a = other;
    coupling.coupling.b = mimic.joint;
    coupling.coupling.ratio = mimic.multiplier;
    coupling.coupling.offset = mimic.offset;
    coupling.element = element + " <mimic>";
    coupling.line = mimic.line;
    graph_.couplings.push_back(coupling);
  }
  io::BuildOptions build;
  build.merge_fixed_joints = options_.merge_fixed_joints;
  build.limit_stops = options_.limit_stops;
  return io::build_model(std::move(graph_), build, warnings_);
}

}  // namespace

Model read_urdf(const std::string& text, const std::string& source, const ImportOptions& options,
                std::vector<std::string>* warnings) {
  return UrdfReader(text, source, options, warnings).read();
}

}  // namespace mechdyn
