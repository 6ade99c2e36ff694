// MJCF element helpers (mjcf_elements.hpp): <default> classes, orientations and the
// mass properties of geoms. Each formula is the solid's textbook inertia about its own
// centre (uniform density), derivations in the comments; MuJoCo 2.2.2 uses the same
// solids, so a body read here and by MuJoCo has the same mass matrix (checked by
// tests/reference/test_robot_files_mujoco.cpp).
#include "mjcf_elements.hpp"

#include <cmath>

#include "mechdyn/errors.hpp"
#include "robot_graph.hpp"
#include "xml_support.hpp"

namespace mechdyn::io {

namespace {
std::string in_quotes(const std::string& name) { return "'" + printable(name) + "'"; }
constexpr double kPi = 3.14159265358979323846;
}  // namespace

// ---- defaults ---------------------------------------------------------------------

void MjcfDefaults::read_class(const tinyxml2::XMLElement* element, const std::string& name,
                              const std::string& parent, const std::string& source) {
  if (classes_.count(name))
    fail_at(source, "default class " + in_quotes(name), "is defined twice", element->GetLineNum());
  Class& entry = classes_[name];
  entry.parent = parent;
  for (const tinyxml2::XMLElement* e = element->FirstChildElement(); e != nullptr; e = e->NextSiblingElement()) {
    const std::string kind = e->Name();
    if (kind == "default") {
      const char* child = e->Attribute("class");
      if (child == nullptr) fail_at(source, "<default>", "a nested <default> needs a class name", e->GetLineNum());
      read_class(e, child, name, source);
      continue;
    }
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a != nullptr; a = a->Next())
      entry.values[kind][a->Name()] = a->Value();
  }
}

void MjcfDefaults::read(const tinyxml2::XMLElement* root, const std::string& source) {
  for (const tinyxml2::XMLElement* e = root->FirstChildElement("default"); e != nullptr;
       e = e->NextSiblingElement("default")) {
    const char* name = e->Attribute("class");
    if (classes_.count("main") && (name == nullptr || std::string(name) == "main")) {
      // A second top-level <default> adds to "main" (MuJoCo merges them).
      Class& main = classes_["main"];
      for (const tinyxml2::XMLElement* k = e->FirstChildElement(); k != nullptr; k = k->NextSiblingElement()) {
        if (std::string(k->Name()) == "default") {
          const char* child = k->Attribute("class");
          if (child == nullptr) fail_at(source, "<default>", "a nested <default> needs a class name", k->GetLineNum());
          read_class(k, child, "main", source);
          continue;
        }
        for (const tinyxml2::XMLAttribute* a = k->FirstAttribute(); a != nullptr; a = a->Next())
          main.values[k->Name()][a->Name()] = a->Value();
      }
      continue;
    }
    read_class(e, name == nullptr ? "main" : name, "", source);
  }
}

std::optional<std::string> MjcfDefaults::attribute(const tinyxml2::XMLElement* element, const std::string& active_class,
                                                   const char* name, const std::string& source) const {
  if (const char* own = element->Attribute(name)) return std::string(own);
  const char* named = element->Attribute("class");
  std::string at = named != nullptr ? std::string(named) : active_class.empty() ? std::string("main") : active_class;
  if (!classes_.count(at)) {
    if (at == "main") return std::nullopt;  // a file without <default>
    fail_at(source, std::string("<") + element->Name() + ">", "class " + in_quotes(at) + " is not defined",
            element->GetLineNum());
  }
  const std::string kind = element->Name();
  for (int guard = 0; !at.empty() && guard < 1000; ++guard) {
    const Class& entry = classes_.at(at);
    const auto values = entry.values.find(kind);
    if (values != entry.values.end()) {
      const auto value = values->second.find(name);
      if (value != values->second.end()) return value->second;
    }
    at = entry.parent;
  }
  return std::nullopt;
}

// ---- one element --------------------------------------------------------------------

void MjcfElement::fail(const std::string& problem) const { fail_at(source_, name_, problem, line()); }

std::optional<std::string> MjcfElement::text(const char* attribute) const {
  return defaults_.attribute(element_, class_, attribute, source_);
}

std::optional<std::vector<double>> MjcfElement::numbers(const char* attribute) const {
  const std::optional<std::string> value = text(attribute);
  if (!value) return std::nullopt;
  const std::optional<std::vector<double>> parsed = parse_numbers(*value);
  if (!parsed) fail(std::string(attribute) + "=\"" + printable(*value) + "\" is not a list of finite numbers");
  return parsed;
}

