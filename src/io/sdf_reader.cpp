// SDFormat reader (io/sdf.hpp): Debian's libsdformat (12) for the meaning of every
// element and the pose graph (relative_to, frames, defaults), tinyxml2 for a broken-XML
// message with its line, then the common natural-frame builder (robot_graph.hpp).
//
// SDFormat frames (sdformat.org, "Pose frame semantics"): every pose is resolved here to
// the model frame, then to the world by the model's own pose:
//   T_link = T_model · T^{model}_{link},  anchor = p_joint (the joint frame's origin),
//   axis_world = R_model · xyz^{model},  com = T_link · p_inertial,
//   J_world = (R_link R_inertial) J (R_link R_inertial)ᵀ.
//
// The spanning tree and the loops (the point of this reader: Drake's SDFormat parser
// refuses kinematic loops, drake#18803). Joints are taken in file order, repeatedly: a
// joint becomes a TREE joint when its parent is the world or a link already attached and
// its child is not attached yet. A link that is no joint's child is free (SDFormat's
// meaning: a free joint; welded to the world in a static model). Every joint left whose
// child is already attached CLOSES A LOOP: it becomes a cut joint (model-format.md
// "loops") at the joint frame's origin, a = the child link (the joint frame is fixed in
// it), b = the parent link or ground: revolute/continuous → revolute, prismatic →
// prismatic, ball → spherical, universal/revolute2 → universal (first axis on the
// parent, second on the child), fixed → fixed. Links that no chain from the world or
// a free link reaches (joints in a cycle hanging from nothing) are refused.
// Cost O(joints²) in the worst case (the repeated passes); runs once per file.
#include <sdf/sdf.hh>

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_writer.hpp"
#include "mechdyn/io/sdf.hpp"
#include "robot_graph.hpp"
#include "xml_support.hpp"

namespace mechdyn {
namespace {

using io::fail_at;

std::string in_quotes(const std::string& name) { return "'" + io::printable(name) + "'"; }

Vec3 vector_of(const ignition::math::Vector3d& v) { return Vec3(v.X(), v.Y(), v.Z()); }
Mat3 rotation_of(const ignition::math::Quaterniond& q) {
  return Quat(q.W(), q.X(), q.Y(), q.Z()).normalized().toRotationMatrix();
}

struct Pose {
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
  Pose operator*(const Pose& other) const { return {rotation * other.rotation, position + rotation * other.position}; }
};
Pose pose_of(const ignition::math::Pose3d& p) { return {rotation_of(p.Rot()), vector_of(p.Pos())}; }

int line_of(const sdf::ElementPtr& element) {
  if (!element) return 0;
  const std::optional<int> line = element->LineNumber();
  return line ? *line : 0;
}

// sdformat's console (stderr) is global: silenced while one file is read, one at a time.
std::mutex console_mutex;

// Lines of the <link> and <joint> elements by name (sdformat's messages carry none).
struct ElementLines {
  std::map<std::string, int> links, joints;
};

// The first line of sdformat's first error, naming the link or joint it is about when
// its text does ("link named x", "joint with name[x]").
[[noreturn]] void fail_from_sdformat(const std::string& source, const sdf::Errors& errors,
                                     const ElementLines& lines = {}) {
  const sdf::Error& error = errors.front();
  std::string message = error.Message();
  message = message.substr(0, message.find('\n'));
  std::string element = "document";
  int line = error.LineNumber() ? *error.LineNumber() : 0;
  auto name_after = [&](const std::string& marker, char end) -> std::optional<std::string> {
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) return std::nullopt;
    const std::size_t from = at + marker.size();
    std::size_t to = message.find(end, from);
    if (to == std::string::npos) to = message.size();
    std::string name = message.substr(from, to - from);
    while (!name.empty() && (name.back() == '.' || name.back() == ',')) name.pop_back();
    return name;
  };
  for (const auto& [marker, end, kind] : {std::tuple<const char*, char, const char*>{"joint with name[", ']', "joint"},
                                          {"joint named ", ' ', "joint"},
                                          {"link with name[", ']', "link"},
                                          {"link named ", ' ', "link"}}) {
    if (const std::optional<std::string> name = name_after(marker, end)) {
      element = std::string(kind) + " " + in_quotes(*name);
      const std::map<std::string, int>& table = std::string(kind) == "joint" ? lines.joints : lines.links;
      if (table.count(*name)) line = table.at(*name);
      break;
    }
  }
  fail_at(source, element, "libsdformat: " + io::printable(message, 300), line);
}

// SDFormat's "unlimited" defaults: ±1e16 for positions, −1 for effort and velocity.
std::optional<JointLimits> limits_of(const sdf::JointAxis& axis, bool positions) {
  JointLimits limits;
  if (positions && std::abs(axis.Lower()) < 1e15) limits.lower = axis.Lower();
  if (positions && std::abs(axis.Upper()) < 1e15) limits.upper = axis.Upper();
  if (axis.Effort() >= 0.0 && axis.Effort() < 1e15) limits.effort = axis.Effort();
  if (axis.MaxVelocity() >= 0.0 && axis.MaxVelocity() < 1e15) limits.velocity = axis.MaxVelocity();
  if (!std::isfinite(limits.lower) && !std::isfinite(limits.upper) && !std::isfinite(limits.effort) &&
      !std::isfinite(limits.velocity))
    return std::nullopt;
  return limits;
}

class SdfReader {
 public:
  SdfReader(const std::string& text, std::string source, std::string base_directory, const ImportOptions& options,
            std::vector<std::string>* warnings)
      : text_(text),
        source_(std::move(source)),
        base_directory_(std::move(base_directory)),
        options_(options),
        warnings_(source_, warnings) {}

