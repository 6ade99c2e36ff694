// The FFR evaluation functions of a flexible body allocate nothing (HOUSE-STYLE "Model and
// Data"): mass matrix, quadratic velocity vector, geometric stiffness, elastic, damping and
// gravity forces, point kinematics and point wrenches — for nodal and modal coordinates,
// with the elastic coordinates passed as segments of a larger system vector (the second
// wave's use).
#include "no_malloc_probe.hpp"

#include <gtest/gtest.h>

#include "mechdyn/flexible/beam_point.hpp"
#include "mechdyn/flexible/ffr_dynamics.hpp"
#include "mechdyn/flexible/flexible_body.hpp"

namespace mechdyn {
namespace {

using testing::allocations_during;

class FfrNoAllocation : public ::testing::TestWithParam<int> {};

// Catches: an Eigen temporary (a product without noalias, a dynamic-size expression
// evaluated into a new matrix) or a std::vector growth in any evaluation function.
TEST_P(FfrNoAllocation, EvaluationAllocatesNothing) {
  FlexibleBeam beam;
  beam.direction = Vec3(1, 2, 2) / 3.0;
  beam.section_y = Vec3(2, 1, -2) / 3.0;
  beam.length = 0.8;
  beam.elements = 4;
  beam.section = circle_section(0.01);
  beam.material = {71.7e9, 27.6e9, 2700.0};
  beam.damping_stiffness = 1e-4;
  beam.modes = GetParam();
  const FlexibleBody body = make_flexible_body(beam, 0.2, Vec3(0.01, 0, 0), Mat3::Identity() * 1e-5);
  FlexibleBodyData data(body);
  BeamPointKinematics kinematics(body);
  const BeamPoint tip = make_beam_point(body, 0.8 * beam.direction + 0.02 * beam.section_y);
  const int ne = body.num_elastic;
  VecX system = VecX::Random(3 + 2 * ne) * 0.01;  // [rigid...; e; ė] of a larger system
  VecX generalized = VecX::Zero(6 + ne);
  const Vec3 w(0.3, -0.2, 1.1), v(0.1, 0.2, 0.3), g(0, 0, -9.81);
  double energy = 0.0;
  const long seen = allocations_during([&] {
    const auto e = system.segment(3, ne);
    const auto e_rate = system.segment(3 + ne, ne);
    ffr_mass_matrix(body, data, e);
    ffr_quadratic_velocity(body, data, e, w, v, e_rate);
    ffr_geometric_stiffness(body, data, w, v, g, 12.0);
    ffr_elastic_forces(body, data, e, e_rate);
    ffr_gravity_force(body, data, e, g);
    beam_point_kinematics(body, tip, e, kinematics);
    beam_point_velocity_product(body, tip, e_rate, kinematics);
    ffr_point_wrench(kinematics, Vec3(1, 2, 3), Vec3(0.1, 0.2, 0.3), generalized);
    energy = ffr_strain_energy(body, e);
  });
  EXPECT_LE(seen, 0) << "heap allocations during evaluation";
  EXPECT_GT(energy, 0.0);
  EXPECT_GT(data.mass_matrix(0, 0), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Coordinates, FfrNoAllocation, ::testing::Values(0, 6));

}  // namespace
}  // namespace mechdyn
