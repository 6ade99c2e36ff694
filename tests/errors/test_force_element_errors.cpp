// Bad input of model format 3 (../shared/spec/force-elements.md, "Bad input"): every case the
// contract lists, and the ones found reading the reader, refused by the library
// (parse_model_string → ModelError naming the source, the element and the problem; the
// same rules for a model built in code, finalize_model) and by `mechdyn eval` (exit status
// 2, one line on standard error naming the file, the element and the problem, nothing on
// standard output). And the run-time failure of a spring-damper whose points coincide:
// SolverError / exit 3, unless it exerts nothing (c = 0 and k L0 = T0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {
namespace {

// The element in a message is the file's path to it: forces[i] 'name' key, couplings[i]
// 'name', bodies[i] 'body' joint.armature (the body's name: the joint's mapping is inside it).
//
// A chain ground –R(J1)– L1 –P(J2)– L2 –S(J3)– L3; `armature1`, `armature3` are appended
// inside J1's and J3's joint mappings, `tail` after the bodies.
std::string model_text(const std::string& tail, int version = 3, const std::string& armature1 = "",
                       const std::string& armature3 = "") {
  return "mechdyn: " + std::to_string(version) +
         "\n"
         "name: fe_bad\n"
         "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - name: L1\n"
         "    parent: ground\n"
         "    joint: {name: J1, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]" + armature1 + "}\n"
         "    mass: 1\n"
         "    com: [0.2, 0, 0]\n"
         "    inertia: {diag: [0.01, 0.01, 0.01]}\n"
         "  - name: L2\n"
         "    parent: L1\n"
         "    joint: {name: J2, type: prismatic, axis: [1, 0, 0], origin: [0.4, 0, 0]}\n"
         "    mass: 1\n"
         "    com: [0.1, 0, 0]\n"
         "    inertia: {diag: [0.01, 0.01, 0.01]}\n"
         "  - name: L3\n"
         "    parent: L2\n"
         "    joint: {name: J3, type: spherical, origin: [0.2, 0, 0]" + armature3 + "}\n"
         "    mass: 1\n"
         "    com: [0, 0, -0.2]\n"
         "    inertia: {diag: [0.01, 0.01, 0.01]}\n" +
         tail;
}

const std::string kState = "--q 0.1,0.2,1,0,0,0 --v 0,0,0,0,0";

struct BadCase {
  std::string label;
  std::string text;                   // the whole model file
  std::vector<std::string> expected;  // substrings of the message: the element, the problem
};

std::string forces(const std::string& entries) { return "forces:\n" + entries; }
const std::string kSpring =
    "  - {name: S1, type: spring-damper, a: {body: L1, point: [0.1, 0, 0]}, b: {body: ground, point: [1, 0, 0]}, ";

std::vector<BadCase> bad_cases() {
  std::vector<BadCase> c;
  auto add = [&](std::string label, std::string text, std::vector<std::string> expected) {
    c.push_back({std::move(label), std::move(text), std::move(expected)});
  };
  // a missing or unknown body or joint
  add("unknown body",
      model_text(forces("  - {name: S1, type: spring-damper, a: {body: L9, point: [0, 0, 0]},"
                        " b: {body: ground, point: [1, 0, 0]}, stiffness: 1, free_length: 0.1}\n")),
      {"'S1'", "unknown body", "L9"});
  add("missing body",
      model_text(forces("  - {name: S1, type: spring-damper, a: {point: [0, 0, 0]},"
                        " b: {body: ground, point: [1, 0, 0]}, stiffness: 1, free_length: 0.1}\n")),
      {"'S1'", "body"});
  add("unknown joint", model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J9, stiffness: 1}\n")),
      {"'K1'", "unknown joint", "J9"});
  add("missing joint", model_text(forces("  - {name: K1, type: joint-spring-damper, stiffness: 1}\n")),
      {"'K1'", "joint"});
  add("applied load on an unknown body",
      model_text(forces("  - {name: load, type: applied, body: nobody, point: [0, 0, 0], force: ['1', '0', '0']}\n")),
      {"'load'", "nobody"});
  // a joint element, armature or coupling on a joint that has not exactly one coordinate
  add("joint element on a ball joint",
      model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J3, stiffness: 1}\n")),
      {"'K1'", "J3", "exactly one"});
  add("stop on a ball joint",
      model_text(forces("  - {name: stop, type: joint-stop, joint: J3, lower: 0, stiffness: 1}\n")),
      {"'stop'", "J3", "exactly one"});
  add("servo on a ball joint",
      model_text(forces("  - {name: servo, type: joint-servo, joint: J3, target: '0', stiffness: 1}\n")),
      {"'servo'", "J3", "exactly one"});
  add("armature on a ball joint", model_text("", 3, "", ", armature: 0.1"), {"'L3' joint.armature", "exactly one"});
  add("coupling of a ball joint",
      model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J3, ratio: 2}\n"), {"'gear'", "J3", "exactly one"});
  // negative stiffness, damping, armature, free length
  add("negative stiffness", model_text(forces(kSpring + "stiffness: -3, free_length: 0.1}\n")),
      {"'S1'", "stiffness", "negative"});
  add("negative damping", model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 1, damping: -0.1}\n")),
      {"'K1'", "damping", "negative"});
  add("negative servo gain", model_text(forces("  - {name: servo, type: joint-servo, joint: J1, target: '0', stiffness: -1}\n")),
      {"'servo'", "stiffness", "negative"});
  add("negative bushing stiffness",
      model_text(forces("  - {name: B1, type: bushing, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]},"
                        " stiffness: [1, 1, 1, 1, -1, 1]}\n")),
      {"'B1'", "stiffness", "negative"});
  add("negative armature", model_text("", 3, ", armature: -0.01"), {"'L1' joint.armature", "negative"});
  add("negative free length", model_text(forces(kSpring + "stiffness: 3, free_length: -0.1}\n")),
      {"'S1'", "free_length", "negative"});
  // lower > upper, a stop with neither
  add("lower above upper",
      model_text(forces("  - {name: stop, type: joint-stop, joint: J1, lower: 1, upper: -1, stiffness: 10}\n")),
      {"'stop'", "lower", "upper"});
  add("stop without sides", model_text(forces("  - {name: stop, type: joint-stop, joint: J1, stiffness: 10}\n")),
      {"'stop'", "lower", "upper"});
  // max_effort ≤ 0
  for (const char* max : {"0", "-5"})
    add(std::string("max_effort ") + max,
        model_text(forces(std::string("  - {name: servo, type: joint-servo, joint: J1, target: '0', stiffness: 1, max_effort: ") +
                          max + "}\n")),
        {"'servo'", "max_effort", "positive"});
  // a coupling of a joint with itself or with ratio 0
  add("coupling with itself", model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J1, ratio: 2}\n"),
      {"'gear'", "itself"});
  add("coupling ratio 0", model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J2, ratio: 0}\n"),
      {"'gear'", "ratio", "0"});
  // an expression that does not parse
  add("servo target",
      model_text(forces("  - {name: servo, type: joint-servo, joint: J1, target: 'sin(', stiffness: 1}\n")),
      {"'servo'", "target", "does not parse"});
  add("servo target_rate",
      model_text(forces("  - {name: servo, type: joint-servo, joint: J1, target: 't', target_rate: 'cos(2*t', stiffness: 1}\n")),
      {"'servo'", "target_rate", "does not parse"});
  add("applied force variable",
      model_text(forces("  - {name: load, type: applied, body: L3, point: [0, 0, 0], force: ['2*x', '0', '0']}\n")),
      {"'load'", "force", "does not parse"});
  add("applied torque",
      model_text(forces("  - {name: load, type: applied, body: L3, point: [0, 0, 0], torque: ['0', '1+', '0']}\n")),
      {"'load'", "torque", "does not parse"});
  // a non-finite number
  add("infinite stiffness", model_text(forces(kSpring + "stiffness: .inf, free_length: 0.1}\n")), {"'S1'", "stiffness"});
  add("NaN preload", model_text(forces(kSpring + "stiffness: 1, free_length: 0.1, preload: .nan}\n")), {"'S1'", "preload"});
  add("NaN rest", model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 1, rest: .nan}\n")),
      {"'K1'", "rest"});
  add("NaN lower", model_text(forces("  - {name: stop, type: joint-stop, joint: J1, lower: .nan, stiffness: 10}\n")),
      {"'stop'", "lower"});
  add("infinite max_effort",
      model_text(forces("  - {name: servo, type: joint-servo, joint: J1, target: '0', stiffness: 1, max_effort: .inf}\n")),
      {"'servo'", "max_effort"});
  add("NaN bushing damping",
      model_text(forces("  - {name: B1, type: bushing, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]},"
                        " stiffness: [1, 1, 1, 1, 1, 1], damping: [0, 0, .nan, 0, 0, 0]}\n")),
      {"'B1'", "damping"});
  add("NaN point",
      model_text(forces("  - {name: S1, type: spring-damper, a: {body: L1, point: [0, .nan, 0]},"
                        " b: {body: ground, point: [1, 0, 0]}, stiffness: 1, free_length: 0.1}\n")),
      {"'S1'", "point"});
  add("infinite ratio", model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J2, ratio: .inf}\n"),
      {"'gear'", "ratio"});
  add("infinite armature", model_text("", 3, ", armature: .inf"), {"'L1' joint.armature", "finite"});
  // a duplicate name
  add("two elements", model_text(forces(kSpring + "stiffness: 1, free_length: 0.1}\n" + kSpring +
                                        "stiffness: 2, free_length: 0.1}\n")),
      {"S1", "duplicate"});
  add("element named as a joint",
      model_text(forces("  - {name: J2, type: joint-spring-damper, joint: J1, stiffness: 1}\n")), {"J2", "duplicate"});
  add("coupling named as an element",
      model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 1}\n") +
                 "couplings:\n  - {name: K1, type: gear, a: J1, b: J2, ratio: 2}\n"),
      {"K1", "duplicate"});
  // an unknown type
  add("unknown element type", model_text(forces("  - {name: X, type: spring, joint: J1, stiffness: 1}\n")),
      {"'X'", "unknown", "spring"});
  add("unknown coupling type", model_text("couplings:\n  - {name: belt, type: belt, a: J1, b: J2, ratio: 2}\n"),
      {"'belt'", "unknown", "belt"});
  // any version-3 block in a version-1 or 2 file
  for (int version : {1, 2}) {
    const std::string v = "mechdyn: " + std::to_string(version);
    add("forces in " + v, model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 1}\n"), version),
        {"forces", v, "3"});
    add("couplings in " + v, model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J2, ratio: 2}\n", version),
        {"couplings", v, "3"});
    add("armature in " + v, model_text("", version, ", armature: 0.01"), {"armature", v, "3"});
  }
  // found reading the reader and the contract
  add("applied load on ground",
      model_text(forces("  - {name: load, type: applied, body: ground, point: [0, 0, 0], force: ['1', '0', '0']}\n")),
      {"'load'", "ground"});
  add("spring-damper on one body",
      model_text(forces("  - {name: S1, type: spring-damper, a: {body: L1, point: [0, 0, 0]}, b: {body: L1, point: [1, 0, 0]},"
                        " stiffness: 1, free_length: 0.1}\n")),
      {"'S1'", "same body"});
  add("bushing with five stiffnesses",
      model_text(forces("  - {name: B1, type: bushing, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]},"
                        " stiffness: [1, 1, 1, 1, 1]}\n")),
      {"'B1'", "stiffness", "6"});
  add("spring without stiffness", model_text(forces(kSpring + "free_length: 0.1}\n")), {"'S1'", "stiffness"});
  add("spring without free length", model_text(forces(kSpring + "stiffness: 1}\n")), {"'S1'", "free_length"});
  add("servo without target", model_text(forces("  - {name: servo, type: joint-servo, joint: J1, stiffness: 1}\n")),
      {"'servo'", "target"});
  add("applied without force or torque",
      model_text(forces("  - {name: load, type: applied, body: L1, point: [0, 0, 0]}\n")), {"'load'", "force"});
  add("applied force of two components",
      model_text(forces("  - {name: load, type: applied, body: L1, point: [0, 0, 0], force: ['1', '0']}\n")),
      {"'load'", "force", "3"});
  add("element without name", model_text(forces("  - {type: joint-spring-damper, joint: J1, stiffness: 1}\n")),
      {"forces[0]", "name"});
  add("forces not a list", model_text("forces: 5\n"), {"forces", "list"});
  add("coupling of an unknown joint", model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J7, ratio: 2}\n"),
      {"'gear'", "J7"});
  add("coupling without ratio", model_text("couplings:\n  - {name: gear, type: gear, a: J1, b: J2}\n"),
      {"'gear'", "ratio"});
  add("armature on a fixed joint",
      "mechdyn: 3\nname: f\nbodies:\n  - name: L1\n    parent: ground\n"
      "    joint: {name: J1, type: fixed, origin: [0, 0, 0], armature: 0.1}\n    mass: 1\n    com: [0, 0, 0]\n"
      "    inertia: {diag: [0.01, 0.01, 0.01]}\n",
      {"'L1' joint.armature", "exactly one"});
  return c;
}

