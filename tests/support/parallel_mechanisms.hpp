// Small closed-chain mechanisms with known mobility, built in code, for the mobility and
// screw tests (tests/reference/test_mobility_mechanisms.cpp, tests/unit/test_mobility_cli.cpp).
// Each is written at a home pose where every loop closes at q = 0 (natural frames: every
// vector is a world vector at q = 0). model_yaml() writes a model as a model file
// (../shared/spec/model-format.md) for the command-line tests. Header-only.
#pragma once

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "mechdyn/math/skew.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::testing {

/// Builds a model from world positions at q = 0: each body's frame origin (on its joint
/// axis) and centre of mass, each loop's cut points.
class MechanismBuilder {
 public:
  explicit MechanismBuilder(const std::string& name) { model_.name = name; }

  void body(const std::string& name, const std::string& parent, JointType type, const Vec3& origin, bool actuated,
            const Vec3& axis = Vec3::UnitZ(), const Vec3& second_axis = Vec3::UnitY(), const Vec3* com = nullptr) {
    Body b;
    b.name = name;
    b.parent = parent == "ground" ? kGround : *model_.body_index(name_to_check(parent));
    b.mass = 1.0;
    b.com = com ? Vec3(*com - origin) : Vec3::Zero();
    b.inertia = Vec3(0.01, 0.01, 0.01).asDiagonal();
    Joint j;
    j.name = name + "_joint";
    j.type = type;
    j.axis = axis.normalized();
    j.second_axis = second_axis.normalized();
    j.origin = origin - (parent == "ground" ? Vec3::Zero() : world_origin_.at(parent));
    j.actuated = actuated;
    model_.bodies.push_back(b);
    model_.joints.push_back(j);
    world_origin_[name] = origin;
  }

  void loop(const std::string& name, LoopType type, const std::string& a, const Vec3& a_point, const std::string& b,
            const Vec3& b_point, const Vec3& axis = Vec3::UnitZ(), const Vec3& second_axis = Vec3::UnitY()) {
    Loop l;
    l.name = name;
    l.type = type;
    l.a = point_on(a, a_point);
    l.b = point_on(b, b_point);
    l.axis = axis.normalized();
    l.second_axis = second_axis.normalized();
    model_.loops.push_back(l);
  }

  Model build() {
    Model out = model_;
    finalize_model(out, model_.name);
    return out;
  }

 private:
  const std::string& name_to_check(const std::string& name) const {
    if (!model_.body_index(name)) throw std::runtime_error("builder: unknown parent " + name);
    return name;
  }
  BodyPoint point_on(const std::string& body, const Vec3& world_point) const {
    BodyPoint p;
    if (body == "ground") {
      p.body = kGround;
      p.point = world_point;
    } else {
      p.body = *model_.body_index(name_to_check(body));
      p.point = world_point - world_origin_.at(body);
    }
    return p;
  }
  Model model_;
  std::map<std::string, Vec3> world_origin_;
};

inline Vec3 at_angle(double radius, double degrees, double z = 0.0) {
  const double a = degrees * M_PI / 180.0;
  return Vec3(radius * std::cos(a), radius * std::sin(a), z);
}

/// Spatial RSSR: crank (revolute z at the origin, actuated), coupler on a spherical joint at
/// the crank pin B = (0.1, 0, 0), rocker (revolute y at D = (0.3, 0.1, 0.2)), spherical cut
/// joint at C = (0.3, 0.1, 0.05) between coupler and rocker.
inline Model rssr(bool rocker_actuated) {
  MechanismBuilder m("rssr");
  const Vec3 b(0.1, 0, 0), c(0.3, 0.1, 0.05), d(0.3, 0.1, 0.2);
  const Vec3 crank_com = 0.5 * b, coupler_com = 0.5 * (b + c), rocker_com = 0.5 * (c + d);
  m.body("crank", "ground", JointType::Revolute, Vec3::Zero(), true, Vec3::UnitZ(), Vec3::UnitY(), &crank_com);
  m.body("coupler", "crank", JointType::Spherical, b, false, Vec3::UnitZ(), Vec3::UnitY(), &coupler_com);
  m.body("rocker", "ground", JointType::Revolute, d, rocker_actuated, Vec3::UnitY(), Vec3::UnitY(), &rocker_com);
  m.loop("C", LoopType::Spherical, "coupler", c, "rocker", c);
  return m.build();
}

