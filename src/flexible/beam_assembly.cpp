// Assembly of the free–free beam matrices in body-frame nodal components
// (flexible/beam_assembly.hpp). Element matrices from flexible/beam_element.hpp, each
// rotated by Λ k Λᵀ (papers/rigid-flexible-3RRRU-ffr.txt eqs. 28–29 with a constant B)
// and added at rows/columns 6 j … 6 j + 11 of element j. Cost O(n · 12²); built once.
#include "mechdyn/flexible/beam_assembly.hpp"

namespace mechdyn {

Mat3 beam_section_axes(const FlexibleBeam& beam) {
  Mat3 c;
  c.col(0) = beam.direction;
  c.col(1) = beam.section_y;
  c.col(2) = beam.section_z();
  return c;
}

Mat12 beam_element_rotation(const Mat3& section_axes) {
  Mat12 r = Mat12::Zero();
  for (int b = 0; b < 4; ++b) r.block<3, 3>(3 * b, 3 * b) = section_axes;
  return r;
}

BeamMatrices assemble_free_beam(const FlexibleBeam& beam) {
  check_flexible_beam(beam, "flexible beam", "beam");
  const int n = beam.elements;
  const int size = 6 * (n + 1);
  const double l = beam.length / n;
  const double length = beam.length;
  const Mat12 rotation = beam_element_rotation(beam_section_axes(beam));
  const Mat12 mass = rotation * beam_element_mass(beam.section, beam.material.density, l) * rotation.transpose();
  const Mat12 stiffness = rotation * beam_element_stiffness(beam.section, beam.material, l) * rotation.transpose();

  BeamMatrices m;
  for (MatX* x : {&m.mass, &m.stiffness, &m.geometric_stiffness_constant, &m.geometric_stiffness_linear,
                  &m.geometric_stiffness_quadratic})
    x->setZero(size, size);
  for (int j = 0; j < n; ++j) {
    const double start = j * l;
    const auto block = [&](MatX& target, const Mat12& element) { target.block<12, 12>(6 * j, 6 * j) += element; };
    block(m.mass, mass);
    block(m.stiffness, stiffness);
    // N = 1; N = L − s; N = (L² − s²)/2 (flexible_body.hpp: the inertial axial force).
    block(m.geometric_stiffness_constant,
          rotation * beam_element_geometric_stiffness(beam.section, l, start, 1.0, 0.0, 0.0) * rotation.transpose());
    block(m.geometric_stiffness_linear,
          rotation * beam_element_geometric_stiffness(beam.section, l, start, length, -1.0, 0.0) *
              rotation.transpose());
    block(m.geometric_stiffness_quadratic,
          rotation * beam_element_geometric_stiffness(beam.section, l, start, 0.5 * length * length, 0.0, -0.5) *
              rotation.transpose());
  }
  return m;
}

}  // namespace mechdyn
