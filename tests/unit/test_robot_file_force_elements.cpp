// Robot files and model format 3 (docs/robot-files.md "Force elements, couplings,
// armature"): what URDF <dynamics>/<mimic>/<limit>, SDFormat <axis><dynamics>, MJCF joint
// stiffness/springref/damping/frictionloss/armature/range/solreflimit, <equality><joint>,
// two-site spatial tendons and <position> actuators become, compared with the numbers in
// the XML; the writers' round trips (URDF, MJCF read → write → read, also posed at refs);
// the tiny welded link whose own inertia is not physical; bad input, one line each.
// Catches: a damping read as friction (or dropped), a springref left in degrees, a mimic
// with a and b swapped or its joint still actuated, a coupling offset that ignores the
// joints' refs (MuJoCo's polycoef is about qpos0), a tendon free length taken in the
// written pose instead of MuJoCo's qpos_spring, a servo's gain not scaled by the gear, stops added without being
// asked, an element renamed or lost by a writer, a welded part refused or silently kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/io/sdf.hpp"
#include "mechdyn/io/urdf.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;

const ForceElement& force_named(const Model& model, const std::string& name) {
  for (const ForceElement& f : model.forces)
    if (f.name == name) return f;
  ADD_FAILURE() << "no force element '" << name << "'";
  static const ForceElement none;
  return none;
}

const Coupling* coupling_named(const Model& model, const std::string& name) {
  for (const Coupling& c : model.couplings)
    if (c.name == name) return &c;
  ADD_FAILURE() << "no coupling '" << name << "'";
  return nullptr;
}

std::string joint_name(const Model& model, int joint) {
  return joint < 0 ? std::string("<none>") : model.joints[static_cast<std::size_t>(joint)].name;
}
std::string body_name(const Model& model, int body) {
  return body == kGround ? std::string("ground") : model.bodies[static_cast<std::size_t>(body)].name;
}

bool has_warning(const std::vector<std::string>& warnings, const std::string& a, const std::string& b) {
  for (const std::string& w : warnings)
    if (w.find(a) != std::string::npos && w.find(b) != std::string::npos) return true;
  return false;
}

// Every element and coupling of `a` is in `b` under the same name with the same joints,
// bodies, points and parameters (to `tolerance`); armature and position limits too.
void expect_same_elements(const Model& a, const Model& b, double tolerance) {
  EXPECT_EQ(a.forces.size(), b.forces.size());
  EXPECT_EQ(a.couplings.size(), b.couplings.size());
  auto near = [&](double x, double y) { return x == y || std::abs(x - y) <= tolerance * std::max(1.0, std::abs(x)); };
  for (const ForceElement& f : a.forces) {
    const ForceElement& g = force_named(b, f.name);
    SCOPED_TRACE("force " + f.name);
    EXPECT_EQ(f.type, g.type);
    if (is_joint_element(f.type)) {
      EXPECT_EQ(joint_name(a, f.joint), joint_name(b, g.joint));
    } else {
      EXPECT_EQ(body_name(a, f.a.body), body_name(b, g.a.body));
      EXPECT_EQ(body_name(a, f.b.body), body_name(b, g.b.body));
      EXPECT_LT((f.a.point - g.a.point).norm(), tolerance);
      EXPECT_LT((f.b.point - g.b.point).norm(), tolerance);
    }
    for (const auto& [x, y, what] : {std::tuple{f.stiffness, g.stiffness, "stiffness"},
                                     {f.damping, g.damping, "damping"},
                                     {f.free_length, g.free_length, "free_length"},
                                     {f.preload, g.preload, "preload"},
                                     {f.rest, g.rest, "rest"},
                                     {f.lower, g.lower, "lower"},
                                     {f.upper, g.upper, "upper"},
                                     {f.max_effort, g.max_effort, "max_effort"}})
      EXPECT_TRUE(near(x, y)) << what << ": " << x << " vs " << y;
    EXPECT_EQ(f.target, g.target);
  }
  for (const Coupling& c : a.couplings) {
    const Coupling* d = coupling_named(b, c.name);
    if (d == nullptr) continue;
    SCOPED_TRACE("coupling " + c.name);
    EXPECT_EQ(joint_name(a, c.a), joint_name(b, d->a));
    EXPECT_EQ(joint_name(a, c.b), joint_name(b, d->b));
    EXPECT_TRUE(near(c.ratio, d->ratio)) << c.ratio << " vs " << d->ratio;
    EXPECT_TRUE(near(c.offset, d->offset)) << c.offset << " vs " << d->offset;
  }
  for (const Joint& j : a.joints) {
    const auto k = b.joint_index(j.name);
    ASSERT_TRUE(k.has_value()) << j.name;
    const Joint& jb = b.joints[static_cast<std::size_t>(*k)];
    EXPECT_TRUE(near(j.armature, jb.armature)) << j.name;
    EXPECT_EQ(j.actuated, jb.actuated) << j.name;
    EXPECT_EQ(j.friction.has_value(), jb.friction.has_value()) << j.name;
    if (j.friction && jb.friction) {
      EXPECT_TRUE(near(j.friction->coulomb, jb.friction->coulomb)) << j.name;
      EXPECT_TRUE(near(j.friction->viscous, jb.friction->viscous)) << j.name;
    }
    if (j.limits && std::isfinite(j.limits->lower) && std::isfinite(j.limits->upper)) {
      ASSERT_TRUE(jb.limits.has_value()) << j.name;
      EXPECT_TRUE(near(j.limits->lower, jb.limits->lower)) << j.name;
      EXPECT_TRUE(near(j.limits->upper, jb.limits->upper)) << j.name;
    }
  }
}