std::string one_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

// Catches: a bad value accepted (NaN stiffness simulated as NaN forces, a stop that never
// acts, a zero gear ratio making a singular row, a joint element silently on the first of a
// ball joint's coordinates), a message without the element or the problem.
TEST(ForceElementErrors, LibraryRefusesEveryBadInputNamingElementAndProblem) {
  for (const BadCase& c : bad_cases()) {
    try {
      parse_model_string(c.text, "<bad.yaml>");
      ADD_FAILURE() << c.label << ": accepted";
    } catch (const ModelError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("<bad.yaml>"), std::string::npos) << c.label << ": " << message;
      for (const std::string& s : c.expected)
        EXPECT_NE(message.find(s), std::string::npos) << c.label << ": no '" << s << "' in: " << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << c.label << ": one line: " << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.label << ": not a ModelError: " << e.what();
    }
  }
}

TEST(ForceElementErrors, EvalExitsTwoWithOneLineNamingFileElementAndProblem) {
  for (const BadCase& c : bad_cases()) {
    const std::string path = testing::write_temporary_file("bad_force.yaml", c.text);
    const testing::CliResult r = testing::run_cli("eval " + path + " " + kState + " --json");
    EXPECT_EQ(r.status, 2) << c.label << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.label << ": " << r.out;
    const std::string err = one_line(r.err);
    const std::string last = err.substr(err.rfind('\n') == std::string::npos ? 0 : err.rfind('\n') + 1);
    EXPECT_NE(last.find(path), std::string::npos) << c.label << ": " << r.err;
    for (const std::string& s : c.expected)
      EXPECT_NE(last.find(s), std::string::npos) << c.label << ": no '" << s << "' in: " << last;
    // only warnings may come before the error line
    if (err.find('\n') != std::string::npos) {
      std::size_t start = 0;
      while (true) {
        const std::size_t end = err.find('\n', start);
        if (end == std::string::npos) break;
        EXPECT_EQ(err.compare(start, 17, "mechdyn: warning:"), 0) << c.label << ": " << err;
        start = end + 1;
      }
    }
    std::remove(path.c_str());
  }
}

