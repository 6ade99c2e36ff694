// Reading model files: ../shared/spec/model-format.md (version 1, the contract), its
// version 2 (../shared/spec/flexible-bodies.md: the `flexible` block, read by
// flexible_block.cpp) and the project's additions documented in docs/model-file.md (inertia `matrix` form,
// `markers`, LuGre bristle parameters, defaults).
//
// The reader walks the YAML tree once, turning every value into the Model field it
// fixes and checking it where it is read, so that each message can name the element
// the user wrote ("bodies[2] 'L2' joint.axis"). Every error is a ModelError with one
// line "<source>: <element>: <problem> (line N)"; unknown keys become warnings. The
// finished Model goes through finalize_model, which re-checks the model as a whole.
#include "mechdyn/io/model_file.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "flexible_block.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/time_expressions.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/math/unit_direction.hpp"

namespace mechdyn {
namespace {

// A user string fit for a one-line message: control characters escaped.
std::string printable(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) out += '?';
    else out += c;
  }
  return out;
}

// Quoted for a message; long text (e.g. a stray paragraph) shortened.
std::string quoted(const std::string& text) {
  const std::size_t max = 60;
  return "'" + printable(text.size() > max ? text.substr(0, max) + "..." : text) + "'";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? ", " : "") + words[i];
  return out;
}

// Which coordinates a scalar came from, for " (line N)" in messages.
std::string line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return "";
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return "";
  return " (line " + std::to_string(mark.line + 1) + ")";
}

// The text of a scalar as written (for messages).
std::string written(const YAML::Node& node) {
  if (node.IsScalar()) return quoted(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "nothing";
}

class Reader {
 public:
  Reader(std::string source, std::vector<std::string>* warnings)
      : source_(std::move(source)), warnings_(warnings) {}

  Model read(const YAML::Node& root);

 private:
  // ---- messages -------------------------------------------------------------
  [[noreturn]] void fail(const std::string& element, const std::string& problem,
                         const YAML::Node& where = YAML::Node()) const {
    throw ModelError(source_ + ": " + element + ": " + problem + line_of(where));
  }
  void warn(const std::string& element, const std::string& problem, const YAML::Node& where) const {
    if (warnings_) warnings_->push_back(source_ + ": " + element + ": " + problem + line_of(where));
  }

  // ---- structure --------------------------------------------------------------
  // Checks that `node` is a mapping; warns about unknown keys, rejects repeated ones.
  void expect_map(const YAML::Node& node, const std::string& element, const std::vector<std::string>& known) const {
    if (!node.IsMap()) fail(element, "must be a mapping (key: value), got " + written(node), node);
    std::set<std::string> seen;
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) fail(element, "keys must be plain names", entry.first);
      const std::string& key = entry.first.Scalar();
      if (!seen.insert(key).second) fail(element, "key " + quoted(key) + " is given twice", entry.first);
      bool is_known = false;
      for (const std::string& k : known) is_known = is_known || k == key;
      if (!is_known)
        warn(element, "unknown key " + quoted(key) + " ignored (known keys: " + joined(known) + ")", entry.first);
    }
  }

  // "bodies[2] 'L2'" + "mass" → "bodies[2] 'L2' mass"; "... joint" + "axis" → "... joint.axis".
  static std::string child(const std::string& element, const std::string& key) {
    const char last = element.empty() ? ' ' : element.back();
    return element + (last == '\'' || last == ']' ? " " : ".") + key;
  }

  YAML::Node required(const YAML::Node& map, const std::string& key, const std::string& element) const {
    const YAML::Node value = map[key];
    if (!value.IsDefined()) fail(element, "missing required key " + quoted(key), map);
    if (value.IsNull()) fail(child(element, key), "is empty", value);
    return value;
  }

  // ---- scalars ----------------------------------------------------------------
  double number(const YAML::Node& node, const std::string& element) const {
    if (!node.IsScalar()) fail(element, "must be a number, got " + written(node), node);
    // A quoted scalar is a string in YAML, even when it looks like a number.
    if (node.Tag() == "!") fail(element, "must be a number, got the quoted string " + quoted(node.Scalar()), node);
    double value = 0.0;
    if (!YAML::convert<double>::decode(node, value))
      fail(element, "must be a number, got " + quoted(node.Scalar()), node);
    if (!std::isfinite(value)) fail(element, "must be a finite number, got " + quoted(node.Scalar()), node);
    return value;
  }

  std::string text(const YAML::Node& node, const std::string& element) const {
    if (!node.IsScalar()) fail(element, "must be a name, got " + written(node), node);
    if (node.Scalar().empty()) fail(element, "must not be empty", node);
    // Names end up in CSV headers, JSON keys' values and one-line messages: a newline, tab
    // or other control character would split a line or a column there. (Commas and quotes
    // are fine: the CSV writers quote per RFC 4180.)
    for (const char c : node.Scalar())
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        fail(element, "must not contain control characters (newline, tab, ...), got " + quoted(node.Scalar()), node);
    return node.Scalar();
  }

  bool boolean(const YAML::Node& node, const std::string& element) const {
    bool value = false;
    if (!node.IsScalar() || node.Tag() == "!" || !YAML::convert<bool>::decode(node, value))
      fail(element, "must be true or false, got " + written(node), node);
    return value;
  }

  Vec3 vec3(const YAML::Node& node, const std::string& element) const {
    if (!node.IsSequence()) fail(element, "must be a list of 3 numbers, got " + written(node), node);
    if (node.size() != 3)
      fail(element, "must be a list of 3 numbers, got " + std::to_string(node.size()), node);
    Vec3 v;
    for (int k = 0; k < 3; ++k) v(k) = number(node[k], element + "[" + std::to_string(k) + "]");
    return v;
  }

  // A direction: normalised (a unit one kept bit for bit); a zero vector is rejected.
  Vec3 axis(const YAML::Node& node, const std::string& element) const {
    const Vec3 v = vec3(node, element);
    const double norm = v.norm();
    if (norm < 1e-12) fail(element, "is a zero vector; an axis needs a direction", node);
    return unit_direction(v, norm);
  }

  // `axes: [[..],[..]]`: two non-parallel directions.
  std::pair<Vec3, Vec3> axis_pair(const YAML::Node& node, const std::string& element) const {
    if (!node.IsSequence() || node.size() != 2)
      fail(element, "must be a list of 2 axes ([[x,y,z],[x,y,z]]), got " +
                        (node.IsSequence() ? "a list of " + std::to_string(node.size()) : written(node)), node);
    const Vec3 first = axis(node[0], element + "[0]");
    const Vec3 second = axis(node[1], element + "[1]");
    if (first.cross(second).norm() < 1e-9) fail(element, "the two axes are parallel", node);
    return {first, second};
  }

  // ---- elements -----------------------------------------------------------------
  void read_body(const YAML::Node& node, int index, Model& model);
  void read_joint(const YAML::Node& node, const std::string& element, Joint& joint);
  JointFriction read_friction(const YAML::Node& node, const std::string& element, JointType type);
  JointLimits read_limits(const YAML::Node& node, const std::string& element);
  Mat3 read_inertia(const YAML::Node& node, const std::string& element);
  Loop read_loop(const YAML::Node& node, int index, const Model& model, const std::set<std::string>& names);
  BodyPoint read_point(const YAML::Node& node, const std::string& element, const Model& model, bool ground_allowed,
                       bool only_body_and_point);
  Marker read_marker(const YAML::Node& node, int index, const Model& model);
  void read_initial_configuration(const YAML::Node& node, Model& model);
  ForceElement read_force(const YAML::Node& node, int index, const Model& model);
  Coupling read_coupling(const YAML::Node& node, int index, const Model& model);
  int read_joint_reference(const YAML::Node& node, const std::string& element, const Model& model) const;
  void check_element_names(const YAML::Node& root, const Model& model) const;
  // A format-3 block or key in a version-1 or 2 file is refused (force-elements.md).
  void require_version3(const std::string& element, const YAML::Node& where) const {
    if (version_ < 3)
      fail(element, "is a format 3 key (force elements, couplings, armature); this file says mechdyn: " +
                        std::to_string(version_) + " (write mechdyn: 3)", where);
  }
  double nonnegative_number(const YAML::Node& node, const std::string& element) const {
    const double x = number(node, element);
    if (x < 0.0) fail(element, "must not be negative, got " + quoted(node.Scalar()), node);
    return x;
  }
  std::string expression(const YAML::Node& node, const std::string& element) const;

  std::string source_;
  std::vector<std::string>* warnings_;
  std::map<std::string, int> body_position_;  // every body name in the file → its index
  int version_ = 1;                           // the file's format version (1, or 2: flexible bodies)
};