// ---- URDF -------------------------------------------------------------------------------

const char* const kInertia = R"(<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>)";

std::string gripper_urdf(const std::string& tiny_inertia = R"(ixx="1e-9" iyy="1e-9" izz="-1e-9")",
                         const std::string& tiny_joint = "fixed") {
  return std::string(R"(<robot name="g">
  <link name="base"><inertial><mass value="1"/>)") + kInertia + R"(</inertial></link>
  <link name="a"><inertial><mass value="1"/>)" + kInertia + R"(</inertial></link>
  <link name="b"><inertial><mass value="1"/>)" + kInertia + R"(</inertial></link>
  <link name="tiny"><inertial><mass value="1e-6"/><inertia )" + tiny_inertia + R"( ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="2" effort="5" velocity="1"/><dynamics damping="0.5" friction="0.25"/></joint>
  <joint name="j2" type="revolute"><parent link="a"/><child link="b"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="5" velocity="1"/><mimic joint="j1" multiplier="-2" offset="0.1"/></joint>
  <joint name="j1_damping" type=")" + tiny_joint + R"("><parent link="b"/><child link="tiny"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="5" velocity="1"/></joint>
</robot>)";
}

TEST(UrdfForceElements, DynamicsMimicAndLimitsBecomeElementsCouplingAndLimits) {
  std::vector<std::string> warnings;
  const Model model = read_urdf(gripper_urdf(R"(ixx="1e-9" iyy="1e-9" izz="1e-9")", "revolute"), "g.urdf", {}, &warnings);
  const int j1 = *model.joint_index("j1"), j2 = *model.joint_index("j2");
  // <dynamics damping="0.5">: a joint damper (stiffness 0); its natural name "j1_damping" is
  // the third joint's, so it is "j1_damping_", with a warning.
  ASSERT_EQ(model.forces.size(), 1u) << "stops were added without being asked";
  const ForceElement& damper = model.forces[0];
  EXPECT_EQ(damper.name, "j1_damping_");
  EXPECT_TRUE(has_warning(warnings, "'j1_damping' is already the name", "'j1_damping_'"));
  EXPECT_EQ(damper.type, ForceElementType::JointSpringDamper);
  EXPECT_EQ(damper.joint, j1);
  EXPECT_EQ(damper.stiffness, 0.0);
  EXPECT_EQ(damper.damping, 0.5);
  EXPECT_EQ(damper.rest, 0.0);
  // friction="0.25": Coulomb effort k_c = 0.25 without load; the damping is not also a viscous friction.
  ASSERT_TRUE(model.joints[j1].friction.has_value());
  EXPECT_EQ(model.joints[j1].friction->model, FrictionModel::CoulombViscous);
  EXPECT_EQ(model.joints[j1].friction->coulomb, 0.25);
  EXPECT_EQ(model.joints[j1].friction->viscous, 0.0);
  EXPECT_FALSE(model.joints[j1].friction->load.has_value());
  // <mimic joint="j1" multiplier="-2" offset="0.1"/> on j2: q_j2 = −2 q_j1 + 0.1, j2 passive.
  ASSERT_EQ(model.couplings.size(), 1u);
  const Coupling& gear = model.couplings[0];
  EXPECT_EQ(gear.name, "j2_mimic");
  EXPECT_EQ(gear.type, CouplingType::Gear);
  EXPECT_EQ(gear.a, j1);
  EXPECT_EQ(gear.b, j2);
  EXPECT_EQ(gear.ratio, -2.0);
  EXPECT_EQ(gear.offset, 0.1);
  EXPECT_FALSE(model.joints[j2].actuated);
  EXPECT_TRUE(model.joints[j1].actuated);
  EXPECT_FALSE(has_warning(warnings, "mimic", "independent joint")) << "the old warning is still given";
  ASSERT_TRUE(model.joints[j2].limits.has_value());
  EXPECT_EQ(model.joints[j2].limits->lower, -1.0);
  EXPECT_EQ(model.joints[j2].limits->upper, 1.0);
}