// The same rules for a model built in code: finalize_model refuses it.
TEST(ForceElementErrors, FinalizeModelRefusesBadElementsBuiltInCode) {
  const Model base = parse_model_string(model_text(""), "<base>");
  auto refused = [&](const std::string& label, const std::function<void(Model&)>& edit,
                     const std::vector<std::string>& expected) {
    Model m = base;
    edit(m);
    try {
      finalize_model(m, "code");
      ADD_FAILURE() << label << ": accepted";
    } catch (const ModelError& e) {
      for (const std::string& s : expected)
        EXPECT_NE(std::string(e.what()).find(s), std::string::npos) << label << ": " << e.what();
    }
  };
  auto joint_element = [](ForceElementType type, int joint) {
    ForceElement e;
    e.name = "E";
    e.type = type;
    e.joint = joint;
    e.stiffness = 1.0;
    return e;
  };
  refused("negative stiffness", [&](Model& m) {
    ForceElement e = joint_element(ForceElementType::JointSpringDamper, 0);
    e.stiffness = -1;
    m.forces.push_back(e);
  }, {"'E'", "stiffness"});
  refused("NaN damping", [&](Model& m) {
    ForceElement e = joint_element(ForceElementType::JointSpringDamper, 0);
    e.damping = std::nan("");
    m.forces.push_back(e);
  }, {"'E'"});
  refused("ball joint", [&](Model& m) { m.forces.push_back(joint_element(ForceElementType::JointSpringDamper, 2)); },
          {"'E'", "exactly one"});
  refused("stop without sides", [&](Model& m) { m.forces.push_back(joint_element(ForceElementType::JointStop, 0)); },
          {"'E'", "lower"});
  refused("lower above upper", [&](Model& m) {
    ForceElement e = joint_element(ForceElementType::JointStop, 0);
    e.lower = 1, e.upper = 0;
    m.forces.push_back(e);
  }, {"'E'", "lower"});
  refused("max_effort 0", [&](Model& m) {
    ForceElement e = joint_element(ForceElementType::JointServo, 0);
    e.target = "t";
    e.max_effort = 0;
    m.forces.push_back(e);
  }, {"'E'", "max_effort"});
  refused("negative armature", [&](Model& m) { m.joints[0].armature = -1; }, {"J1", "armature"});
  refused("armature on a ball joint", [&](Model& m) { m.joints[2].armature = 0.1; }, {"J3", "armature"});
  refused("duplicate of a joint name", [&](Model& m) {
    ForceElement e = joint_element(ForceElementType::JointSpringDamper, 0);
    e.name = "J2";
    m.forces.push_back(e);
  }, {"J2", "duplicate"});
  refused("coupling ratio 0", [&](Model& m) {
    Coupling c;
    c.name = "g", c.a = 0, c.b = 1, c.ratio = 0;
    m.couplings.push_back(c);
  }, {"'g'", "ratio"});
  refused("coupling with itself", [&](Model& m) {
    Coupling c;
    c.name = "g", c.a = 1, c.b = 1, c.ratio = 2;
    m.couplings.push_back(c);
  }, {"'g'", "itself"});
  refused("negative free length", [&](Model& m) {
    ForceElement e;
    e.name = "S";
    e.a = {0, Vec3(0.1, 0, 0)};
    e.b = {kGround, Vec3(1, 0, 0)};
    e.stiffness = 1, e.free_length = -1;
    m.forces.push_back(e);
  }, {"'S'", "free_length"});
}