// Element names: "bodies[2] 'L2'", then " mass", " joint.axis", " joint.friction.static".
std::string indexed(const char* list, int index, const std::string& name) {
  std::string out = std::string(list) + "[" + std::to_string(index) + "]";
  if (!name.empty()) out += " " + quoted(name);
  return out;
}

Model Reader::read(const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull()) fail("document", "is empty; expected the keys mechdyn, name and bodies");
  expect_map(root, "document", {"mechdyn", "name", "gravity", "bodies", "loops", "markers", "initial_configuration",
                                "forces", "couplings"});

  Model model;
  const YAML::Node version = root["mechdyn"];
  if (!version.IsDefined()) fail("mechdyn", "missing required key 'mechdyn' (the format version, 1)", root);
  int version_number = 0;
  if (!version.IsScalar() || version.Tag() == "!" || !YAML::convert<int>::decode(version, version_number))
    fail("mechdyn", "the format version must be the integer 1, 2 or 3, got " + written(version), version);
  if (version_number < 1 || version_number > 3)
    fail("mechdyn", "unsupported format version " + std::to_string(version_number) +
                        " (this reader reads versions 1, 2 and 3)", version);
  version_ = version_number;

  if (!root["name"].IsDefined()) fail("name", "missing required key 'name'", root);
  model.name = text(root["name"], "name");
  if (root["gravity"].IsDefined()) model.gravity = vec3(root["gravity"], "gravity");

  const YAML::Node bodies = root["bodies"];
  if (!bodies.IsDefined()) fail("bodies", "missing required key 'bodies'", root);
  if (!bodies.IsSequence() || bodies.size() == 0)
    fail("bodies", "must be a non-empty list of bodies, got " +
                       (bodies.IsSequence() ? std::string("an empty list") : written(bodies)), bodies);

  // First pass: every body's name and position, so that a parent defined later, or
  // a duplicate name, gets its own message.
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const YAML::Node body = bodies[i];
    const std::string element = indexed("bodies", static_cast<int>(i), "");
    if (!body.IsMap()) fail(element, "must be a mapping with name, parent, joint, mass, ...; got " + written(body), body);
    if (!body["name"].IsDefined()) fail(element, "missing required key 'name'", body);
    const std::string name = text(body["name"], element + " name");
    if (name == "ground") fail(element + " name", "'ground' is reserved for the fixed base", body["name"]);
    const auto found = body_position_.find(name);
    if (found != body_position_.end())
      fail(indexed("bodies", static_cast<int>(i), name) + " name",
           "duplicate body name (also bodies[" + std::to_string(found->second) + "])", body["name"]);
    body_position_[name] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) read_body(bodies[i], static_cast<int>(i), model);

  // Joint names: unique among the joints (the default is the body's name).
  std::map<std::string, int> joint_position;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const auto found = joint_position.find(model.joints[i].name);
    if (found != joint_position.end())
      fail(indexed("bodies", i, model.bodies[i].name) + " joint.name",
           "duplicate joint name " + quoted(model.joints[i].name) + " (also the joint of bodies[" +
               std::to_string(found->second) + "] " + quoted(model.bodies[found->second].name) + ")",
           bodies[i]["joint"]);
    joint_position[model.joints[i].name] = i;
  }

  // A massless body is allowed only where it carries a child (composite joints).
  std::vector<bool> has_child(model.num_bodies(), false);
  for (const Body& b : model.bodies)
    if (b.parent != kGround) has_child[b.parent] = true;
  for (int i = 0; i < model.num_bodies(); ++i) {
    if (model.bodies[i].mass == 0.0 && !has_child[i] && !model.bodies[i].flexible)
      fail(indexed("bodies", i, model.bodies[i].name) + " mass",
           "must be positive: a massless body is allowed only where it carries a child", bodies[i]["mass"]);
  }

  const YAML::Node loops = root["loops"];
  if (loops.IsDefined() && !loops.IsNull()) {
    if (!loops.IsSequence()) fail("loops", "must be a list of cut joints, got " + written(loops), loops);
    std::set<std::string> names;
    for (const Joint& j : model.joints) names.insert(j.name);
    for (std::size_t i = 0; i < loops.size(); ++i) {
      model.loops.push_back(read_loop(loops[i], static_cast<int>(i), model, names));
      names.insert(model.loops.back().name);
    }
  }

  const YAML::Node markers = root["markers"];
  if (markers.IsDefined() && !markers.IsNull()) {
    if (!markers.IsSequence()) fail("markers", "must be a list of {name, body, point}, got " + written(markers), markers);
    std::set<std::string> names;
    for (std::size_t i = 0; i < markers.size(); ++i) {
      Marker marker = read_marker(markers[i], static_cast<int>(i), model);
      if (!names.insert(marker.name).second)
        fail(indexed("markers", static_cast<int>(i), marker.name) + " name", "duplicate marker name", markers[i]);
      model.markers.push_back(std::move(marker));
    }
  }

  // Format 3 (force-elements.md): force elements and couplings, after every body and loop name.
  for (const char* block : {"forces", "couplings"}) {
    const YAML::Node list = root[block];
    if (!list.IsDefined() || list.IsNull()) continue;
    require_version3(block, list);
    if (!list.IsSequence()) fail(block, "must be a list, got " + written(list), list);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (std::string(block) == "forces") model.forces.push_back(read_force(list[i], static_cast<int>(i), model));
      else model.couplings.push_back(read_coupling(list[i], static_cast<int>(i), model));
    }
  }
  check_element_names(root, model);

  io::check_flexible_points(root, model, source_);  // flexible_block.cpp
  finalize_model(model, source_);
  if (root["initial_configuration"].IsDefined() && !root["initial_configuration"].IsNull())
    read_initial_configuration(root["initial_configuration"], model);
  return model;
}

