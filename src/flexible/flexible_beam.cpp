// Checks of a flexible beam description and of the points attached to it, and the entry
// check of the rigid-only algorithms (flexible/flexible_beam.hpp).
#include "mechdyn/flexible/flexible_beam.hpp"

#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {
namespace {

[[noreturn]] void fail(const std::string& source, const std::string& element, const std::string& problem) {
  throw ModelError(source + ": " + element + ": " + problem);
}

std::string number_text(double x) {
  std::ostringstream s;
  s.precision(10);
  s << x;
  return s.str();
}

void positive(double value, const std::string& source, const std::string& element, const char* key) {
  if (!std::isfinite(value) || value <= 0.0)
    fail(source, element, std::string(key) + " must be a positive number, got " + number_text(value));
}

}  // namespace

BeamSection circle_section(double radius) {
  const double pi = 3.14159265358979323846;
  const double r2 = radius * radius;
  BeamSection s;
  s.area = pi * r2;
  s.iy = s.iz = pi * r2 * r2 / 4.0;
  s.torsion = pi * r2 * r2 / 2.0;
  return s;
}

void check_flexible_beam(const FlexibleBeam& beam, const std::string& source, const std::string& element) {
  if (!beam.direction.allFinite() || std::abs(beam.direction.norm() - 1.0) > 1e-9)
    fail(source, element, "direction must be a unit vector");
  if (!beam.section_y.allFinite() || std::abs(beam.section_y.norm() - 1.0) > 1e-9)
    fail(source, element, "section_y must be a unit vector");
  if (std::abs(beam.direction.dot(beam.section_y)) > 1e-9)
    fail(source, element, "section_y is not perpendicular to direction (cosine " +
                              number_text(beam.direction.dot(beam.section_y)) + ")");
  positive(beam.length, source, element, "length");
  if (beam.elements < 1) fail(source, element, "elements must be at least 1, got " + std::to_string(beam.elements));
  positive(beam.section.area, source, element, "section.area");
  positive(beam.section.iy, source, element, "section.iy");
  positive(beam.section.iz, source, element, "section.iz");
  positive(beam.section.torsion, source, element, "section.torsion");
  positive(beam.material.youngs_modulus, source, element, "material.youngs_modulus");
  positive(beam.material.shear_modulus, source, element, "material.shear_modulus");
  positive(beam.material.density, source, element, "material.density");
  for (const auto& [value, key] : {std::pair{beam.damping_mass, "damping.mass"},
                                   std::pair{beam.damping_stiffness, "damping.stiffness"}})
    if (!std::isfinite(value) || value < 0.0)
      fail(source, element, std::string(key) + " must be a number >= 0, got " + number_text(value));
  if (beam.modes < 0 || beam.modes > 6 * beam.elements)
    fail(source, element, "modes must be between 1 and 6 x elements = " + std::to_string(6 * beam.elements) +
                              " (or absent for nodal coordinates), got " + std::to_string(beam.modes));
}

std::optional<std::string> beam_point_problem(const FlexibleBeam& beam, const Vec3& point) {
  const double s = beam.direction.dot(point);  // foot of the point on the neutral axis
  if (s < -kBeamPointTolerance)
    return "lies before the beam's first node: its foot on the neutral axis is at s = " + number_text(s) +
           " m along direction (the beam runs from s = 0 to " + number_text(beam.length) + " m)";
  if (s > beam.length + kBeamPointTolerance)
    return "lies beyond the beam's length: its foot on the neutral axis is at s = " + number_text(s) +
           " m along direction, the beam is " + number_text(beam.length) + " m long";
  return std::nullopt;
}

void check_points_on_flexible_bodies(const Model& model, const std::string& source) {
  const auto check = [&](int body, const Vec3& point, const std::string& element) {
    if (body == kGround || !model.bodies[static_cast<std::size_t>(body)].flexible) return;
    const std::optional<std::string> problem = beam_point_problem(*model.bodies[static_cast<std::size_t>(body)].flexible, point);
    if (problem) fail(source, element, "on flexible body '" + model.bodies[static_cast<std::size_t>(body)].name + "' " + *problem);
  };
  for (int i = 0; i < model.num_bodies(); ++i)
    check(model.bodies[static_cast<std::size_t>(i)].parent, model.joints[static_cast<std::size_t>(i)].origin,
          "joint '" + model.joints[static_cast<std::size_t>(i)].name + "' origin");
  for (const Loop& loop : model.loops) {
    check(loop.a.body, loop.a.point, "loop '" + loop.name + "' a.point");
    check(loop.b.body, loop.b.point, "loop '" + loop.name + "' b.point");
  }
  for (const Marker& marker : model.markers) check(marker.at.body, marker.at.point, "marker '" + marker.name + "' point");
  const auto known = [&](int body) { return body >= 0 && body < model.num_bodies(); };  // else force_element_rules says so
  for (const ForceElement& e : model.forces) {
    if (is_joint_element(e.type)) continue;
    if (known(e.a.body)) check(e.a.body, e.a.point, "force '" + e.name + "' " + (e.type == ForceElementType::Applied ? "point" : "a.point"));
    if (e.type != ForceElementType::Applied && known(e.b.body)) check(e.b.body, e.b.point, "force '" + e.name + "' b.point");
  }
}

bool has_flexible_bodies(const Model& model) {
  for (const Body& body : model.bodies)
    if (body.flexible) return true;
  return false;
}

void require_rigid_bodies(const Model& model, const std::string& source, const std::string& what) {
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& body = model.bodies[static_cast<std::size_t>(i)];
    if (body.flexible)
      fail(source, "bodies[" + std::to_string(i) + "] '" + body.name + "'",
           "is a flexible beam; " + what +
               " treats rigid bodies only (flexible bodies: mechdyn static and mechdyn modes, and "
               "flexible/flexible_system.hpp in the library; the beam is not treated as rigid)");
  }
}

}  // namespace mechdyn
