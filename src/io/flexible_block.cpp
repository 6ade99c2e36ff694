// The `flexible` block of a model file (format version 2): reading, checking, defaults.
// Contract: ../shared/spec/flexible-bodies.md; the project's keys and defaults:
// docs/model-file.md "Flexible bodies". Called by src/io/model_file.cpp (one line per
// body with a `flexible` key, one line for the points check).
//
// The scalar helpers repeat, in small, those of model_file.cpp (which another change is
// editing); they produce the same message form "<source>: <element>: <problem> (line N)".
#include "flexible_block.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "mechdyn/errors.hpp"

namespace mechdyn::io {
namespace {

std::string line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return "";
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return "";
  return " (line " + std::to_string(mark.line + 1) + ")";
}

std::string quoted(const std::string& text) {
  std::string out;
  for (char c : text.size() > 60 ? text.substr(0, 60) + "..." : text)
    out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
  return "'" + out + "'";
}

std::string written(const YAML::Node& node) {
  if (node.IsScalar()) return quoted(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "nothing";
}

class BlockReader {
 public:
  BlockReader(const std::string& source, std::vector<std::string>* warnings) : source_(source), warnings_(warnings) {}

  [[noreturn]] void fail(const std::string& element, const std::string& problem,
                         const YAML::Node& where = YAML::Node()) const {
    throw ModelError(source_ + ": " + element + ": " + problem + line_of(where));
  }

  void expect_map(const YAML::Node& node, const std::string& element, const std::vector<std::string>& known) const {
    if (!node.IsMap()) fail(element, "must be a mapping (key: value), got " + written(node), node);
    std::set<std::string> seen;
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) fail(element, "keys must be plain names", entry.first);
      const std::string& key = entry.first.Scalar();
      if (!seen.insert(key).second) fail(element, "key " + quoted(key) + " is given twice", entry.first);
      bool is_known = false;
      for (const std::string& k : known) is_known = is_known || k == key;
      if (!is_known && warnings_) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        warnings_->push_back(source_ + ": " + element + ": unknown key " + quoted(key) + " ignored (known keys: " +
                             list + ")" + line_of(entry.first));
      }
    }
  }

  YAML::Node required(const YAML::Node& map, const std::string& key, const std::string& element) const {
    const YAML::Node value = map[key];
    if (!value.IsDefined()) fail(element, "missing required key " + quoted(key), map);
    if (value.IsNull()) fail(element + "." + key, "is empty", value);
    return value;
  }

  double number(const YAML::Node& node, const std::string& element) const {
    if (!node.IsScalar()) fail(element, "must be a number, got " + written(node), node);
    if (node.Tag() == "!") fail(element, "must be a number, got the quoted string " + quoted(node.Scalar()), node);
    double value = 0.0;
    if (!YAML::convert<double>::decode(node, value)) fail(element, "must be a number, got " + quoted(node.Scalar()), node);
    if (!std::isfinite(value)) fail(element, "must be a finite number, got " + quoted(node.Scalar()), node);
    return value;
  }

  double positive(const YAML::Node& map, const std::string& key, const std::string& element) const {
    const YAML::Node node = required(map, key, element);
    const double value = number(node, element + "." + key);
    if (value <= 0.0) fail(element + "." + key, "must be positive, got " + quoted(node.Scalar()), node);
    return value;
  }

  int whole(const YAML::Node& node, const std::string& element) const {
    int value = 0;
    if (!node.IsScalar() || node.Tag() == "!" || !YAML::convert<int>::decode(node, value))
      fail(element, "must be a whole number, got " + written(node), node);
    return value;
  }

  Vec3 direction(const YAML::Node& node, const std::string& element) const {
    if (!node.IsSequence() || node.size() != 3)
      fail(element, "must be a list of 3 numbers, got " +
                        (node.IsSequence() ? std::to_string(node.size()) + " numbers" : written(node)), node);
    Vec3 v;
    for (int k = 0; k < 3; ++k) v(k) = number(node[k], element + "[" + std::to_string(k) + "]");
    if (v.norm() < 1e-12) fail(element, "is a zero vector; it needs a direction", node);
    return v.normalized();
  }

 private:
  const std::string& source_;
  std::vector<std::string>* warnings_;
};