TEST(UrdfForceElements, LimitStopsOnRequestAtEveryLimitedJoint) {
  ImportOptions options;
  options.limit_stops = LimitStops{2e4, 15.0};
  const Model model = read_urdf(gripper_urdf(), "g.urdf", options);
  // j1 [-1, 2], j2 [-1, 1]; the fixed joint has no coordinate.
  const ForceElement& s1 = force_named(model, "j1_stop");
  const ForceElement& s2 = force_named(model, "j2_stop");
  EXPECT_EQ(s1.type, ForceElementType::JointStop);
  EXPECT_EQ(s1.joint, *model.joint_index("j1"));
  EXPECT_EQ(s1.lower, -1.0);
  EXPECT_EQ(s1.upper, 2.0);
  EXPECT_EQ(s1.stiffness, 2e4);
  EXPECT_EQ(s1.damping, 15.0);
  EXPECT_EQ(s2.joint, *model.joint_index("j2"));
  EXPECT_EQ(s2.upper, 1.0);
  EXPECT_EQ(model.forces.size(), 3u);  // the damper and two stops
}

TEST(UrdfForceElements, WriterWritesDampingFrictionAndMimicBack) {
  const Model model = read_urdf(gripper_urdf(), "g.urdf");
  const std::string text = write_urdf(model);
  EXPECT_NE(text.find(R"(<dynamics damping="0.5" friction="0.25"/>)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(<mimic joint="j1" multiplier="-2" offset="0.1"/>)"), std::string::npos) << text;
  const Model back = read_urdf(text, "back.urdf");
  expect_same_elements(model, back, 0.0);
}

TEST(UrdfForceElements, TinyWeldedLinkWithAnUnphysicalInertiaIsMergedWithAWarning) {
  // izz = −1e-9 kg m² on a 1e-6 kg part: no mass distribution has it, but welded to b
  // (mass 1, 0.1 kg m²) the sum is physical. Loads with b carrying the part's mass.
  std::vector<std::string> warnings;
  const Model model = read_urdf(gripper_urdf(), "g.urdf", {}, &warnings);
  EXPECT_FALSE(model.body_index("tiny").has_value());
  EXPECT_EQ(model.bodies[*model.body_index("b")].mass, 1.0 + 1e-6);
  // b's com moves 1e-6 · 0.5 / (1 + 1e-6) towards the part; izz = 0.1 − 1e-9 + parallel axis.
  const double d = 0.5 / (1.0 + 1e-6);
  // (to 1e-16 m: the merge sums world positions near 1 m)
  EXPECT_NEAR(model.bodies[*model.body_index("b")].com.x(), 1e-6 * d, 1e-16);
  EXPECT_NEAR(model.bodies[*model.body_index("b")].inertia(2, 2),
              0.1 - 1e-9 + 1.0 * (1e-6 * d) * (1e-6 * d) + 1e-6 * std::pow(0.5 - 1e-6 * d, 2),
              1e-15);
  EXPECT_TRUE(has_warning(warnings, "link 'tiny'", "merged into it"));
  bool marker = false;
  for (const Marker& m : model.markers) marker |= m.name == "tiny";
  EXPECT_TRUE(marker);
  // A triangle-violating part (I1 + I2 < I3) is merged the same way, its numbers kept.
  const Model triangle = read_urdf(gripper_urdf(R"(ixx="1e-9" iyy="1e-9" izz="5e-9")"), "g.urdf", {}, &warnings);
  EXPECT_FALSE(triangle.body_index("tiny").has_value());
  // On a moving joint the part is a body of its own: still refused.
  try {
    read_urdf(gripper_urdf(R"(ixx="1e-9" iyy="1e-9" izz="-1e-9")", "revolute"), "g.urdf");
    ADD_FAILURE() << "an indefinite inertia on a moving link was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("g.urdf: link 'tiny': inertia is not positive semi-definite"), std::string::npos)
        << e.what();
  }
  // Welded, but the sum is not physical either: refused, naming the body and the part.
  try {
    read_urdf(gripper_urdf(R"(ixx="1e-9" iyy="1e-9" izz="-1")"), "g.urdf");
    ADD_FAILURE() << "an indefinite merged inertia was accepted";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("g.urdf: link 'b': with the parts welded to it (link 'tiny'", 0), 0u) << message;
    EXPECT_NE(message.find("not positive semi-definite"), std::string::npos) << message;
  }
}