// `initial_configuration: [q...]` (docs/model-file.md): nq finite numbers in the order of
// the coordinates; each quaternion of a spherical or free joint of norm 1 within 1e-6
// (then renormalised exactly), as the command line requires of --q0.
void Reader::read_initial_configuration(const YAML::Node& node, Model& model) {
  const std::string element = "initial_configuration";
  if (!node.IsSequence()) fail(element, "must be a list of nq = " + std::to_string(model.nq) + " numbers, got " + written(node), node);
  if (static_cast<int>(node.size()) != model.nq)
    fail(element, "has " + std::to_string(node.size()) + " numbers, the model has nq = " + std::to_string(model.nq) +
                      " coordinates", node);
  VecX q(model.nq);
  for (int i = 0; i < model.nq; ++i) q[i] = number(node[i], element + "[" + std::to_string(i) + "]");
  for (const Joint& joint : model.joints) {
    const int offset = joint_quaternion_offset(joint);  // the kind's (model/joint.hpp)
    if (offset < 0) continue;
    const int first = joint.q_index + offset;
    const double norm = q.segment<4>(first).norm();
    if (!(std::abs(norm - 1.0) <= 1e-6))
      fail(element + "[" + std::to_string(first) + ".." + std::to_string(first + 3) + "]",
           "the quaternion of joint " + quoted(joint.name) + " has norm " + std::to_string(norm) +
               "; it must be 1 within 1e-6", node);
    q.segment<4>(first) /= norm;
  }
  model.initial_configuration = q;
}