BeamSection read_section(const BlockReader& r, const YAML::Node& node, const std::string& element) {
  r.expect_map(node, element, {"area", "iy", "iz", "torsion", "circle"});
  if (node["circle"].IsDefined()) {
    for (const char* key : {"area", "iy", "iz", "torsion"})
      if (node[key].IsDefined())
        r.fail(element, std::string("give either {circle: r} or the values area, iy, iz, torsion, not both (") + key +
                            " with circle)", node[key]);
    return circle_section(r.positive(node, "circle", element));
  }
  BeamSection s;
  s.area = r.positive(node, "area", element);
  s.iy = r.positive(node, "iy", element);
  s.iz = r.positive(node, "iz", element);
  s.torsion = r.positive(node, "torsion", element);
  return s;
}

BeamMaterial read_material(const BlockReader& r, const YAML::Node& node, const std::string& element) {
  r.expect_map(node, element, {"youngs_modulus", "density", "shear_modulus", "poisson_ratio"});
  BeamMaterial m;
  m.youngs_modulus = r.positive(node, "youngs_modulus", element);
  m.density = r.positive(node, "density", element);
  const bool shear = node["shear_modulus"].IsDefined(), poisson = node["poisson_ratio"].IsDefined();
  if (shear && poisson)
    r.fail(element, "give shear_modulus or poisson_ratio, not both (G = E / (2 (1 + nu)) would be fixed twice)",
           node["poisson_ratio"]);
  if (!shear && !poisson) r.fail(element, "missing required key 'shear_modulus' (or 'poisson_ratio')", node);
  if (shear) {
    m.shear_modulus = r.positive(node, "shear_modulus", element);
  } else {
    const double nu = r.number(node["poisson_ratio"], element + ".poisson_ratio");
    if (!(nu > -1.0 && nu <= 0.5))
      r.fail(element + ".poisson_ratio", "must lie in (-1, 0.5] for an isotropic material, got " +
                                             quoted(node["poisson_ratio"].Scalar()), node["poisson_ratio"]);
    m.shear_modulus = m.youngs_modulus / (2.0 * (1.0 + nu));
  }
  return m;
}

}  // namespace