// ---- SDFormat ---------------------------------------------------------------------------

TEST(SdfForceElements, AxisDynamicsBecomesAJointSpringDamperAndCoulombFriction) {
  const std::string sdf = R"(<sdf version="1.9"><model name="m">
  <link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
  <joint name="j" type="revolute"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz>
    <limit><lower>-0.5</lower><upper>0.75</upper></limit>
    <dynamics><damping>0.4</damping><friction>0.2</friction><spring_reference>0.3</spring_reference>
      <spring_stiffness>12</spring_stiffness></dynamics></axis></joint>
</model></sdf>)";
  ImportOptions options;
  options.limit_stops = LimitStops{1e3, 0.0};
  const Model model = read_sdf(sdf, "m.sdf", "", options);
  const int j = *model.joint_index("j");
  const ForceElement& spring = force_named(model, "j_spring");
  EXPECT_EQ(spring.type, ForceElementType::JointSpringDamper);
  EXPECT_EQ(spring.joint, j);
  EXPECT_EQ(spring.stiffness, 12.0);
  EXPECT_EQ(spring.damping, 0.4);
  EXPECT_EQ(spring.rest, 0.3);
  ASSERT_TRUE(model.joints[j].friction.has_value());
  EXPECT_EQ(model.joints[j].friction->coulomb, 0.2);
  EXPECT_EQ(model.joints[j].friction->viscous, 0.0);
  const ForceElement& stop = force_named(model, "j_stop");
  EXPECT_EQ(stop.lower, -0.5);
  EXPECT_EQ(stop.upper, 0.75);
  EXPECT_EQ(stop.stiffness, 1e3);
}

// ---- MJCF -------------------------------------------------------------------------------

// Angles in degrees (MuJoCo's default): range, ref and springref of hinges are converted.
const char* const kMjcf = R"(<mujoco model="fe">
  <worldbody>
    <site name="anchor" pos="0 0 2"/>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" stiffness="20" springref="30" damping="0.7" armature="0.05"
             range="-90 45" limited="true" solreflimit="-5000 -20" frictionloss="0.3"/>
      <inertial pos="0.5 0 0" mass="2" diaginertia="0.01 0.2 0.2"/>
      <site name="mid" pos="0.5 0 0"/>
      <body name="fore" pos="1 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" ref="10" range="-60 60"/>
        <inertial pos="0.4 0 0" mass="1" diaginertia="0.01 0.1 0.1"/>
        <site name="tip" pos="0.8 0 0"/>
      </body>
      <body name="slider" pos="0 0 -0.2">
        <joint name="rail" type="slide" axis="1 0 0" stiffness="100" springref="0.1"/>
        <inertial pos="0 0 0" mass="0.5" diaginertia="0.01 0.01 0.01"/>
      </body>
    </body>
  </worldbody>
  <equality>
    <joint name="gear" joint1="elbow" joint2="shoulder" polycoef="0.1 -0.5 0 0 0"/>
  </equality>
  <tendon>
    <spatial name="cable" stiffness="300" damping="2" springlength="0.9"><site site="anchor"/><site site="mid"/></spatial>
    <spatial name="auto" stiffness="50"><site site="mid"/><site site="tip"/></spatial>
    <spatial name="three" stiffness="50"><site site="anchor"/><site site="mid"/><site site="tip"/></spatial>
  </tendon>
  <actuator>
    <position name="servo" joint="shoulder" kp="40" kv="3" forcelimited="true" forcerange="-15 15"/>
    <position name="geared" joint="rail" kp="10" gear="2"/>
    <motor joint="elbow"/>
  </actuator>
</mujoco>)";