/// Planar 3-RRR parallel robot: base joints A_i on a circle of 0.5 m at 90°, 210°, 330°
/// (actuated), platform joints C_i on a circle of 0.1 m at the same angles, links of 0.3 m
/// (elbows B_i where the two circles of 0.3 m meet). Leg 1 carries the platform; legs 2, 3
/// close on it through cut joints of type `cut` (revolute: spatial, 5 rows; planar-revolute: 2).
inline Model planar_3rrr(LoopType cut) {
  MechanismBuilder m("planar_3rrr");
  Vec3 a[3], bb[3], c[3];
  for (int i = 0; i < 3; ++i) {
    const double angle = 90.0 + 120.0 * i;
    a[i] = at_angle(0.5, angle);
    c[i] = at_angle(0.1, angle);
    const Vec3 half = 0.5 * (c[i] - a[i]);
    const double height = std::sqrt(0.3 * 0.3 - half.squaredNorm());
    bb[i] = a[i] + half + height * Vec3::UnitZ().cross(half).normalized();
  }
  for (int i = 0; i < 3; ++i) {
    const std::string k = std::to_string(i + 1);
    const Vec3 proximal_com = 0.5 * (a[i] + bb[i]), distal_com = 0.5 * (bb[i] + c[i]);
    m.body("proximal" + k, "ground", JointType::Revolute, a[i], true, Vec3::UnitZ(), Vec3::UnitY(), &proximal_com);
    m.body("distal" + k, "proximal" + k, JointType::Revolute, bb[i], false, Vec3::UnitZ(), Vec3::UnitY(), &distal_com);
  }
  const Vec3 centre = Vec3::Zero();
  m.body("platform", "distal1", JointType::Revolute, c[0], false, Vec3::UnitZ(), Vec3::UnitY(), &centre);
  for (int i = 1; i < 3; ++i)
    m.loop("C" + std::to_string(i + 1), cut, "distal" + std::to_string(i + 1), c[i], "platform", c[i]);
  return m.build();
}

/// One U–P–X leg from base point A to platform point C: a lower body on a universal joint
/// at A (passive; axes u1 fixed in the base, u2 in the leg), an upper body on a prismatic
/// joint along the leg (actuated). Returns the name of the upper body.
inline std::string add_up_leg(MechanismBuilder& m, const std::string& k, const Vec3& a, const Vec3& c, const Vec3& u1,
                              const Vec3& u2, JointType base = JointType::Universal) {
  const Vec3 d = (c - a).normalized();
  const double length = (c - a).norm();
  const Vec3 lower_com = a + 0.25 * length * d, upper_com = a + 0.75 * length * d;
  m.body("lower" + k, "ground", base, a, false, u1, u2, &lower_com);
  m.body("upper" + k, "lower" + k, JointType::Prismatic, a + 0.5 * length * d, true, d, Vec3::UnitY(), &upper_com);
  return "upper" + k;
}

