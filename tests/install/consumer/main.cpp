// Consumer of an installed mechdyn: builds a two-link planar arm in code, prints its
// mass matrix M(q) and checks it against the closed form; then reads a one-body model
// from YAML text, which needs the library's private yaml-cpp dependency to link, and
// evaluates an effort expression of t, which needs its private muParser dependency.
//
// Two links rotating about z, link 1 of length l1 with com at c1 on its axis, link 2
// with com at c2; I1, I2 the z moments about the coms. With θ2 the elbow angle
// (the classic result, e.g. Spong, Hutchinson & Vidyasagar, "Robot Modeling and
// Control", §7.4):
//   M11 = I1 + I2 + m1 c1² + m2 (l1² + c2² + 2 l1 c2 cos θ2)
//   M12 = I2 + m2 (c2² + l1 c2 cos θ2)
//   M22 = I2 + m2 c2²
// Exit status 0 when M matches to 1e-12, 1 otherwise.
#include <cmath>
#include <iostream>

#include <mechdyn/dynamics/crba.hpp>
#include <mechdyn/dynamics/explicit_jsim.hpp>
#include <mechdyn/math/time_expressions.hpp>
#include <mechdyn/io/model_file.hpp>
#include <mechdyn/model/data.hpp>
#include <mechdyn/model/model.hpp>

int main() {
  using namespace mechdyn;
  const double m1 = 1.5, m2 = 0.8, l1 = 0.6, c1 = 0.3, c2 = 0.25, i1 = 0.04, i2 = 0.02;

  Model model;
  model.name = "two_link_planar";
  for (int k = 0; k < 2; ++k) {
    Body body;
    Joint joint;
    body.name = k == 0 ? "upper" : "lower";
    body.parent = k == 0 ? kGround : 0;
    body.mass = k == 0 ? m1 : m2;
    body.com = Vec3(k == 0 ? c1 : c2, 0.0, 0.0);
    const double izz = k == 0 ? i1 : i2;
    body.inertia = Vec3(0.5 * izz, 0.5 * izz, izz).asDiagonal();
    joint.type = JointType::Revolute;
    joint.axis = Vec3::UnitZ();
    joint.origin = k == 0 ? Vec3::Zero() : Vec3(l1, 0.0, 0.0);
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  finalize_model(model, model.name);

  Data data(model);
  VecX q(2);
  q << 0.4, -1.1;
  const MatX mass_matrix = explicit_mass_matrix(model, data, q);
  const MatX composite = crba(model, data, q);

  MatX expected(2, 2);
  const double cos2 = std::cos(q[1]);
  expected(0, 0) = i1 + i2 + m1 * c1 * c1 + m2 * (l1 * l1 + c2 * c2 + 2.0 * l1 * c2 * cos2);
  expected(0, 1) = expected(1, 0) = i2 + m2 * (c2 * c2 + l1 * c2 * cos2);
  expected(1, 1) = i2 + m2 * c2 * c2;

  std::cout << "M(q) of " << model.name << " at q = [" << q.transpose() << "]:\n" << mass_matrix << "\n";
  const double error = std::max((mass_matrix - expected).cwiseAbs().maxCoeff(),
                                (composite - expected).cwiseAbs().maxCoeff());
  std::cout << "max |M - closed form| = " << error << "\n";

  const Model from_text = parse_model_string(
      "mechdyn: 1\n"
      "name: pendulum\n"
      "bodies:\n"
      "  - name: bob\n"
      "    parent: ground\n"
      "    joint: {type: revolute, axis: [0, 1, 0], origin: [0, 0, 0]}\n"
      "    mass: 1\n"
      "    com: [0, 0, -1]\n"
      "    inertia: {diag: [0.01, 0.01, 0.01]}\n",
      "<inline>");
  std::cout << "parsed '" << from_text.name << "' with nv = " << from_text.nv << "\n";

  // 2 sin(t) + 1 at t = π/6 is 2 · 1/2 + 1 = 2.
  TimeExpressions effort({"2 * sin(t) + 1"}, "tau");
  VecX tau(1);
  effort.evaluate(std::acos(-1.0) / 6.0, tau);
  std::cout << "tau(pi/6) = " << tau[0] << "\n";

  const bool ok = error < 1e-12 && from_text.nv == 1 && std::abs(tau[0] - 2.0) < 1e-12;
  std::cout << (ok ? "consumer OK" : "consumer FAILED") << "\n";
  return ok ? 0 : 1;
}