TEST(MjcfForceElements, EveryElementHasTheFilesParameters) {
  std::vector<std::string> warnings;
  const Model model = read_mjcf(kMjcf, "fe.xml", "", {}, &warnings);
  const int shoulder = *model.joint_index("shoulder"), elbow = *model.joint_index("elbow"),
            rail = *model.joint_index("rail");
  const double degree = kPi / 180.0;
  // stiffness 20, springref 30°, damping 0.7: one joint-spring-damper.
  const ForceElement& spring = force_named(model, "shoulder_spring");
  EXPECT_EQ(spring.type, ForceElementType::JointSpringDamper);
  EXPECT_EQ(spring.joint, shoulder);
  EXPECT_EQ(spring.stiffness, 20.0);
  EXPECT_EQ(spring.damping, 0.7);
  EXPECT_NEAR(spring.rest, 30.0 * degree, 1e-15);
  const ForceElement& slide = force_named(model, "rail_spring");  // a slide's springref is a length
  EXPECT_EQ(slide.joint, rail);
  EXPECT_EQ(slide.stiffness, 100.0);
  EXPECT_EQ(slide.rest, 0.1);
  EXPECT_EQ(model.joints[shoulder].armature, 0.05);
  ASSERT_TRUE(model.joints[shoulder].friction.has_value());
  EXPECT_EQ(model.joints[shoulder].friction->coulomb, 0.3);
  EXPECT_EQ(model.joints[shoulder].friction->viscous, 0.0);
  // range -90 45 → limits; solreflimit "-5000 -20" (MuJoCo's direct stiffness, damping) → a stop.
  ASSERT_TRUE(model.joints[shoulder].limits.has_value());
  EXPECT_NEAR(model.joints[shoulder].limits->lower, -kPi / 2, 1e-15);
  EXPECT_NEAR(model.joints[shoulder].limits->upper, kPi / 4, 1e-15);
  const ForceElement& stop = force_named(model, "shoulder_stop");
  EXPECT_EQ(stop.type, ForceElementType::JointStop);
  EXPECT_EQ(stop.lower, model.joints[shoulder].limits->lower);
  EXPECT_EQ(stop.upper, model.joints[shoulder].limits->upper);
  EXPECT_EQ(stop.stiffness, 5000.0);
  EXPECT_EQ(stop.damping, 20.0);
  // The elbow's range (auto-limited) is a limit, not a stop: stops only on request.
  ASSERT_TRUE(model.joints[elbow].limits.has_value());
  EXPECT_NEAR(model.joints[elbow].limits->upper, kPi / 3, 1e-15);
  for (const ForceElement& f : model.forces) EXPECT_NE(f.name, "elbow_stop");
  // elbow − ref_elbow = 0.1 − 0.5 (shoulder − 0): q_elbow = −0.5 q_shoulder + 0.1 + 10°.
  const Coupling* gear = coupling_named(model, "gear");
  ASSERT_NE(gear, nullptr);
  EXPECT_EQ(gear->a, shoulder);
  EXPECT_EQ(gear->b, elbow);
  EXPECT_EQ(gear->ratio, -0.5);
  EXPECT_NEAR(gear->offset, 0.1 + 10.0 * degree, 1e-15);
  // cable: ground (0, 0, 2) to arm's (0.5, 0, 0) (arm's frame: its joint at (0, 0, 1)).
  const ForceElement& cable = force_named(model, "cable");
  EXPECT_EQ(cable.type, ForceElementType::SpringDamper);
  EXPECT_EQ(cable.a.body, kGround);
  EXPECT_TRUE(cable.a.point.isApprox(Vec3(0, 0, 2), 1e-15));
  EXPECT_EQ(body_name(model, cable.b.body), "arm");
  EXPECT_TRUE(cable.b.point.isApprox(Vec3(0.5, 0, 0), 1e-15));
  EXPECT_EQ(cable.stiffness, 300.0);
  EXPECT_EQ(cable.damping, 2.0);
  EXPECT_EQ(cable.free_length, 0.9);
  // auto: no springlength, so the length MuJoCo 2.2.2 takes, at qpos_spring (every joint at
  // its springref: the shoulder's 30° turns both sites alike, the elbow at 0, not at its
  // ref 10°): mid (0.5, 0, 1), tip = (1, 0, 1) + R_y(−10°) (0.8, 0, 0), so
  // L² = 0.5² + 0.8² + 2 · 0.5 · 0.8 cos 10°. Not the length in the written pose (1.3).
  const ForceElement& automatic = force_named(model, "auto");
  const double expected = std::sqrt(0.89 + 0.8 * std::cos(10.0 * degree));
  EXPECT_NEAR(automatic.free_length, expected, 1e-12);
  Data data(model);
  VecX q = VecX::Zero(model.nq), v = VecX::Zero(model.nv);
  q[model.joints[shoulder].q_index] = 30.0 * degree;
  forward_kinematics(model, data, q, v);
  force_elements(model, data, q, v, 0.0);
  const int auto_index = static_cast<int>(&automatic - model.forces.data());
  EXPECT_NEAR(data.element_length[static_cast<std::size_t>(auto_index)], expected, 1e-12);
  // Three sites: skipped with a warning.
  for (const ForceElement& f : model.forces) EXPECT_NE(f.name, "three");
  EXPECT_TRUE(has_warning(warnings, "tendon 'three'", "passes 3 sites"));
  // <position kp="40" kv="3" forcerange="-15 15">: a servo with target "0".
  const ForceElement& servo = force_named(model, "servo");
  EXPECT_EQ(servo.type, ForceElementType::JointServo);
  EXPECT_EQ(servo.joint, shoulder);
  EXPECT_EQ(servo.target, "0");
  EXPECT_EQ(servo.stiffness, 40.0);
  EXPECT_EQ(servo.damping, 3.0);
  EXPECT_EQ(servo.max_effort, 15.0);
  // gear 2: the joint feels 2 · kp (0 − 2 q): stiffness kp gear².
  const ForceElement& geared = force_named(model, "geared");
  EXPECT_EQ(geared.stiffness, 40.0);
  EXPECT_EQ(geared.max_effort, kUnbounded);
  // Every joint has an actuator (the servos count): none passive.
  for (const Joint& j : model.joints) EXPECT_TRUE(j.actuated) << j.name;
}