  Model read();

 private:
  const sdf::Model& choose_model(const sdf::Root& root);
  void add_links(const sdf::Model& model);
  void add_joints(const sdf::Model& model);
  void add_frames(const sdf::Model& model);
  Vec3 axis_in_world(const sdf::Joint& joint, unsigned index, const std::string& element, int line) const;

  const std::string& text_;
  std::string source_;
  std::string base_directory_;
  ImportOptions options_;
  io::Warnings warnings_;
  io::RobotGraph graph_;
  Pose model_pose_;                    // the model frame in the world
  std::map<std::string, int> link_of_;  // SDFormat link name → graph link
  ElementLines lines_;
};

const sdf::Model& SdfReader::choose_model(const sdf::Root& root) {
  if (const sdf::Model* model = root.Model()) return *model;
  if (root.WorldCount() == 0) fail_at(source_, "document", "has no <model> and no <world>");
  const sdf::World& world = *root.WorldByIndex(0);
  if (root.WorldCount() > 1)
    warnings_.add("document", "has " + std::to_string(root.WorldCount()) + " worlds; the first, " +
                                  in_quotes(world.Name()) + ", is read");
  graph_.gravity = vector_of(world.Gravity());
  // The robot: the one non-static model (static ones are scenery: ground planes, tables).
  std::vector<const sdf::Model*> moving, still;
  for (uint64_t i = 0; i < world.ModelCount(); ++i)
    (world.ModelByIndex(i)->Static() ? still : moving).push_back(world.ModelByIndex(i));
  const std::vector<const sdf::Model*>& candidates = moving.empty() ? still : moving;
  if (candidates.empty()) fail_at(source_, "world " + in_quotes(world.Name()), "has no <model>");
  if (candidates.size() > 1)
    fail_at(source_, "world " + in_quotes(world.Name()),
            "has " + std::to_string(candidates.size()) + " models that move (" + in_quotes(candidates[0]->Name()) + ", " +
                in_quotes(candidates[1]->Name()) + ", ...); mechdyn reads one model: put the robot in its own file",
            line_of(world.Element()));
  for (const sdf::Model* other : still)
    if (other != candidates[0])
      warnings_.add("model " + in_quotes(other->Name()), "is static scenery; not read", line_of(other->Element()));
  return *candidates[0];
}

void SdfReader::add_links(const sdf::Model& model) {
  for (uint64_t i = 0; i < model.LinkCount(); ++i) {
    const sdf::Link& link = *model.LinkByIndex(i);
    io::GraphLink out;
    out.name = link.Name();
    out.element = "link " + in_quotes(link.Name());
    out.line = line_of(link.Element());
    ignition::math::Pose3d in_model;
    const sdf::Errors errors = link.SemanticPose().Resolve(in_model, "__model__");
    if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
    const Pose frame = model_pose_ * pose_of(in_model);
    out.frame_origin = frame.position;
    const ignition::math::Inertiald& inertial = link.Inertial();
    if (!link.Element()->HasElement("inertial"))
      warnings_.add(out.element,
                    "has no <inertial>: SDFormat's default (mass 1 kg, inertia 1 kg m^2 about each axis) is used, as "
                    "Gazebo does",
                    out.line);
    const Pose inertia_frame = frame * pose_of(inertial.Pose());
    const ignition::math::Matrix3d moi = inertial.MassMatrix().Moi();
    Mat3 tensor;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) tensor(r, c) = moi(r, c);
    out.mass = inertial.MassMatrix().Mass();
    out.com = inertia_frame.position;
    out.inertia = inertia_frame.rotation * tensor * inertia_frame.rotation.transpose();
    link_of_[link.Name()] = static_cast<int>(graph_.links.size());
    graph_.links.push_back(out);
  }
}