std::optional<std::vector<double>> MjcfElement::numbers(const char* attribute, std::size_t count) const {
  const std::optional<std::vector<double>> values = numbers(attribute);
  if (values && values->size() != count)
    fail(std::string(attribute) + "=\"" + printable(*text(attribute)) + "\" has " + std::to_string(values->size()) +
         " numbers, expected " + std::to_string(count));
  return values;
}

double MjcfElement::number(const char* attribute, double fallback) const {
  const std::optional<std::vector<double>> values = numbers(attribute, 1);
  return values ? (*values)[0] : fallback;
}

Vec3 MjcfElement::vec3(const char* attribute, const Vec3& fallback) const {
  const std::optional<std::vector<double>> values = numbers(attribute, 3);
  return values ? Vec3((*values)[0], (*values)[1], (*values)[2]) : fallback;
}

Mat3 rotation_from_z(const Vec3& z) {
  const Vec3 unit = z.normalized();
  const Vec3 axis = Vec3::UnitZ().cross(unit);
  const double sine = axis.norm(), cosine = unit.z();
  if (sine < 1e-14) return cosine > 0.0 ? Mat3::Identity() : Mat3(Eigen::AngleAxisd(kPi, Vec3::UnitX()));
  return Mat3(Eigen::AngleAxisd(std::atan2(sine, cosine), axis / sine));
}