TEST(MjcfForceElements, ReadWriteReadKeepsEveryParameter) {
  const Model model = read_mjcf(kMjcf, "fe.xml", "");
  std::vector<std::string> warnings;
  const std::string text = write_mjcf(model, {}, &warnings);
  const Model back = read_mjcf(text, "back.xml", "");
  expect_same_elements(model, back, 1e-12);
  // Written posed at q* (joint ref = q*): MuJoCo's polycoef is about the refs, the coupling is not.
  MjcfOptions posed;
  VecX q_star = VecX::Zero(model.nq);
  for (int k = 0; k < model.nq; ++k) q_star[k] = 0.1 * (k + 1);
  posed.reference_configuration = q_star;
  posed.loops_set_by_caller = true;
  const std::string posed_text = write_mjcf(model, posed, &warnings);
  EXPECT_NE(posed_text.find("ref=\""), std::string::npos);
  expect_same_elements(model, read_mjcf(posed_text, "posed.xml", ""), 1e-12);
}

TEST(MjcfForceElements, YamlModelThroughMjcfKeepsEveryParameter) {
  // A model file's elements (not read from MJCF) through the MJCF writer and reader.
  const Model model = load_model_from_string(R"(mechdyn: 3
name: two
bodies:
  - name: l1
    parent: ground
    joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0], armature: 0.02}
    mass: 1
    com: [0.5, 0, 0]
    inertia: {ixx: 0.01, iyy: 0.1, izz: 0.1, ixy: 0, ixz: 0, iyz: 0}
  - name: l2
    parent: l1
    joint: {name: J2, type: prismatic, axis: [1, 0, 0], origin: [1, 0, 0], limits: {lower: -0.2, upper: 0.3}}
    mass: 0.5
    com: [0, 0, 0]
    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01, ixy: 0, ixz: 0, iyz: 0}
forces:
  - {name: J1_spring, type: joint-spring-damper, joint: J1, stiffness: 3.5, damping: 0.25, rest: -0.4}
  - {name: J2_stop, type: joint-stop, joint: J2, lower: -0.2, upper: 0.3, stiffness: 1e5, damping: 7}
  - {name: S, type: spring-damper, a: {body: l2, point: [0.1, 0.2, 0]}, b: {body: ground, point: [2, 1, 0]},
     stiffness: 250, free_length: 0.75, damping: 1.5}
  - {name: drive, type: joint-servo, joint: J2, target: "0", stiffness: 400, damping: 40, max_effort: 50}
couplings:
  - {name: g, type: gear, a: J1, b: J2, ratio: 0.125, offset: -0.01}
)", ModelFormat::Yaml, "two.yaml");
  const Model back = read_mjcf(write_mjcf(model), "two.xml", "");
  expect_same_elements(model, back, 1e-12);
}