void Reader::read_body(const YAML::Node& node, int index, Model& model) {
  Body body;
  body.name = node["name"].Scalar();  // checked by the first pass
  const std::string element = indexed("bodies", index, body.name);
  expect_map(node, element, {"name", "parent", "joint", "mass", "com", "inertia", "flexible"});

  const std::string parent = text(required(node, "parent", element), element + " parent");
  if (parent == "ground") {
    body.parent = kGround;
  } else {
    const auto found = body_position_.find(parent);
    if (found == body_position_.end())
      fail(element + " parent", "unknown body " + quoted(parent) + " (a parent is ground or a body listed above)",
           node["parent"]);
    if (found->second == index) fail(element + " parent", "a body cannot be its own parent", node["parent"]);
    if (found->second > index)
      fail(element + " parent", "body " + quoted(parent) + " is defined later (bodies[" +
                                    std::to_string(found->second) + "]); a body must come after its parent",
           node["parent"]);
    body.parent = found->second;
  }

  Joint joint;
  read_joint(required(node, "joint", element), element + " joint", joint);
  if (joint.name.empty()) joint.name = body.name;

  // A flexible body's mass, com, inertia (optional) are a rigid part welded to its frame.
  if (node["flexible"].IsDefined())
    body.flexible = io::read_flexible_block(node["flexible"], element + " flexible", version_, source_, warnings_);
  if (!node["mass"].IsDefined() && !body.flexible) fail(element, "missing required key 'mass'", node);
  if (node["mass"].IsDefined()) body.mass = number(node["mass"], element + " mass");
  if (body.mass < 0.0) fail(element + " mass", "must be positive, got " + quoted(node["mass"].Scalar()), node["mass"]);

  if (node["com"].IsDefined()) body.com = vec3(node["com"], element + " com");
  if (node["inertia"].IsDefined()) {
    body.inertia = read_inertia(node["inertia"], element + " inertia");
  } else if (body.mass > 0.0) {
    fail(element, "missing required key 'inertia' (only a massless body may omit it)", node);
  }

  model.bodies.push_back(std::move(body));
  model.joints.push_back(std::move(joint));
}

Mat3 Reader::read_inertia(const YAML::Node& node, const std::string& element) {
  expect_map(node, element, {"diag", "matrix", "ixx", "iyy", "izz", "ixy", "ixz", "iyz"});
  const bool has_diag = node["diag"].IsDefined();
  const bool has_matrix = node["matrix"].IsDefined();
  const bool has_entries = node["ixx"].IsDefined() || node["iyy"].IsDefined() || node["izz"].IsDefined() ||
                           node["ixy"].IsDefined() || node["ixz"].IsDefined() || node["iyz"].IsDefined();
  if (int(has_diag) + int(has_matrix) + int(has_entries) != 1)
    fail(element, "give exactly one of {diag: [ixx, iyy, izz]}, {ixx, iyy, izz, ixy, ixz, iyz} or {matrix: [[...],[...],[...]]}",
         node);
  Mat3 inertia = Mat3::Zero();
  if (has_diag) {
    inertia.diagonal() = vec3(node["diag"], element + ".diag");
  } else if (has_matrix) {
    const YAML::Node rows = node["matrix"];
    if (!rows.IsSequence() || rows.size() != 3)
      fail(element + ".matrix", "must be a list of 3 rows of 3 numbers", rows);
    for (int r = 0; r < 3; ++r)
      inertia.row(r) = vec3(rows[r], element + ".matrix[" + std::to_string(r) + "]").transpose();
  } else {
    // ixy, ixz, iyz are tensor ENTRIES (ixy = −∫ x y dm, as in URDF and MJCF); missing
    // off-diagonal entries are 0, the diagonal ones are required.
    const char* diagonal[3] = {"ixx", "iyy", "izz"};
    for (int k = 0; k < 3; ++k) {
      if (!node[diagonal[k]].IsDefined()) fail(element, std::string("missing required key '") + diagonal[k] + "'", node);
      inertia(k, k) = number(node[diagonal[k]], element + "." + diagonal[k]);
    }
    const struct { const char* key; int row, col; } off[3] = {{"ixy", 0, 1}, {"ixz", 0, 2}, {"iyz", 1, 2}};
    for (const auto& o : off) {
      if (!node[o.key].IsDefined()) continue;
      inertia(o.row, o.col) = inertia(o.col, o.row) = number(node[o.key], element + "." + o.key);
    }
  }
  try {
    check_inertia(inertia, source_, element);
  } catch (const ModelError& e) {
    throw ModelError(e.what() + line_of(node));
  }
  return inertia;
}