FlexibleBeam read_flexible_block(const YAML::Node& node, const std::string& element, int version,
                                 const std::string& source, std::vector<std::string>* warnings) {
  const BlockReader r(source, warnings);
  if (version < 2)
    r.fail(element, "a flexible body needs format version 2 (write 'mechdyn: 2'); a version-" +
                        std::to_string(version) + " file must not describe beams (they would be read as rigid)",
           node);
  r.expect_map(node, element, {"type", "direction", "section_y", "length", "elements", "section", "material",
                               "geometric_stiffening", "damping", "modes"});
  FlexibleBeam beam;
  if (node["type"].IsDefined()) {
    const YAML::Node type = node["type"];
    if (!type.IsScalar() || type.Scalar() != "beam")
      r.fail(element + ".type", "unknown flexible body type " + written(type) + " (expected beam)", type);
  }
  beam.direction = r.direction(r.required(node, "direction", element), element + ".direction");
  const Vec3 y = r.direction(r.required(node, "section_y", element), element + ".section_y");
  const double cosine = beam.direction.dot(y);
  if (std::abs(cosine) > 1e-6) {
    std::ostringstream text;
    text << "is not perpendicular to direction (the cosine of their angle is " << cosine << ")";
    r.fail(element + ".section_y", text.str(), node["section_y"]);
  }
  beam.section_y = (y - cosine * beam.direction).normalized();  // exact perpendicular (|cos| ≤ 1e-6 accepted)
  beam.length = r.positive(node, "length", element);

  const YAML::Node elements = r.required(node, "elements", element);
  beam.elements = r.whole(elements, element + ".elements");
  if (beam.elements < 1)
    r.fail(element + ".elements", "must be at least 1, got " + quoted(elements.Scalar()), elements);

  beam.section = read_section(r, r.required(node, "section", element), element + ".section");
  beam.material = read_material(r, r.required(node, "material", element), element + ".material");

  if (node["geometric_stiffening"].IsDefined()) {
    const YAML::Node flag = node["geometric_stiffening"];
    bool value = true;
    if (!flag.IsScalar() || flag.Tag() == "!" || !YAML::convert<bool>::decode(flag, value))
      r.fail(element + ".geometric_stiffening", "must be true or false, got " + written(flag), flag);
    beam.geometric_stiffening = value;
  }
  if (node["damping"].IsDefined()) {
    const YAML::Node damping = node["damping"];
    const std::string delement = element + ".damping";
    r.expect_map(damping, delement, {"mass", "stiffness"});
    for (const auto& [key, target] : {std::pair<const char*, double*>{"mass", &beam.damping_mass},
                                      std::pair<const char*, double*>{"stiffness", &beam.damping_stiffness}}) {
      if (!damping[key].IsDefined()) continue;
      *target = r.number(damping[key], delement + "." + key);
      if (*target < 0.0)
        r.fail(delement + "." + key, "must not be negative, got " + quoted(damping[key].Scalar()), damping[key]);
    }
  }
  if (node["modes"].IsDefined()) {
    const YAML::Node modes = node["modes"];
    beam.modes = r.whole(modes, element + ".modes");
    if (beam.modes < 1 || beam.modes > 6 * beam.elements)
      r.fail(element + ".modes", "must be between 1 and 6 x elements = " + std::to_string(6 * beam.elements) +
                                     ", got " + quoted(modes.Scalar()), modes);
  }
  return beam;
}

void check_flexible_points(const YAML::Node& root, const Model& model, const std::string& source) {
  const BlockReader r(source, nullptr);
  const auto check = [&](int body, const Vec3& point, const std::string& element, const YAML::Node& where) {
    if (body == kGround) return;
    const Body& b = model.bodies[static_cast<std::size_t>(body)];
    if (!b.flexible) return;
    if (const std::optional<std::string> problem = beam_point_problem(*b.flexible, point))
      r.fail(element, "on flexible body '" + b.name + "' " + *problem, where);
  };
  const YAML::Node bodies = root["bodies"];
  for (int i = 0; i < model.num_bodies(); ++i) {
    const YAML::Node joint = bodies[static_cast<std::size_t>(i)]["joint"];
    check(model.bodies[static_cast<std::size_t>(i)].parent, model.joints[static_cast<std::size_t>(i)].origin,
          "bodies[" + std::to_string(i) + "] '" + model.bodies[static_cast<std::size_t>(i)].name + "' joint.origin",
          joint["origin"].IsDefined() ? joint["origin"] : joint);
  }
  const YAML::Node loops = root["loops"];
  for (std::size_t i = 0; i < model.loops.size(); ++i) {
    const Loop& loop = model.loops[i];
    const std::string element = "loops[" + std::to_string(i) + "] '" + loop.name + "'";
    check(loop.a.body, loop.a.point, element + " a.point", loops[i]["a"]["point"]);
    check(loop.b.body, loop.b.point, element + " b.point", loops[i]["b"]["point"]);
  }
  const YAML::Node markers = root["markers"];
  for (std::size_t i = 0; i < model.markers.size(); ++i) {
    const Marker& marker = model.markers[i];
    check(marker.at.body, marker.at.point, "markers[" + std::to_string(i) + "] '" + marker.name + "' point",
          markers[i]["point"]);
  }
}

}  // namespace mechdyn::io