// ---- a spring-damper whose points coincide --------------------------------------------
// Its direction is undefined: a run-time error (SolverError, exit 3) when it would exert a
// force, i.e. unless c = 0 and T(L = 0) = −k L0 + T0 = 0. Point a is on J1's axis (on L1 at
// its origin, the world origin), b the ground point there: L = 0 at every q.
std::string coincident(const std::string& parameters) {
  return model_text(forces("  - {name: S1, type: spring-damper, a: {body: L1, point: [0, 0, 0]},"
                           " b: {body: ground, point: [0, 0, 0]}, " + parameters + "}\n"));
}

TEST(ForceElementErrors, CoincidentSpringDamperPointsFailAtRunTimeUnlessItExertsNothing) {
  const VecX q = (VecX(6) << 0.4, 0.2, 1, 0, 0, 0).finished(), v = VecX::Constant(5, 0.3);
  // k L0 = 100 · 0.1 = 10 ≠ T0 = 0; then k L0 = T0 but c = 1
  for (const char* parameters : {"stiffness: 100, free_length: 0.1", "stiffness: 100, free_length: 0.1, preload: 10, damping: 1"}) {
    const Model model = parse_model_string(coincident(parameters), "<coincident>");
    Data data(model);
    EXPECT_THROW(force_elements(model, data, q, v, 0.0), SolverError) << parameters;
    const std::string path = testing::write_temporary_file("coincident.yaml", coincident(parameters));
    const testing::CliResult r = testing::run_cli("eval " + path + " " + kState + " --a 0,0,0,0,0 --json");
    EXPECT_EQ(r.status, 3) << parameters << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("S1"), std::string::npos) << r.err;
    EXPECT_EQ(one_line(r.err).find('\n'), std::string::npos) << "one line: " << r.err;
    std::remove(path.c_str());
  }
  // c = 0 and k L0 = T0: T = 0 at L = 0, nothing exerted, fine
  const std::string text = coincident("stiffness: 100, free_length: 0.1, preload: 10");
  const Model model = parse_model_string(text, "<coincident>");
  Data data(model);
  force_elements(model, data, q, v, 0.0);
  EXPECT_TRUE(data.applied_force.isZero(0.0)) << data.applied_force.transpose();
  const std::string path = testing::write_temporary_file("coincident_ok.yaml", text);
  const testing::CliResult r = testing::run_cli("eval " + path + " " + kState + " --a 0,0,0,0,0 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  for (double x : out.at("applied_forces")) EXPECT_EQ(x, 0.0);
  std::remove(path.c_str());
}


