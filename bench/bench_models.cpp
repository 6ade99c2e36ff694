// Benchmark models built in code (see bench_models.hpp).
#include "bench_models.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace mechdyn::bench {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Appends body `name` attached to `parent` by a joint of `type` with axis n^{l̄}_l and
// origin r^{l̄}_{l0}; returns its index.
int add_body(Model& model, const std::string& name, int parent, JointType type, const Vec3& axis,
             const Vec3& origin, double mass, const Vec3& com, const Mat3& inertia) {
  Body body;
  body.name = name;
  body.parent = parent;
  body.mass = mass;
  body.com = com;
  body.inertia = inertia;
  Joint joint;
  joint.name = "joint_" + name;
  joint.type = type;
  joint.axis = axis;
  joint.origin = origin;
  model.bodies.push_back(body);
  model.joints.push_back(joint);
  return model.num_bodies() - 1;
}

Mat3 diagonal(double a, double b, double c) { return Vec3(a, b, c).asDiagonal(); }

// A full inertia tensor: principal moments satisfying the triangle inequality, in a
// random orientation (as tests/support/random_model.cpp does).
Mat3 random_inertia(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const double a = scale * (0.1 + unit(rng)), b = scale * (0.1 + unit(rng));
  const double c = std::abs(a - b) + (a + b - std::abs(a - b)) * (0.05 + 0.9 * unit(rng));
  const Mat3 rotation = Quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)).normalized().toRotationMatrix();
  Mat3 inertia = rotation * Vec3(a, b, c).asDiagonal() * rotation.transpose();
  return 0.5 * (inertia + inertia.transpose());
}

}  // namespace

Model five_axis_tree() {
  Model model;
  model.name = "five_axis_tree";
  model.gravity = Vec3(0.0, 0.0, -9.8);  // Table 2: g
  const Vec3 z = Vec3::UnitZ();          // n^i_1, n^1_2, n^2_3, n^1_4, n^4_5
  const int l1 = add_body(model, "L1", kGround, JointType::Revolute, z, Vec3::Zero(), 1.0, Vec3(-0.2, 0.0, 0.0),
                          diagonal(0.002, 0.01, 0.01));
  const int l2 = add_body(model, "L2", l1, JointType::Revolute, z, Vec3(-0.4, 0.0, 0.0), 3.0,
                          Vec3(0.3, 0.5196, 0.0), diagonal(0.008, 0.06, 0.06));
  add_body(model, "L3", l2, JointType::Revolute, z, Vec3(0.6, 1.0392, 0.0), 3.0, Vec3(0.3, -0.5196, 0.0),
           diagonal(0.008, 0.06, 0.06));
  const int l4 = add_body(model, "L4", l1, JointType::Revolute, z, Vec3(-0.2, 0.0, 0.0), 2.0,
                          Vec3(0.3, -0.5196, 0.0), diagonal(0.005, 0.04, 0.04));
  add_body(model, "L5", l4, JointType::Revolute, z, Vec3(0.6, -1.0392, 0.0), 2.0, Vec3(0.3, 0.5196, 0.0),
           diagonal(0.005, 0.04, 0.04));
  finalize_model(model, model.name);
  return model;
}

Model panda_like_arm() {
  // Panda modified-DH (a, d, α): (0, 0.333, 0), (0, 0, −π/2), (0, 0.316, π/2),
  // (0.0825, 0, π/2), (−0.0825, 0.384, −π/2), (0, 0, π/2), (0.088, 0, π/2). At q = 0 the
  // joint axes in the world are z, y, z, −y, z, −y, −z and the joint origins lie at
  // (0,0,0.333), (0,0,0.333), (0,0,0.649), (0.0825,0,0.649), (0,0,1.033), (0,0,1.033),
  // (0.088,0,1.033); the origins below are the differences between consecutive ones.
  Model model;
  model.name = "panda_like_arm";
  model.gravity = Vec3(0.0, 0.0, -9.81);
  const Vec3 z = Vec3::UnitZ(), y = Vec3::UnitY();
  int parent = kGround;
  parent = add_body(model, "link1", parent, JointType::Revolute, z, Vec3(0.0, 0.0, 0.333), 4.97,
                    Vec3(0.0, -0.03, -0.07), diagonal(0.70, 0.70, 0.009));
  parent = add_body(model, "link2", parent, JointType::Revolute, y, Vec3(0.0, 0.0, 0.0), 0.646,
                    Vec3(0.0, -0.03, 0.07), diagonal(0.008, 0.028, 0.025));
  parent = add_body(model, "link3", parent, JointType::Revolute, z, Vec3(0.0, 0.0, 0.316), 3.228,
                    Vec3(0.04, 0.03, -0.07), diagonal(0.037, 0.036, 0.011));
  parent = add_body(model, "link4", parent, JointType::Revolute, -y, Vec3(0.0825, 0.0, 0.0), 3.587,
                    Vec3(-0.05, 0.03, 0.04), diagonal(0.026, 0.020, 0.028));
  parent = add_body(model, "link5", parent, JointType::Revolute, z, Vec3(-0.0825, 0.0, 0.384), 1.225,
                    Vec3(0.0, 0.04, -0.11), diagonal(0.036, 0.029, 0.009));
  parent = add_body(model, "link6", parent, JointType::Revolute, -y, Vec3(0.0, 0.0, 0.0), 1.666,
                    Vec3(0.06, 0.0, -0.01), diagonal(0.002, 0.004, 0.005));
  add_body(model, "link7", parent, JointType::Revolute, -z, Vec3(0.088, 0.0, 0.0), 0.735,
           Vec3(0.01, 0.0, -0.08), diagonal(0.013, 0.010, 0.008));
  finalize_model(model, model.name);
  return model;
}

