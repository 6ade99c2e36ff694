// The description of a flexible beam body: the `flexible` block of a model file
// (../shared/spec/flexible-bodies.md, format version 2; docs/flexible-bodies.md).
//
// A FlexibleBeam is the constant input the user wrote (Model::bodies[i].flexible). The
// matrices and inertia invariants derived from it live in FlexibleBody
// (flexible/flexible_body.hpp), built once by make_flexible_body.
//
// Frames: the body frame is the beam's floating frame, clamped to the beam's first node
// (the tangent frame of papers/rigid-flexible-3RRRU-ffr.txt §2, Fig. 1: its origin o is
// node o of the first element). `direction` and `section_y` are in the body frame, which
// is the natural frame (world directions at q = 0).
#pragma once

#include <optional>
#include <string>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

struct Model;

/// Section constants of a prismatic beam (m², m⁴).
struct BeamSection {
  double area = 0.0;     // A
  double iy = 0.0;       // I_y = ∫ z² dA: second moment about the section's y axis (bending in x–z)
  double iz = 0.0;       // I_z = ∫ y² dA: second moment about the section's z axis (bending in x–y)
  double torsion = 0.0;  // J: torsion constant (G J is the torsional stiffness; a solid circle: I_p)
  /// Polar moment I_p = I_y + I_z (m⁴): the section's rotary inertia about the axis is ρ I_p.
  double polar() const { return iy + iz; }
};

/// Solid circle of radius r: A = π r², I_y = I_z = π r⁴ / 4, J = I_p = π r⁴ / 2.
BeamSection circle_section(double radius);

/// Isotropic linear-elastic material (Pa, kg/m³).
struct BeamMaterial {
  double youngs_modulus = 0.0;  // E
  double shear_modulus = 0.0;   // G (from the file, or E / (2 (1 + ν)) from poisson_ratio)
  double density = 0.0;         // ρ
};

/// One `flexible: {type: beam, ...}` block: a straight prismatic 3D Euler–Bernoulli beam
/// of `elements` equal two-node elements from the body frame origin along `direction`.
struct FlexibleBeam {
  Vec3 direction = Vec3::UnitX();  // d: unit neutral axis (body frame)
  Vec3 section_y = Vec3::UnitY();  // y: unit section y axis, perpendicular to d (body frame)
  double length = 0.0;             // L (m)
  int elements = 1;                // n ≥ 1 equal elements of length L / n
  BeamSection section;
  BeamMaterial material;
  bool geometric_stiffening = true;  // K_G of the axial load from the inertial loads (docs/flexible-bodies.md)
  double damping_mass = 0.0;         // α of Rayleigh damping D = α M_ee + β K (1/s)
  double damping_stiffness = 0.0;    // β (s)
  int modes = 0;                     // 0: nodal coordinates (6 n); k > 0: the k lowest clamped modes

  /// z = d × y, the section's z axis (body frame).
  Vec3 section_z() const { return direction.cross(section_y); }
  /// Number of elastic coordinates: 6 n (nodes 2…n+1, each u_x u_y u_z θ_x θ_y θ_z), or `modes`.
  int num_elastic() const { return modes > 0 ? modes : 6 * elements; }
};

/// Throws ModelError "<source>: <element>: <problem>" unless every value is finite and
/// positive where it must be, `direction` and `section_y` are unit and perpendicular
/// (within 1e-9), elements ≥ 1 and 0 ≤ modes ≤ 6 n.
void check_flexible_beam(const FlexibleBeam& beam, const std::string& source, const std::string& element);

/// Tolerance of "on the neutral axis" and of the ends of the beam (m), as fixed by the contract.
inline constexpr double kBeamPointTolerance = 1e-9;

/// Why `point` (body frame) cannot be attached to the beam, or std::nullopt when it can:
/// its foot on the axis, s = d · point, must lie in [0, L] (within kBeamPointTolerance).
std::optional<std::string> beam_point_problem(const FlexibleBeam& beam, const Vec3& point);

/// Checks every point meant to be on a flexible body (a child joint's origin, a loop
/// point, a marker point, a force element's point) with beam_point_problem; throws ModelError
/// naming it.
void check_points_on_flexible_bodies(const Model& model, const std::string& source);

/// True when any body of the model is flexible.
bool has_flexible_bodies(const Model& model);

/// Throws ModelError "<source>: bodies[i] '<name>': is a flexible beam; <what> ..." when
/// the model has a flexible body: the entry check of the algorithms that treat rigid
/// bodies only (they must never treat a beam as rigid).
void require_rigid_bodies(const Model& model, const std::string& source, const std::string& what);

}  // namespace mechdyn