// ---- bad input --------------------------------------------------------------------------

void expect_refused(const std::function<void()>& read, const std::string& start, const std::string& problem) {
  try {
    read();
    ADD_FAILURE() << start << ": accepted";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(start, 0), 0u) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(RobotFileForceElementErrors, OneLineNamingFileElementAndProblem) {
  const std::string link = R"(<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)";
  const std::string urdf_head = R"(<robot name="r"><link name="base">)" + link + R"(</link><link name="a">)" + link +
                                R"(</link><link name="b">)" + link + R"(</link>
    <joint name="j1" type="continuous"><parent link="base"/><child link="a"/></joint>)";
  auto urdf = [&](const std::string& second) {
    return [=] { read_urdf(urdf_head + second + "</robot>", "r.urdf"); };
  };
  expect_refused(urdf(R"(<joint name="j2" type="continuous"><parent link="a"/><child link="b"/><mimic joint="j1" multiplier="0"/></joint>)"),
                 "r.urdf: joint 'j2': <mimic joint='j1' multiplier=\"0\">", "non-zero ratio");
  expect_refused(urdf(R"(<joint name="j2" type="fixed"><parent link="a"/><child link="b"/><mimic joint="j1"/></joint>)"),
                 "r.urdf: joint 'j2': <mimic> on a fixed joint", "one coordinate");
  expect_refused(urdf(R"(<joint name="j2" type="continuous"><parent link="a"/><child link="b"/><mimic joint="j2"/></joint>)"),
                 "r.urdf: joint 'j2': <mimic> names the joint itself", "itself");
  expect_refused(
      [&] {
        read_urdf(R"(<robot name="r"><link name="base">)" + link + R"(</link><link name="a">)" + link +
                      R"(</link><link name="b">)" + link + R"(</link>
    <joint name="j1" type="fixed"><parent link="base"/><child link="a"/></joint>
    <joint name="j2" type="continuous"><parent link="a"/><child link="b"/><mimic joint="j1"/></joint></robot>)",
                  "r.urdf");
      },
      "r.urdf: joint 'j2': <mimic joint='j1'>: joint 'j1' is fixed", "one coordinate");
  expect_refused(urdf(R"(<joint name="j2" type="continuous"><parent link="a"/><child link="b"/><dynamics damping="-1"/></joint>)"),
                 "r.urdf: joint 'j2': <dynamics>", "negative damping");

  const std::string mj_head =
      "<mujoco><worldbody><site name='s0' pos='0 0 1'/><body name='a'><joint name='j' type='hinge'/><joint name='k' "
      "type='hinge'/><inertial mass='1' diaginertia='1 1 1'/><site name='s1' pos='1 0 0'/>"
      "<body name='c'><joint name='ball' type='ball'/><inertial mass='1' diaginertia='1 1 1'/></body></body></worldbody>";
  auto mjcf = [&](const std::string& rest) { return [=] { read_mjcf(mj_head + rest + "</mujoco>", "m.xml", ""); }; };
  expect_refused([&] { read_mjcf("<mujoco><worldbody><body name='a'><joint name='j' stiffness='-2'/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>", "m.xml", ""); },
                 "m.xml: joint 'j': ", "stiffness -2 is negative");
  expect_refused(mjcf("<equality><joint name='e' joint1='j'/></equality>"), "m.xml: equality 'e': has no joint2",
                 "no joint lock");
  expect_refused(mjcf("<equality><joint name='e' joint1='nope' joint2='j'/></equality>"),
                 "m.xml: equality 'e': joint1 'nope' is not a joint", "not a joint");
  expect_refused(mjcf("<equality><joint name='e' joint1='k' joint2='j' polycoef='0 0 1 0 0'/></equality>"),
                 "m.xml: equality 'e': polycoef a1 = 0", "locks joint1");
  expect_refused(mjcf("<equality><joint name='e' joint1='ball' joint2='j'/></equality>"),
                 "m.xml: equality 'e': joint1 'ball' is not a hinge or slide joint", "one coordinate");
  expect_refused(mjcf("<tendon><spatial name='t' stiffness='1'><site site='s0'/><site site='gone'/></spatial></tendon>"),
                 "m.xml: tendon 't': site 'gone' is not defined", "not defined");
  expect_refused(mjcf("<tendon><spatial name='t' stiffness='1' springlength='0.1 0.2'><site site='s0'/><site site='s1'/></spatial></tendon>"),
                 "m.xml: tendon 't': springlength gives a dead band", "one free length");
  expect_refused(mjcf("<tendon><spatial name='t' stiffness='-1'><site site='s0'/><site site='s1'/></spatial></tendon>"),
                 "m.xml: tendon 't': stiffness and damping must not be negative", "negative");
  expect_refused(mjcf("<actuator><position name='p' joint='ball' kp='1'/></actuator>"),
                 "m.xml: actuator 'p': drives 'ball', not a hinge or slide joint", "one coordinate");
  expect_refused(mjcf("<actuator><position name='p' joint='j' kp='1' forcelimited='true' forcerange='1 2'/></actuator>"),
                 "m.xml: actuator 'p': forcerange must have a negative lower", "positive upper");
  expect_refused(mjcf("<actuator><position name='p' joint='j' kp='-1'/></actuator>"),
                 "m.xml: actuator 'p': kp and kv must not be negative", "negative");
  expect_refused([&] { read_mjcf("<mujoco><worldbody><body name='a'><joint name='j' range='-1 1' limited='true' solreflimit='-100 1'/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>", "m.xml", ""); },
                 "m.xml: joint 'j': solreflimit", "mixes the direct form");
  expect_refused([&] { read_mjcf("<mujoco><worldbody><body name='a'><joint name='j' armature='-1'/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>", "m.xml", ""); },
                 "m.xml: joint 'j': armature -1 is negative", "negative");

  expect_refused(
      [&] {
        read_sdf(R"(<sdf version="1.9"><model name="m">
  <link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
  <joint name="j" type="revolute"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz>
    <dynamics><spring_stiffness>-3</spring_stiffness></dynamics></axis></joint></model></sdf>)",
                 "m.sdf", "");
      },
      "m.sdf: joint 'j'", "spring_stiffness> -3 is negative");
}