// ---- time functions at run time --------------------------------------------------------
// An applied load whose expression is not finite at the given t (1/(t − 1) at t = 1,
// sqrt(t − 2) at t = 0.5): InvalidArgument in the library, exit 2 from eval, the message
// naming the element ('load').
TEST(ForceElementErrors, NonFiniteTimeFunctionNamesTheElement) {
  // BUG (force_elements / the Data's TimeExpressions "forces", src/model/data.cpp): the
  // message names the position of the expression among the Data's time functions, not the
  // element: here the load is forces[2] of the file, and `mechdyn eval --t 1` says
  // "forces[1] '1/(t-1)' is not finite at t = 1 s", `--t 0.5` "forces[3] 'sqrt(t-2)' ..."
  // (the servo's target is expression 0, the load's components 1–6); 'load' is not named.
  // Exit status 2 is right. Remove the skip once fixed.
  const std::string text =
      model_text(forces("  - {name: K1, type: joint-spring-damper, joint: J1, stiffness: 1}\n"
                        "  - {name: servo, type: joint-servo, joint: J2, target: '0.1*t', stiffness: 1}\n"
                        "  - {name: load, type: applied, body: L3, point: [0, 0, 0], force: ['1/(t-1)', '0', 'sqrt(t-2)']}\n"));
  const Model model = parse_model_string(text, "<load>");
  Data data(model);
  const VecX q = (VecX(6) << 0.1, 0.2, 1, 0, 0, 0).finished(), v = VecX::Zero(5);
  for (const double t : {1.0, 0.5}) {
    try {
      force_elements(model, data, q, v, t);
      ADD_FAILURE() << "t = " << t << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("'load'"), std::string::npos) << e.what();
    }
    const std::string path = testing::write_temporary_file("nonfinite_load.yaml", text);
    const testing::CliResult r = testing::run_cli("eval " + path + " " + kState + " --t " + std::to_string(t) + " --json");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("'load'"), std::string::npos) << r.err;
    std::remove(path.c_str());
  }
}