void Reader::read_joint(const YAML::Node& node, const std::string& element, Joint& joint) {
  expect_map(node, element, {"name", "type", "axis", "axes", "origin", "actuated", "friction", "limits", "armature"});
  if (node["name"].IsDefined()) joint.name = text(node["name"], element + ".name");

  const std::string type_name = text(required(node, "type", element), element + ".type");
  const std::optional<JointType> type = joint_type_from_name(type_name);
  if (!type)
    fail(element + ".type", "unknown joint type " + quoted(type_name) +
                                " (expected " + joint_type_names() + ")",
         node["type"]);
  joint.type = *type;

  const bool wants_axis = joint_axis_count(joint.type) == 1;
  const bool wants_axes = joint_axis_count(joint.type) == 2;
  if (wants_axis) {
    if (node["axes"].IsDefined())
      fail(element + ".axes", "a " + type_name + " joint has one axis: write axis: [x, y, z], not axes", node["axes"]);
    if (!node["axis"].IsDefined()) fail(element, "missing required key 'axis' for a " + type_name + " joint", node);
    joint.axis = axis(node["axis"], element + ".axis");
  } else if (wants_axes) {
    if (node["axis"].IsDefined())
      fail(element + ".axis", "a " + type_name + " joint has two axes: write axes: [[x, y, z], [x, y, z]], not axis",
           node["axis"]);
    if (!node["axes"].IsDefined()) fail(element, "missing required key 'axes' for a " + type_name + " joint", node);
    std::tie(joint.axis, joint.second_axis) = axis_pair(node["axes"], element + ".axes");
  } else {
    for (const char* key : {"axis", "axes"})
      if (node[key].IsDefined())
        fail(element + "." + key, "a " + type_name + " joint takes no " + key, node[key]);
  }

  if (node["origin"].IsDefined()) joint.origin = vec3(node["origin"], element + ".origin");
  if (node["actuated"].IsDefined()) joint.actuated = boolean(node["actuated"], element + ".actuated");
  if (node["friction"].IsDefined()) joint.friction = read_friction(node["friction"], element + ".friction", joint.type);
  if (node["armature"].IsDefined()) {  // format 3 (force-elements.md "armature")
    require_version3(element + ".armature", node["armature"]);
    joint.armature = nonnegative_number(node["armature"], element + ".armature");
    if (joint_nv(joint.type) != 1)
      fail(element + ".armature", "armature needs a joint of exactly one coordinate; a " + type_name + " joint has " +
                                      std::to_string(joint_nv(joint.type)), node["armature"]);
  }
  if (node["limits"].IsDefined()) {
    if (!joint_format(joint.type).limits)  // the kind says which keys it takes (model/joint.hpp)
      fail(element + ".limits", "limits are defined only for revolute and prismatic joints", node["limits"]);
    joint.limits = read_limits(node["limits"], element + ".limits");
  }
}

JointFriction Reader::read_friction(const YAML::Node& node, const std::string& element, JointType type) {
  expect_map(node, element, {"model", "coulomb", "static", "viscous", "stribeck_velocity", "load",
                             "bristle_stiffness", "bristle_damping"});
  if (!joint_format(type).friction)
    fail(element, "friction is defined only for revolute and prismatic joints", node);
  JointFriction friction;
  const std::string model_name = text(required(node, "model", element), element + ".model");
  if (model_name == "coulomb_viscous") friction.model = FrictionModel::CoulombViscous;
  else if (model_name == "stribeck") friction.model = FrictionModel::Stribeck;
  else if (model_name == "lugre") friction.model = FrictionModel::LuGre;
  else if (model_name == "brown_mcphee") friction.model = FrictionModel::BrownMcPhee;
  else
    fail(element + ".model", "unknown friction model " + quoted(model_name) +
                                 " (expected coulomb_viscous, stribeck, lugre or brown_mcphee)", node["model"]);

  auto nonnegative = [&](const char* key, bool needed, double& out) {
    if (!node[key].IsDefined()) {
      if (needed) fail(element, std::string("missing required key '") + key + "' for the " + model_name + " model", node);
      return;
    }
    out = number(node[key], element + "." + key);
    if (out < 0.0) fail(element + "." + key, "must not be negative, got " + quoted(node[key].Scalar()), node[key]);
  };
  auto unused = [&](const char* key) {
    if (node[key].IsDefined())
      warn(element + "." + key, "is not used by the " + model_name + " model; ignored", node[key]);
  };

  const bool has_static = friction.model != FrictionModel::CoulombViscous;
  const bool lugre = friction.model == FrictionModel::LuGre;
  nonnegative("coulomb", true, friction.coulomb);
  nonnegative("viscous", false, friction.viscous);
  if (has_static) {
    nonnegative("static", true, friction.static_coefficient);
    if (friction.static_coefficient < friction.coulomb)
      fail(element + ".static", "static (k_s = " + node["static"].Scalar() + ") must not be below coulomb (k_c = " +
                                    node["coulomb"].Scalar() + ") for the " + model_name + " model", node["static"]);
    if (!node["stribeck_velocity"].IsDefined())
      fail(element, "missing required key 'stribeck_velocity' for the " + model_name + " model", node);
    friction.stribeck_velocity = number(node["stribeck_velocity"], element + ".stribeck_velocity");
    if (friction.stribeck_velocity <= 0.0)
      fail(element + ".stribeck_velocity", "must be positive, got " + quoted(node["stribeck_velocity"].Scalar()),
           node["stribeck_velocity"]);
  } else {
    unused("static");
    unused("stribeck_velocity");
  }
  if (lugre) {
    if (!node["bristle_stiffness"].IsDefined())
      fail(element, "missing required key 'bristle_stiffness' (sigma_0) for the lugre model", node);
    friction.bristle_stiffness = number(node["bristle_stiffness"], element + ".bristle_stiffness");
    if (friction.bristle_stiffness <= 0.0)
      fail(element + ".bristle_stiffness", "must be positive, got " + quoted(node["bristle_stiffness"].Scalar()),
           node["bristle_stiffness"]);
    nonnegative("bristle_damping", true, friction.bristle_damping);
  } else {
    unused("bristle_stiffness");
    unused("bristle_damping");
  }

  if (node["load"].IsDefined()) {
    const YAML::Node load = node["load"];
    const std::string lelement = element + ".load";
    expect_map(load, lelement, {"pin_radius", "bending_arm", "friction_arm"});
    FrictionLoad arms;
    auto positive = [&](const char* key, bool needed, double& out) {
      if (!load[key].IsDefined()) {
        if (needed) fail(lelement, std::string("missing required key '") + key + "'", load);
        return;
      }
      out = number(load[key], lelement + "." + key);
      if (out <= 0.0) fail(lelement + "." + key, "must be positive, got " + quoted(load[key].Scalar()), load[key]);
    };
    // A prismatic joint's normal load does not use the pin radius.
    positive("pin_radius", type == JointType::Revolute, arms.pin_radius);
    positive("bending_arm", true, arms.bending_arm);
    positive("friction_arm", true, arms.friction_arm);
    friction.load = arms;
  }
  return friction;
}