Model branched_tree(unsigned seed) {
  constexpr int kBranches = 5;
  constexpr int kJointsPerBranch = 6;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model model;
  model.name = "branched_tree_30";
  model.gravity = Vec3(0.0, 0.0, -9.81);
  for (int b = 0; b < kBranches; ++b) {
    // Each branch leaves the base in its own horizontal direction and climbs.
    const double heading = 2.0 * kPi * b / kBranches;
    const Vec3 step(0.25 * std::cos(heading), 0.25 * std::sin(heading), 0.1);
    int parent = kGround;
    for (int j = 0; j < kJointsPerBranch; ++j) {
      const Vec3 axis = Vec3::Unit(j % 3);
      const Vec3 origin = j == 0 ? Vec3(0.1 * std::cos(heading), 0.1 * std::sin(heading), 0.0) : step;
      const double mass = 0.5 + 2.0 * unit(rng);
      const Vec3 com = 0.5 * step + 0.05 * Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
      const std::string name = "B" + std::to_string(b) + "_" + std::to_string(j);
      parent = add_body(model, name, parent, JointType::Revolute, axis, origin, mass, com, random_inertia(rng, 0.02));
    }
  }
  finalize_model(model, model.name);
  return model;
}

Model serial_chain(int n, unsigned seed) {
  std::mt19937 rng(seed + static_cast<unsigned>(n));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model model;
  model.name = "serial_chain_" + std::to_string(n);
  model.gravity = Vec3(0.0, 0.0, -9.81);
  int parent = kGround;
  for (int j = 0; j < n; ++j) {
    const Vec3 axis = Vec3::Unit(j % 3);
    const Vec3 origin = j == 0 ? Vec3::Zero() : Vec3(0.05, 0.0, 0.2);
    const double mass = 0.5 + 2.0 * unit(rng);
    const Vec3 com = Vec3(0.025, 0.0, 0.1) + 0.05 * Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    parent = add_body(model, "link" + std::to_string(j + 1), parent, JointType::Revolute, axis, origin, mass, com,
                      random_inertia(rng, 0.02));
  }
  finalize_model(model, model.name);
  return model;
}

Model binary_tree(int n, unsigned seed) {
  std::mt19937 rng(seed + static_cast<unsigned>(n));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model model;
  model.name = "binary_tree_" + std::to_string(n);
  model.gravity = Vec3(0.0, 0.0, -9.81);
  for (int j = 0; j < n; ++j) {
    const int parent = j == 0 ? kGround : (j - 1) / 2;  // heap order: parents first
    const Vec3 axis = Vec3::Unit(j % 3);
    // The two children of a body leave it to either side, so the tree spreads out.
    const Vec3 origin = j == 0 ? Vec3::Zero() : Vec3(0.05, j % 2 == 1 ? 0.05 : -0.05, 0.2);
    const double mass = 0.5 + 2.0 * unit(rng);
    const Vec3 com = Vec3(0.025, 0.0, 0.1) + 0.05 * Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5);
    add_body(model, "node" + std::to_string(j + 1), parent, JointType::Revolute, axis, origin, mass, com,
             random_inertia(rng, 0.02));
  }
  finalize_model(model, model.name);
  return model;
}

Model model_by_name(const std::string& name) {
  if (name == "five_axis_tree") return five_axis_tree();
  if (name == "panda_like_arm") return panda_like_arm();
  if (name == "branched_tree_30") return branched_tree();
  for (const std::string family : {"serial_chain_", "binary_tree_"}) {
    if (name.rfind(family, 0) != 0) continue;
    const std::string digits = name.substr(family.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 5) break;
    const int n = std::stoi(digits);
    if (n < 1) break;
    return family == "serial_chain_" ? serial_chain(n) : binary_tree(n);
  }
  throw std::invalid_argument("no benchmark model named '" + name + "'");
}

}  // namespace mechdyn::bench