// ---- the command line -------------------------------------------------------------------

TEST(RobotFileForceElementsCli, ConvertAddsLimitStopsOnlyOnRequest) {
  using testing::run_cli;
  const std::string urdf = testing::write_temporary_file("g.urdf", gripper_urdf());
  const std::string yaml = testing::temporary_path("g.yaml");
  const testing::CliResult converted = run_cli("convert " + urdf + " --limit-stops 2e4,15 -o " + yaml);
  ASSERT_EQ(converted.status, 0) << converted.err;
  const Model model = load_model_file(yaml);
  EXPECT_EQ(force_named(model, "j1_stop").stiffness, 2e4);
  EXPECT_EQ(force_named(model, "j2_stop").damping, 15.0);
  ASSERT_EQ(model.couplings.size(), 1u);
  // Without the option: no stops.
  const testing::CliResult plain = run_cli("convert " + urdf + " -o " + yaml);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(load_model_file(yaml).forces.size(), 1u);
  // Bad values: one line, exit 2.
  for (const char* bad : {"0", "1e4,-1", "a", "1,2,3"}) {
    const testing::CliResult r = run_cli("convert " + urdf + " --limit-stops " + bad + " -o " + yaml);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--limit-stops"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(RobotFileForceElementsCli, EvalOfAUrdfWithAMimicAndADamper) {
  // eval of the URDF itself: the damper's −0.5 v in the applied forces, and the mimic as a
  // constraint row g = q_j2 + 2 q_j1 − 0.1 with Jacobian [2, 1] (∂g/∂q_j1 = −ratio).
  const std::string urdf = testing::write_temporary_file("g.urdf", gripper_urdf());
  const testing::CliResult eval = testing::run_cli("eval " + urdf + " --q 0.2,-0.3 --v 0.5,-1 --json");
  ASSERT_EQ(eval.status, 0) << eval.err;
  const auto json = nlohmann::json::parse(eval.out);
  EXPECT_EQ(json["applied_forces"][0].get<double>(), -0.25);
  EXPECT_EQ(json["applied_forces"][1].get<double>(), 0.0);
  if (!json.contains("loops")) GTEST_SKIP() << "couplings are not constraint rows in eval yet (issue 26, constraints)";
  EXPECT_NEAR(json["loops"]["residual"][0].get<double>(), 0.0, 1e-15);
  EXPECT_EQ(json["loops"]["jacobian"][0][0].get<double>(), 2.0);
  EXPECT_EQ(json["loops"]["jacobian"][0][1].get<double>(), 1.0);
}

}  // namespace
}  // namespace mechdyn