JointLimits Reader::read_limits(const YAML::Node& node, const std::string& element) {
  expect_map(node, element, {"lower", "upper", "effort", "velocity"});
  JointLimits limits;
  if (node["lower"].IsDefined()) limits.lower = number(node["lower"], element + ".lower");
  if (node["upper"].IsDefined()) limits.upper = number(node["upper"], element + ".upper");
  if (limits.lower > limits.upper)
    fail(element, "lower (" + node["lower"].Scalar() + ") is above upper (" + node["upper"].Scalar() + ")", node);
  for (const char* key : {"effort", "velocity"}) {
    if (!node[key].IsDefined()) continue;
    const double value = number(node[key], element + "." + key);
    if (value <= 0.0) fail(element + "." + key, "must be positive, got " + quoted(node[key].Scalar()), node[key]);
    (std::string(key) == "effort" ? limits.effort : limits.velocity) = value;
  }
  return limits;
}

BodyPoint Reader::read_point(const YAML::Node& node, const std::string& element, const Model& model,
                             bool ground_allowed, bool only_body_and_point) {
  if (only_body_and_point) expect_map(node, element, {"body", "point"});
  BodyPoint at;
  const std::string body = text(required(node, "body", element), child(element, "body"));
  if (body == "ground") {
    if (!ground_allowed) fail(child(element, "body"), "must be a body, not ground (put ground in b)", node["body"]);
    at.body = kGround;
  } else {
    const std::optional<int> index = model.body_index(body);
    if (!index) fail(child(element, "body"), "unknown body " + quoted(body), node["body"]);
    at.body = *index;
  }
  at.point = vec3(required(node, "point", element), child(element, "point"));
  return at;
}

Loop Reader::read_loop(const YAML::Node& node, int index, const Model& model, const std::set<std::string>& names) {
  std::string element = indexed("loops", index, "");
  if (!node.IsMap()) fail(element, "must be a mapping with name, type, a, b, ...; got " + written(node), node);
  Loop loop;
  if (!node["name"].IsDefined()) fail(element, "missing required key 'name'", node);
  loop.name = text(node["name"], element + " name");
  element = indexed("loops", index, loop.name);
  expect_map(node, element, {"name", "type", "a", "b", "axis", "axes"});
  if (names.count(loop.name))
    fail(element + " name", "duplicate name: a joint or an earlier loop is already called " + quoted(loop.name),
         node["name"]);

  const std::string type_name = text(required(node, "type", element), element + " type");
  const std::optional<LoopType> type = loop_type_from_name(type_name);
  if (!type)
    fail(element + " type", "unknown loop type " + quoted(type_name) +
                                " (expected " + loop_type_names() + ")",
         node["type"]);
  loop.type = *type;
  loop.a = read_point(required(node, "a", element), element + " a", model, false, true);
  loop.b = read_point(required(node, "b", element), element + " b", model, true, true);
  if (loop.a.body == loop.b.body) fail(element, "a and b are on the same body", node);

  const CutAxisKeys keys = cut_joint_facts(loop.type).axis_keys;  // the kind says (model/cut_joint.hpp)
  if (keys == CutAxisKeys::Axes) {
    if (node["axis"].IsDefined())
      fail(element + " axis", "a " + type_name + " loop has two axes: write axes: [[x, y, z], [x, y, z]]",
           node["axis"]);
    if (!node["axes"].IsDefined()) fail(element, "missing required key 'axes' for a " + type_name + " loop", node);
    std::tie(loop.axis, loop.second_axis) = axis_pair(node["axes"], element + " axes");
  } else {
    if (node["axes"].IsDefined())
      fail(element + " axes", "only a universal loop takes axes", node["axes"]);
    if (keys == CutAxisKeys::Axis && !node["axis"].IsDefined())
      fail(element, "missing required key 'axis' for a " + type_name + " loop", node);
    if (keys == CutAxisKeys::None && node["axis"].IsDefined())
      fail(element + " axis", "a " + type_name + " loop takes no axis", node["axis"]);
    if (node["axis"].IsDefined()) loop.axis = axis(node["axis"], element + " axis");  // OptionalAxis: default z
  }
  return loop;
}

// ---- format 3: force elements and couplings (../shared/spec/force-elements.md) ----------

// An expression of t (muParser), or a plain number: parsed here so that a bad one is a
// model error naming the element (math/time_expressions.hpp).
std::string Reader::expression(const YAML::Node& node, const std::string& element) const {
  if (!node.IsScalar() || node.Scalar().empty())
    fail(element, "must be an expression of t (e.g. \"0.5*sin(2*t)\") or a number, got " + written(node), node);
  const std::string text = node.Scalar();
  try {
    TimeExpressions parsed({text}, element);
    VecX value(1);
    parsed.evaluate(0.0, value);  // checks the variables; a non-finite value at t = 0 is a run-time error
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    if (what.find("not finite") == std::string::npos)
      fail(element, "the expression " + quoted(text) + " does not parse: " + printable(what), node);
  }
  return text;
}