/// Gough–Stewart 6-UPS: base points on a circle of 1 m at −15°, 15°, 105°, 135°, 225°, 255°,
/// platform points on a circle of 0.5 m at −45°, 45°, 75°, 165°, 195°, 285°, 1 m higher;
/// base U axes u1 = z × d (horizontal), u2 = d × u1; legs 2–6 close on spherical cut joints.
/// With `spherical_base` the legs are S–P–S (each leg can spin about its own axis).
inline Model stewart_6ups(bool spherical_base = false) {
  MechanismBuilder m(spherical_base ? "stewart_6sps" : "stewart_6ups");
  const double base_angles[6] = {-15, 15, 105, 135, 225, 255}, top_angles[6] = {-45, 45, 75, 165, 195, 285};
  const Vec3 centre(0, 0, 1);
  for (int i = 0; i < 6; ++i) {
    const Vec3 a = at_angle(1.0, base_angles[i]), c = at_angle(0.5, top_angles[i], 1.0);
    const Vec3 d = (c - a).normalized(), u1 = Vec3::UnitZ().cross(d).normalized(), u2 = d.cross(u1);
    const std::string upper = add_up_leg(m, std::to_string(i + 1), a, c, u1, u2,
                                         spherical_base ? JointType::Spherical : JointType::Universal);
    if (i == 0) m.body("platform", upper, JointType::Spherical, c, false, Vec3::UnitZ(), Vec3::UnitY(), &centre);
    else m.loop("S" + std::to_string(i + 1), LoopType::Spherical, upper, c, "platform", c);
  }
  return m.build();
}

/// Tsai's translational 3-UPU: base points on a circle of 0.5 m at 0°, 120°, 240°, platform
/// points on a circle of 0.2 m at the same angles, 0.6 m higher. Base U: u1 tangential
/// (fixed in the base), u2 = d × u1 (in the leg); platform U: u2 (in the leg), then u1 (in
/// the platform) — the intermediate axes parallel and the outer axes parallel.
inline Model tsai_3upu() {
  MechanismBuilder m("tsai_3upu");
  const Vec3 centre(0, 0, 0.6);
  for (int i = 0; i < 3; ++i) {
    const double angle = 120.0 * i;
    const Vec3 a = at_angle(0.5, angle), c = at_angle(0.2, angle, 0.6);
    const Vec3 d = (c - a).normalized(), u1 = at_angle(1.0, angle + 90.0), u2 = d.cross(u1).normalized();
    const std::string upper = add_up_leg(m, std::to_string(i + 1), a, c, u1, u2);
    if (i == 0) m.body("platform", upper, JointType::Universal, c, false, u2, u1, &centre);
    else m.loop("U" + std::to_string(i + 1), LoopType::Universal, upper, c, "platform", c, u2, u1);
  }
  return m.build();
}

/// The 2UPS+2UPU Schoenflies robot (momentum-screw-schoenflies §3.1, Table 1 as read in
/// issue 10): base points on a circle of 0.707 m at −45°, 45°, 135°, 225°; platform points
/// on a circle of 0.212 m at +45°, −45°, −135°, 135° (mirrored), or at the base angles when
/// `singular_layout`; platform centre (0, 0, 1). Limbs 1, 4 U–P–U, limbs 2, 3 U–P–S. Base U:
/// z (in the base), then h = z × d (in the leg); platform U: h (in the leg), then z (in the
/// platform). Limb 1 carries the platform; limbs 2, 3 close on spherical cut joints, limb 4
/// on a universal cut joint.
inline Model schoenflies_2ups_2upu(bool singular_layout) {
  MechanismBuilder m(singular_layout ? "schoenflies_singular" : "schoenflies");
  const double base_angles[4] = {-45, 45, 135, 225};
  const double mirrored[4] = {45, -45, -135, 135};
  const Vec3 centre(0, 0, 1);
  for (int i = 0; i < 4; ++i) {
    const Vec3 a = at_angle(0.707, base_angles[i]);
    const Vec3 c = at_angle(0.212, singular_layout ? base_angles[i] : mirrored[i], 1.0);
    const Vec3 d = (c - a).normalized(), h = Vec3::UnitZ().cross(d).normalized();
    const std::string k = std::to_string(i + 1);
    const std::string upper = add_up_leg(m, k, a, c, Vec3::UnitZ(), h);
    if (i == 0) m.body("platform", upper, JointType::Universal, c, false, h, Vec3::UnitZ(), &centre);
    else if (i == 3) m.loop("U" + k, LoopType::Universal, upper, c, "platform", c, h, Vec3::UnitZ());
    else m.loop("S" + k, LoopType::Spherical, upper, c, "platform", c);
  }
  return m.build();
}