// `--t` must be a finite number: exit 2 naming --t.
TEST(ForceElementErrors, EvalRefusesANonFiniteTime) {
  const std::string path = testing::write_temporary_file(
      "servo_time.yaml", model_text(forces("  - {name: servo, type: joint-servo, joint: J1, target: '0.5*sin(2*t)', stiffness: 1}\n")));
  const testing::CliResult word = testing::run_cli("eval " + path + " " + kState + " --t abc --json");
  EXPECT_EQ(word.status, 2) << word.err;
  EXPECT_NE(word.err.find("--t"), std::string::npos) << word.err;
  // BUG (apps/mechdyn/eval_command.cpp, --t): CLI::Number lets nan, inf and 1e400 through.
  // With a servo: exit 2 but the message blames the expression ("forces[0] '0.5*sin(2*t)'
  // changes t" for nan, "... is not finite at t = inf s" for inf); without time functions the
  // model is evaluated and exit status 0 (`eval five_axis_tree.yaml --t nan`). Remove the
  // skip once fixed.
  for (const char* t : {"nan", "inf", "-inf", "1e400"}) {
    const testing::CliResult r = testing::run_cli("eval " + path + " " + kState + " --t " + t + " --json");
    EXPECT_EQ(r.status, 2) << t << "\n" << r.err;
    EXPECT_NE(r.err.find("--t"), std::string::npos) << t << ": " << r.err;
    const testing::CliResult plain =
        testing::run_cli("eval " + testing::source_path("examples/models/five_axis_tree.yaml") +
                         " --q 0,0,0,0,0 --t " + t + " --json");
    EXPECT_EQ(plain.status, 2) << t << "\n" << plain.err;
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace mechdyn