int Reader::read_joint_reference(const YAML::Node& node, const std::string& element, const Model& model) const {
  const std::string name = text(node, element);
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == name) {
      const Joint& joint = model.joints[j];
      if (joint_nv(joint.type) != 1)
        fail(element, "joint " + quoted(name) + " is a " + joint_type_name(joint.type) + " joint with " +
                          std::to_string(joint_nv(joint.type)) + " coordinates; it needs exactly one", node);
      return static_cast<int>(j);
    }
  fail(element, "unknown joint " + quoted(name), node);
}

ForceElement Reader::read_force(const YAML::Node& node, int index, const Model& model) {
  std::string element = indexed("forces", index, "");
  if (!node.IsMap()) fail(element, "must be a mapping with name, type, ...; got " + written(node), node);
  ForceElement e;
  if (!node["name"].IsDefined()) fail(element, "missing required key 'name'", node);
  e.name = text(node["name"], element + " name");
  element = indexed("forces", index, e.name);
  const std::string type_name = text(required(node, "type", element), element + " type");
  const std::optional<ForceElementType> type = force_element_type_from_name(type_name);
  if (!type)
    fail(element + " type", "unknown force element type " + quoted(type_name) + " (expected " +
                                force_element_type_names() + ")", node["type"]);
  e.type = *type;
  auto nonneg = [&](const char* key, bool needed, double& out) {
    if (!node[key].IsDefined()) {
      if (needed) fail(element, std::string("missing required key '") + key + "' for a " + type_name, node);
      return;
    }
    out = nonnegative_number(node[key], element + " " + key);
  };
  auto six = [&](const char* key, bool needed, Vec6& out) {
    const YAML::Node list = node[key];
    if (!list.IsDefined()) {
      if (needed) fail(element, std::string("missing required key '") + key + "' for a bushing", node);
      return;
    }
    const std::string el = element + " " + key;
    if (!list.IsSequence() || list.size() != 6)
      fail(el, "must be a list of 6 numbers (3 translational along, 3 rotational about a's frame axes), got " +
                   (list.IsSequence() ? "a list of " + std::to_string(list.size()) : written(list)), list);
    for (int k = 0; k < 6; ++k) out(k) = nonnegative_number(list[k], el + "[" + std::to_string(k) + "]");
  };
  switch (e.type) {
    case ForceElementType::SpringDamper:
      expect_map(node, element, {"name", "type", "a", "b", "stiffness", "free_length", "damping", "preload"});
      e.a = read_point(required(node, "a", element), element + " a", model, true, true);
      e.b = read_point(required(node, "b", element), element + " b", model, true, true);
      nonneg("stiffness", true, e.stiffness);
      nonneg("free_length", true, e.free_length);
      nonneg("damping", false, e.damping);
      if (node["preload"].IsDefined()) e.preload = number(node["preload"], element + " preload");
      if (e.a.body == e.b.body) fail(element, "a and b are on the same body", node);
      break;
    case ForceElementType::Bushing:
      expect_map(node, element, {"name", "type", "a", "b", "stiffness", "damping"});
      e.a = read_point(required(node, "a", element), element + " a", model, true, true);
      e.b = read_point(required(node, "b", element), element + " b", model, true, true);
      six("stiffness", true, e.stiffness6);
      six("damping", false, e.damping6);
      if (e.a.body == e.b.body) fail(element, "a and b are on the same body", node);
      break;
    case ForceElementType::JointSpringDamper:
      expect_map(node, element, {"name", "type", "joint", "stiffness", "damping", "rest"});
      e.joint = read_joint_reference(required(node, "joint", element), element + " joint", model);
      nonneg("stiffness", true, e.stiffness);
      nonneg("damping", false, e.damping);
      if (node["rest"].IsDefined()) e.rest = number(node["rest"], element + " rest");
      break;
    case ForceElementType::JointStop:
      expect_map(node, element, {"name", "type", "joint", "lower", "upper", "stiffness", "damping"});
      e.joint = read_joint_reference(required(node, "joint", element), element + " joint", model);
      if (node["lower"].IsDefined()) e.lower = number(node["lower"], element + " lower");
      if (node["upper"].IsDefined()) e.upper = number(node["upper"], element + " upper");
      if (!node["lower"].IsDefined() && !node["upper"].IsDefined())
        fail(element, "a joint-stop needs lower, upper or both", node);
      if (e.lower > e.upper)
        fail(element, "lower (" + node["lower"].Scalar() + ") is above upper (" + node["upper"].Scalar() + ")", node);
      nonneg("stiffness", true, e.stiffness);
      nonneg("damping", false, e.damping);
      break;
    case ForceElementType::JointServo:
      expect_map(node, element, {"name", "type", "joint", "target", "target_rate", "stiffness", "damping", "max_effort"});
      e.joint = read_joint_reference(required(node, "joint", element), element + " joint", model);
      e.target = expression(required(node, "target", element), element + " target");
      if (node["target_rate"].IsDefined()) e.target_rate = expression(node["target_rate"], element + " target_rate");
      nonneg("stiffness", true, e.stiffness);
      nonneg("damping", false, e.damping);
      if (node["max_effort"].IsDefined()) {
        e.max_effort = number(node["max_effort"], element + " max_effort");
        if (e.max_effort <= 0.0)
          fail(element + " max_effort", "must be positive, got " + quoted(node["max_effort"].Scalar()), node["max_effort"]);
      }
      break;
    case ForceElementType::Applied: {
      expect_map(node, element, {"name", "type", "body", "point", "force", "torque"});
      e.a = read_point(node, element, model, false, false);
      if (!node["force"].IsDefined() && !node["torque"].IsDefined())
        fail(element, "an applied load needs force, torque or both", node);
      for (const char* key : {"force", "torque"}) {
        const YAML::Node list = node[key];
        if (!list.IsDefined()) continue;
        const std::string el = element + " " + key;
        if (!list.IsSequence() || list.size() != 3)
          fail(el, "must be a list of 3 expressions of t (world components), got " +
                       (list.IsSequence() ? "a list of " + std::to_string(list.size()) : written(list)), list);
        auto& out = std::string(key) == "force" ? e.force : e.torque;
        for (int k = 0; k < 3; ++k) out[static_cast<std::size_t>(k)] = expression(list[k], el + "[" + std::to_string(k) + "]");
      }
      break;
    }
  }
  return e;
}