Vec3 SdfReader::axis_in_world(const sdf::Joint& joint, unsigned index, const std::string& element, int line) const {
  const sdf::JointAxis* axis = joint.Axis(index);
  if (axis == nullptr)
    fail_at(source_, element, index == 0 ? "has no <axis>" : "has no <axis2> (a universal joint needs two axes)", line);
  ignition::math::Vector3d xyz;
  const sdf::Errors errors = axis->ResolveXyz(xyz, "__model__");
  if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
  return model_pose_.rotation * vector_of(xyz);
}

void SdfReader::add_joints(const sdf::Model& model) {
  struct Pending {
    const sdf::Joint* joint;
    std::string element;
    int line;
    int parent;  // graph link or kGround
    int child;
  };
  std::vector<Pending> pending;
  for (uint64_t i = 0; i < model.JointCount(); ++i) {
    const sdf::Joint& joint = *model.JointByIndex(i);
    Pending p{&joint, "joint " + in_quotes(joint.Name()), line_of(joint.Element()), kGround, 0};
    switch (joint.Type()) {
      case sdf::JointType::SCREW:
        fail_at(source_, p.element, "type 'screw' is not supported (mechdyn has no helical joint)", p.line);
      case sdf::JointType::GEARBOX:
        fail_at(source_, p.element, "type 'gearbox' is not supported (mechdyn has no joint-coordinate coupling)", p.line);
      case sdf::JointType::INVALID:
        fail_at(source_, p.element,
                "unknown joint type (SDFormat types: revolute, continuous, prismatic, ball, universal, revolute2, fixed)",
                p.line);
      default:
        break;
    }
    std::string parent, child;
    for (const auto& [resolved, name, which] :
         {std::tuple<std::string*, std::string, const char*>{&parent, joint.ParentLinkName(), "parent"},
          {&child, joint.ChildLinkName(), "child"}}) {
      if (name == "world") {
        *resolved = "world";
        continue;
      }
      const sdf::Errors errors =
          std::string(which) == "parent" ? joint.ResolveParentLink(*resolved) : joint.ResolveChildLink(*resolved);
      if (!errors.empty() || (!link_of_.count(*resolved) && *resolved != "world"))
        fail_at(source_, p.element, std::string(which) + " " + in_quotes(name) + " is not a link of model " +
                                        in_quotes(model.Name()), p.line);
    }
    if (child == "world") fail_at(source_, p.element, "has the world as its child; the world does not move", p.line);
    if (parent == child) fail_at(source_, p.element, "connects link " + in_quotes(child) + " to itself", p.line);
    p.parent = parent == "world" ? kGround : link_of_.at(parent);
    p.child = link_of_.at(child);
    pending.push_back(p);
  }

  // The spanning tree (file header): repeated passes in file order.
  const int n = static_cast<int>(graph_.links.size());
  std::vector<bool> attached(n, false);
  std::vector<bool> is_tree(pending.size(), false), is_child(n, false);
  for (const Pending& p : pending) is_child[p.child] = true;
  std::vector<int> free_roots;
  for (int l = 0; l < n; ++l)
    if (!is_child[l]) free_roots.push_back(l);
  for (const int l : free_roots) attached[l] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t j = 0; j < pending.size(); ++j) {
      const Pending& p = pending[j];
      if (is_tree[j] || attached[p.child] || (p.parent != kGround && !attached[p.parent])) continue;
      is_tree[j] = attached[p.child] = changed = true;
    }
  }
  for (int l = 0; l < n; ++l)
    if (!attached[l]) {
      std::string names;
      for (int k = l, count = 0; k < n && count < 4; ++k)
        if (!attached[k]) names += std::string(count++ ? ", " : "") + in_quotes(graph_.links[k].name);
      fail_at(source_, graph_.links[l].element,
              "no chain of joints from the world or from a free link reaches it: the joints among " + names +
                  " form a cycle that hangs from nothing; attach one of them to the world or another link",
              graph_.links[l].line);
    }

  // Free links first (in link order), then the joints in file order.
  for (const int l : free_roots) {
    io::GraphJoint root;
    root.name = graph_.links[l].name + (model.Static() ? "_weld" : "_free");
    root.element = graph_.links[l].element;
    root.line = graph_.links[l].line;
    root.type = model.Static() ? JointType::Fixed : JointType::Free;
    root.child = l;
    root.anchor = graph_.links[l].frame_origin;
    if (!model.Static())
      warnings_.add(root.element,
                    "no joint holds it: a free link (SDFormat's meaning), joint " + in_quotes(root.name) +
                        " (free) added: q = position of its frame origin, then the quaternion w, x, y, z",
                    root.line);
    graph_.joints.push_back(root);
  }
  for (std::size_t j = 0; j < pending.size(); ++j) {
    const Pending& p = pending[j];
    const sdf::Joint& joint = *p.joint;
    ignition::math::Pose3d in_model;
    const sdf::Errors errors = joint.SemanticPose().Resolve(in_model, "__model__");
    if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
    const Vec3 anchor = (model_pose_ * pose_of(in_model)).position;
    const sdf::JointType type = joint.Type();
    const bool one_axis = type == sdf::JointType::REVOLUTE || type == sdf::JointType::CONTINUOUS ||
                          type == sdf::JointType::PRISMATIC;
    const bool two_axes = type == sdf::JointType::UNIVERSAL || type == sdf::JointType::REVOLUTE2;
    const Vec3 first = one_axis || two_axes ? axis_in_world(joint, 0, p.element, p.line) : Vec3::UnitZ();
    const Vec3 second = two_axes ? axis_in_world(joint, 1, p.element, p.line) : Vec3::UnitY();

    if (!is_tree[j]) {  // closes a loop
      io::GraphLoop loop;
      loop.name = joint.Name();
      loop.element = p.element;
      loop.line = p.line;
      loop.a = p.child;
      loop.b = p.parent;
      loop.point = anchor;
      loop.axis = first;
      switch (type) {
        case sdf::JointType::REVOLUTE:
        case sdf::JointType::CONTINUOUS: loop.type = LoopType::Revolute; break;
        case sdf::JointType::PRISMATIC: loop.type = LoopType::Prismatic; break;
        case sdf::JointType::BALL: loop.type = LoopType::Spherical; break;
        case sdf::JointType::FIXED: loop.type = LoopType::Fixed; break;
        default:  // universal: mechdyn's loop axis is on a (the child), second_axis on b
          loop.type = LoopType::Universal;
          loop.axis = second;
          loop.second_axis = first;
          break;
      }
      warnings_.add(p.element,
                    "link " + in_quotes(graph_.links[p.child].name) +
                        " already hangs from another joint: this joint closes a kinematic loop and is a " +
                        loop_type_name(loop.type) + " cut joint",
                    p.line);
      graph_.loops.push_back(loop);
      continue;
    }
    io::GraphJoint out;
    out.name = joint.Name();
    out.element = p.element;
    out.line = p.line;
    out.parent = p.parent;
    out.child = p.child;
    out.anchor = anchor;
    out.axis = first;
    out.second_axis = second;
    switch (type) {
      case sdf::JointType::REVOLUTE:
      case sdf::JointType::CONTINUOUS: out.type = JointType::Revolute; break;
      case sdf::JointType::PRISMATIC: out.type = JointType::Prismatic; break;
      case sdf::JointType::BALL: out.type = JointType::Spherical; break;
      case sdf::JointType::FIXED: out.type = JointType::Fixed; break;
      default: out.type = JointType::Universal; break;
    }
    if (one_axis) {
      const sdf::JointAxis& axis = *joint.Axis(0);
      out.limits = limits_of(axis, type != sdf::JointType::CONTINUOUS);
      if (out.limits && out.limits->lower > out.limits->upper) {
        warnings_.add(p.element, "<limit> has lower above upper; the position limits are ignored", p.line);
        out.limits->lower = -std::numeric_limits<double>::infinity();
        out.limits->upper = std::numeric_limits<double>::infinity();
      }
      // <axis><dynamics> (sdformat.org, joint.axis.dynamics): damping "the physical velocity
      // dependent viscous damping coefficient", friction "the physical static friction
      // value", spring_reference "the spring reference position", spring_stiffness "the
      // spring stiffness": one joint-spring-damper (rest = spring_reference) and, for the
      // friction, coulomb_viscous friction with k_c = friction (an effort, no load).
      const double damping = axis.Damping(), friction = axis.Friction();
      const double stiffness = axis.SpringStiffness(), reference = axis.SpringReference();
      if (!std::isfinite(damping) || !std::isfinite(friction) || !std::isfinite(stiffness) || !std::isfinite(reference))
        fail_at(source_, p.element, "<dynamics> has a value that is not a finite number", p.line);
      if (damping < 0.0 || friction < 0.0)
        fail_at(source_, p.element, "<dynamics> has a negative damping or friction; no joint adds energy that way", p.line);
      if (stiffness < 0.0)
        fail_at(source_, p.element,
                "<dynamics><spring_stiffness> " + shortest_decimal(stiffness) + " is negative; a joint spring needs >= 0",
                p.line);
      const bool dynamics = options_.joint_dynamics;
      if (!dynamics && (damping != 0.0 || friction != 0.0))
        warnings_.add(p.element,
                      "<dynamics damping=" + shortest_decimal(damping) + " friction=" + shortest_decimal(friction) +
                          "> ignored (joint dynamics off)",
                      p.line);
      const double read_damping = dynamics ? damping : 0.0;
      if (stiffness != 0.0 || read_damping != 0.0) {
        io::GraphForce spring;
        spring.force.name = joint.Name() + (stiffness != 0.0 ? "_spring" : "_damping");
        spring.force.type = ForceElementType::JointSpringDamper;
        spring.force.joint = static_cast<int>(graph_.joints.size());  // `out`, pushed below
        spring.force.stiffness = stiffness;
        spring.force.damping = read_damping;
        spring.force.rest = stiffness != 0.0 ? reference : 0.0;
        spring.element = p.element + " <dynamics>";
        spring.line = p.line;
        graph_.forces.push_back(spring);
      }
      if (dynamics && friction != 0.0) {
        JointFriction law;
        law.model = FrictionModel::CoulombViscous;
        law.coulomb = friction;
        out.friction = law;
        warnings_.add(p.element,
                      "<dynamics friction=" + shortest_decimal(friction) +
                          "> read as coulomb_viscous friction with coulomb " + shortest_decimal(friction) +
                          " (an effort); SDFormat leaves the law to the simulator",
                      p.line);
      }
    }
    graph_.joints.push_back(out);
  }
}