RigidPose MjcfElement::pose(const MjcfCompiler& compiler) const {
  RigidPose out;
  out.position = vec3("pos", Vec3::Zero());
  const char* kinds[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  const char* given = nullptr;
  for (const char* kind : kinds)
    if (element_->Attribute(kind) != nullptr) {
      if (given != nullptr) fail(std::string("has both ") + given + " and " + kind + ": give one orientation");
      given = kind;
    }
  if (given == nullptr)  // orientation from the defaults (geoms and sites may have one)
    for (const char* kind : kinds)
      if (text(kind)) {
        given = kind;
        break;
      }
  if (given == nullptr) return out;
  const double angle_unit = compiler.degrees ? kPi / 180.0 : 1.0;
  const std::string kind = given;
  if (kind == "quat") {
    const std::vector<double> q = *numbers("quat", 4);
    const Quat quat(q[0], q[1], q[2], q[3]);
    if (!(quat.norm() > 1e-12)) fail("quat=\"0 0 0 0\" is not a rotation");
    out.rotation = quat.normalized().toRotationMatrix();
  } else if (kind == "axisangle") {
    const std::vector<double> a = *numbers("axisangle", 4);
    const Vec3 axis(a[0], a[1], a[2]);
    if (!(axis.norm() > 1e-12)) fail("axisangle has a zero axis");
    out.rotation = Eigen::AngleAxisd(a[3] * angle_unit, axis.normalized()).toRotationMatrix();
  } else if (kind == "euler") {
    const Vec3 angles = vec3("euler", Vec3::Zero()) * angle_unit;
    const std::string& sequence = compiler.euler_sequence;
    // Lower-case letters: axes that move with the frame (R = R1 R2 R3); upper-case:
    // axes fixed in the parent (R = R3 R2 R1). MuJoCo's eulerseq.
    for (int k = 0; k < 3; ++k) {
      const char letter = sequence[static_cast<std::size_t>(k)];
      const int index = std::tolower(letter) - 'x';
      const Mat3 step = Eigen::AngleAxisd(angles[k], Vec3::Unit(index)).toRotationMatrix();
      out.rotation = std::islower(letter) ? Mat3(out.rotation * step) : Mat3(step * out.rotation);
    }
  } else if (kind == "xyaxes") {
    const std::vector<double> a = *numbers("xyaxes", 6);
    Vec3 x(a[0], a[1], a[2]), y(a[3], a[4], a[5]);
    if (!(x.norm() > 1e-12)) fail("xyaxes has a zero x axis");
    x.normalize();
    y -= x * x.dot(y);
    if (!(y.norm() > 1e-12)) fail("xyaxes has a y axis parallel to its x axis");
    y.normalize();
    out.rotation.col(0) = x;
    out.rotation.col(1) = y;
    out.rotation.col(2) = x.cross(y);
  } else {
    const Vec3 z = vec3("zaxis", Vec3::UnitZ());
    if (!(z.norm() > 1e-12)) fail("zaxis is a zero vector");
    out.rotation = rotation_from_z(z);
  }
  return out;
}

// ---- mass properties of geoms ---------------------------------------------------------

GeomMass geom_mass(const MjcfElement& geom, const MjcfCompiler& compiler) {
  const std::string type = geom.text("type").value_or("sphere");
  std::vector<double> size = geom.numbers("size").value_or(std::vector<double>{});
  RigidPose frame = geom.pose(compiler);
  // fromto (capsule, cylinder, box, ellipsoid): the frame's z axis runs from the first
  // point to the second, its origin at the middle, the half-length is size[1] (size[2]
  // for box and ellipsoid).
  if (const std::optional<std::vector<double>> ends = geom.numbers("fromto", 6)) {
    if (type == "sphere" || type == "mesh" || type == "plane" || type == "hfield")
      geom.fail("fromto is for capsule, cylinder, box and ellipsoid geoms, not " + type);
    const Vec3 from((*ends)[0], (*ends)[1], (*ends)[2]), to((*ends)[3], (*ends)[4], (*ends)[5]);
    if (!((to - from).norm() > 1e-12)) geom.fail("fromto has two equal points");
    frame.position = 0.5 * (from + to);
    frame.rotation = rotation_from_z(to - from);
    const double half = 0.5 * (to - from).norm();
    if (type == "capsule" || type == "cylinder") {
      size.resize(std::max<std::size_t>(size.size(), 2));
      size[1] = half;
    } else {
      size.resize(std::max<std::size_t>(size.size(), 3));
      size[2] = half;
    }
  }
  auto need = [&](std::size_t count) {
    if (size.size() < count)
      geom.fail("a " + type + " geom needs " + std::to_string(count) + " size numbers, has " + std::to_string(size.size()));
    for (std::size_t k = 0; k < count; ++k)
      if (!(size[k] > 0.0)) geom.fail("size " + std::to_string(size[k]) + " is not positive");
  };
  double volume = 0.0;
  Vec3 unit_moments;  // principal moments per unit mass, geom frame
  if (type == "sphere") {
    need(1);
    const double r = size[0];
    volume = 4.0 / 3.0 * kPi * r * r * r;
    unit_moments.setConstant(2.0 / 5.0 * r * r);  // solid sphere: (2/5) m r²
  } else if (type == "capsule") {
    need(2);
    const double r = size[0], length = 2.0 * size[1];
    const double sphere_volume = 4.0 / 3.0 * kPi * r * r * r, cylinder_volume = kPi * r * r * length;
    volume = sphere_volume + cylinder_volume;
    const double cylinder = cylinder_volume / volume, spheres = sphere_volume / volume;  // mass fractions
    // Cylinder part: (3r² + L²)/12 across, r²/2 along. Two hemispheres of mass m_s/2, each
    // with its centre 3r/8 beyond the cylinder's end: about the capsule centre,
    // (83/320) r² + (L/2 + 3r/8)² per unit mass across = (2/5) r² + L(2L + 3r)/8 for the
    // pair, and (2/5) r² along.
    const double across = cylinder * (3.0 * r * r + length * length) / 12.0 +
                          spheres * (2.0 / 5.0 * r * r + length * (2.0 * length + 3.0 * r) / 8.0);
    const double along = cylinder * r * r / 2.0 + spheres * 2.0 / 5.0 * r * r;
    unit_moments = Vec3(across, across, along);
  } else if (type == "cylinder") {
    need(2);
    const double r = size[0], length = 2.0 * size[1];
    volume = kPi * r * r * length;
    const double across = (3.0 * r * r + length * length) / 12.0;
    unit_moments = Vec3(across, across, r * r / 2.0);
  } else if (type == "ellipsoid") {
    need(3);
    const double a = size[0], b = size[1], c = size[2];
    volume = 4.0 / 3.0 * kPi * a * b * c;
    unit_moments = Vec3(b * b + c * c, a * a + c * c, a * a + b * b) / 5.0;  // solid ellipsoid
  } else if (type == "box") {
    need(3);
    const double a = size[0], b = size[1], c = size[2];  // half-sizes
    volume = 8.0 * a * b * c;
    unit_moments = Vec3(b * b + c * c, a * a + c * c, a * a + b * b) / 3.0;  // m((2b)² + (2c)²)/12
  } else if (type == "mesh" || type == "hfield" || type == "plane") {
    geom.fail("is a " + type + " geom: mechdyn does not read its volume; give the body an <inertial>");
  } else {
    geom.fail("unknown geom type " + in_quotes(type));
  }
  GeomMass out;
  if (geom.text("mass")) {
    out.mass = geom.number("mass", 0.0);
    if (out.mass < 0.0) geom.fail("mass " + std::to_string(out.mass) + " is negative");
  } else {
    const double density = geom.number("density", 1000.0);
    if (density < 0.0) geom.fail("density " + std::to_string(density) + " is negative");
    out.mass = density * volume;
  }
  out.com = frame.position;
  out.inertia = frame.rotation * (out.mass * unit_moments).asDiagonal() * frame.rotation.transpose();
  return out;
}

}  // namespace mechdyn::io