Coupling Reader::read_coupling(const YAML::Node& node, int index, const Model& model) {
  std::string element = indexed("couplings", index, "");
  if (!node.IsMap()) fail(element, "must be a mapping with name, type, a, b, ratio; got " + written(node), node);
  Coupling c;
  if (!node["name"].IsDefined()) fail(element, "missing required key 'name'", node);
  c.name = text(node["name"], element + " name");
  element = indexed("couplings", index, c.name);
  expect_map(node, element, {"name", "type", "a", "b", "ratio", "offset"});
  const std::string type_name = text(required(node, "type", element), element + " type");
  if (type_name != "gear") fail(element + " type", "unknown coupling type " + quoted(type_name) + " (expected gear)", node["type"]);
  c.a = read_joint_reference(required(node, "a", element), element + " a", model);
  c.b = read_joint_reference(required(node, "b", element), element + " b", model);
  if (c.a == c.b) fail(element, "couples joint " + quoted(model.joints[static_cast<std::size_t>(c.a)].name) + " with itself", node);
  c.ratio = number(required(node, "ratio", element), element + " ratio");
  if (c.ratio == 0.0) fail(element + " ratio", "must not be 0", node["ratio"]);
  if (node["offset"].IsDefined()) c.offset = number(node["offset"], element + " offset");
  return c;
}

// Force elements and couplings: names unique among them and different from every joint
// and loop name (force-elements.md).
void Reader::check_element_names(const YAML::Node& root, const Model& model) const {
  std::map<std::string, std::string> taken;  // name → what has it
  for (const Joint& j : model.joints) taken[j.name] = "a joint";
  for (const Loop& l : model.loops) taken[l.name] = "a loop";
  auto check = [&](const std::string& name, const char* list, std::size_t i, const char* what) {
    const auto found = taken.find(name);
    if (found != taken.end())
      fail(indexed(list, static_cast<int>(i), name) + " name", "duplicate name: " + found->second + " is already called " +
                                                                  quoted(name), root[list][i]);
    taken[name] = what;
  };
  for (std::size_t i = 0; i < model.forces.size(); ++i) check(model.forces[i].name, "forces", i, "a force element");
  for (std::size_t i = 0; i < model.couplings.size(); ++i) check(model.couplings[i].name, "couplings", i, "a coupling");
}

Marker Reader::read_marker(const YAML::Node& node, int index, const Model& model) {
  std::string element = indexed("markers", index, "");
  if (!node.IsMap()) fail(element, "must be a mapping {name, body, point}, got " + written(node), node);
  Marker marker;
  if (!node["name"].IsDefined()) fail(element, "missing required key 'name'", node);
  marker.name = text(node["name"], element + " name");
  element = indexed("markers", index, marker.name);
  expect_map(node, element, {"name", "body", "point"});
  marker.at = read_point(node, element, model, true, false);
  return marker;
}

}  // namespace

Model parse_model_string(const std::string& yaml_text, const std::string& source,
                         std::vector<std::string>* warnings) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    throw ModelError(source + ": line " + std::to_string(e.mark.line + 1) + ", column " +
                     std::to_string(e.mark.column + 1) + ": YAML syntax error: " + printable(e.msg));
  } catch (const YAML::Exception& e) {
    throw ModelError(source + ": document: cannot be read as YAML: " + printable(e.what()));
  }
  try {
    return Reader(source, warnings).read(root);
  } catch (const YAML::Exception& e) {
    // Not expected (every access is checked), but a yaml-cpp error must still
    // leave as a ModelError naming the file.
    throw ModelError(source + ": document: " + printable(e.what()));
  }
}

Model load_model_file(const std::string& path, std::vector<std::string>* warnings) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ModelError(path + ": file: cannot be opened for reading");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw ModelError(path + ": file: read error");
  // URDF, SDFormat and MJCF files load here too (io/robot_files.hpp), by extension or root element.
  const std::string content = text.str();
  const ModelFormat format = detect_model_format(path, content);
  if (format != ModelFormat::Yaml) return load_model_from_string(content, format, path, {}, warnings);
  return parse_model_string(content, path, warnings);
}

}  // namespace mechdyn