void SdfReader::add_frames(const sdf::Model& model) {
  for (uint64_t i = 0; i < model.FrameCount(); ++i) {
    const sdf::Frame& frame = *model.FrameByIndex(i);
    std::string body;
    ignition::math::Pose3d in_model;
    sdf::Errors errors = frame.ResolveAttachedToBody(body);
    if (errors.empty()) errors = frame.SemanticPose().Resolve(in_model, "__model__");
    if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
    io::GraphMarker marker;
    marker.name = frame.Name();
    marker.link = link_of_.count(body) ? link_of_.at(body) : kGround;
    marker.point = (model_pose_ * pose_of(in_model)).position;
    graph_.markers.push_back(marker);
  }
}

Model SdfReader::read() {
  // Broken XML gets the same one-line message as in the other readers; joint types and
  // masses are checked here too, where the line is known (libsdformat's messages have none).
  {
    const std::unique_ptr<tinyxml2::XMLDocument> document = io::parse_xml(text_, source_);
    const std::string root_name = document->RootElement()->Name();
    if (root_name != "sdf")
      fail_at(source_, "document", "the root element is <" + io::printable(root_name) + ">, an SDFormat file has <sdf>",
              document->RootElement()->GetLineNum());
    static const std::set<std::string> types = {"revolute", "continuous", "prismatic", "ball",     "universal",
                                                "revolute2", "fixed",      "screw",     "gearbox"};
    std::function<void(const tinyxml2::XMLElement*)> index = [&](const tinyxml2::XMLElement* parent) {
      for (const tinyxml2::XMLElement* e = parent->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
        const std::string kind = e->Name();
        const char* name = e->Attribute("name");
        if (kind == "joint" && name != nullptr) {
          lines_.joints.emplace(name, e->GetLineNum());
          const char* type = e->Attribute("type");
          if (type == nullptr || !types.count(type))
            fail_at(source_, "joint " + in_quotes(name),
                    std::string(type ? "unknown joint type " + in_quotes(type) : std::string("has no type")) +
                        " (SDFormat types: revolute, continuous, prismatic, ball, universal, revolute2, fixed)",
                    e->GetLineNum());
        } else if (kind == "link" && name != nullptr) {
          lines_.links.emplace(name, e->GetLineNum());
          if (const tinyxml2::XMLElement* mass = e->FirstChildElement("inertial")
                                                     ? e->FirstChildElement("inertial")->FirstChildElement("mass")
                                                     : nullptr) {
            const std::optional<std::vector<double>> value = io::parse_numbers(mass->GetText() ? mass->GetText() : "");
            if (!value || value->size() != 1)
              fail_at(source_, "link " + in_quotes(name), "<mass> is not one finite number", mass->GetLineNum());
            if ((*value)[0] < 0.0)
              fail_at(source_, "link " + in_quotes(name), "mass " + shortest_decimal((*value)[0]) + " is negative",
                      mass->GetLineNum());
          }
        } else if (kind == "model" || kind == "world") {
          index(e);
        }
      }
    };
    index(document->RootElement());
  }
  sdf::Root root;
  {
    std::lock_guard<std::mutex> lock(console_mutex);
    sdf::Console::Instance()->SetQuiet(true);
    sdf::ParserConfig config;
    const std::string base = base_directory_;
    config.SetFindCallback([base](const std::string& uri) -> std::string {
      if (base.empty()) return "";
      std::string path = uri;
      for (const char* scheme : {"model://", "file://"})
        if (path.rfind(scheme, 0) == 0) path = path.substr(std::string(scheme).size());
      const std::filesystem::path candidate = std::filesystem::path(base) / path;
      return std::filesystem::exists(candidate) ? candidate.string() : std::string();
    });
    const sdf::Errors errors = root.LoadSdfString(text_, config);
    if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
  }
  const sdf::Model& model = choose_model(root);
  graph_.name = model.Name();
  if (model.ModelCount() > 0)
    fail_at(source_, "model " + in_quotes(model.Name()),
            "has nested models (" + in_quotes(model.ModelByIndex(0)->Name()) +
                "); mechdyn reads one flat model: merge them into one <model>",
            line_of(model.ModelByIndex(0)->Element()));
  if (model.LinkCount() == 0) fail_at(source_, "model " + in_quotes(model.Name()), "has no <link>", line_of(model.Element()));
  {
    ignition::math::Pose3d world_pose = model.RawPose();
    if (!model.PoseRelativeTo().empty()) {
      const sdf::Errors errors = model.SemanticPose().Resolve(world_pose, "world");
      if (!errors.empty()) fail_from_sdformat(source_, errors, lines_);
    }
    model_pose_ = pose_of(world_pose);
  }
  add_links(model);
  add_joints(model);
  add_frames(model);
  io::BuildOptions build;
  build.limit_stops = options_.limit_stops;
  build.merge_fixed_joints = options_.merge_fixed_joints;
  return io::build_model(std::move(graph_), build, warnings_);
}

}  // namespace

Model read_sdf(const std::string& text, const std::string& source, const std::string& base_directory,
               const ImportOptions& options, std::vector<std::string>* warnings) {
  return SdfReader(text, source, base_directory, options, warnings).read();
}

}  // namespace mechdyn