/// The 3UPS-UPU-S of screw-kinematics-3UPS-UPU-S §2 (Tables 1–3 as read in issue 10): base
/// points A_K = R_z((K−1)·90°)(0.8, 0, 0); platform points C_K = R_z((K−1)·90°)(0.5, 0, 3√3/10)
/// (platform frame = world at q = 0, origin at the central spherical joint); chain 1 U–P–U
/// with the axes of eq. (6) (base x, y; platform e₄ ⟂ the leg in its vertical plane, then
/// y), chains 2–4 U–P–S (base U: tangential, then ⟂ the leg), chain 5 the spherical joint.
inline Model ups_upu_s() {
  MechanismBuilder m("3ups_upu_s");
  const Vec3 centre(0, 0, 0.3 * std::sqrt(3.0));
  m.body("platform", "ground", JointType::Spherical, Vec3::Zero(), false, Vec3::UnitZ(), Vec3::UnitY(), &centre);
  for (int k = 0; k < 4; ++k) {
    const Mat3 turn = axis_angle_rotation(Vec3::UnitZ(), k * M_PI / 2);
    const Vec3 a = turn * Vec3(0.8, 0, 0), c = turn * Vec3(0.5, 0, 0.3 * std::sqrt(3.0));
    const Vec3 d = (c - a).normalized();
    const Vec3 radial = turn * Vec3::UnitX(), tangential = turn * Vec3::UnitY();
    const std::string name = std::to_string(k + 1);
    if (k == 0) {
      const Vec3 e4 = tangential.cross(d).normalized();  // (cos θ, 0, sin θ) for chain 1
      const std::string upper = add_up_leg(m, name, a, c, radial, tangential);
      m.loop("U1", LoopType::Universal, upper, c, "platform", c, e4, tangential);
    } else {
      const std::string upper = add_up_leg(m, name, a, c, tangential, d.cross(tangential).normalized());
      m.loop("S" + name, LoopType::Spherical, upper, c, "platform", c);
    }
  }
  return m.build();
}

/// The model as a model file (the subset these builders use).
inline std::string model_yaml(const Model& model) {
  std::ostringstream out;
  out.precision(17);
  auto vec = [&](const Vec3& v) {
    std::ostringstream s;
    s.precision(17);
    s << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
    return s.str();
  };
  auto body_name = [&](int b) { return b == kGround ? std::string("ground") : model.bodies[b].name; };
  out << "mechdyn: 1\nname: " << model.name << "\ngravity: " << vec(model.gravity) << "\nbodies:\n";
  for (int i = 0; i < model.num_bodies(); ++i) {
    const Body& b = model.bodies[i];
    const Joint& j = model.joints[i];
    out << "  - name: " << b.name << "\n    parent: " << body_name(b.parent) << "\n    joint: {name: " << j.name
        << ", type: " << joint_type_name(j.type);
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic) out << ", axis: " << vec(j.axis);
    if (j.type == JointType::Universal) out << ", axes: [" << vec(j.axis) << ", " << vec(j.second_axis) << "]";
    out << ", origin: " << vec(j.origin) << ", actuated: " << (j.actuated ? "true" : "false") << "}\n";
    out << "    mass: " << b.mass << "\n    com: " << vec(b.com) << "\n    inertia: {diag: "
        << vec(b.inertia.diagonal()) << "}\n";
  }
  if (!model.loops.empty()) out << "loops:\n";
  for (const Loop& l : model.loops) {
    out << "  - name: " << l.name << "\n    type: " << loop_type_name(l.type) << "\n    a: {body: " << body_name(l.a.body)
        << ", point: " << vec(l.a.point) << "}\n    b: {body: " << body_name(l.b.body) << ", point: " << vec(l.b.point)
        << "}\n";
    if (l.type == LoopType::Revolute || l.type == LoopType::Prismatic || l.type == LoopType::PlanarRevolute)
      out << "    axis: " << vec(l.axis) << "\n";
    if (l.type == LoopType::Universal) out << "    axes: [" << vec(l.axis) << ", " << vec(l.second_axis) << "]\n";
  }
  return out.str();
}

}  // namespace mechdyn::testing
