// The model-file reader on bad input: one case per check of docs/model-file.md.
// Each case is an inline model that breaks exactly one rule; the test asserts a
// ModelError whose message is one line "<source>: <element>: <problem>", starting
// with the source name, naming the element, and saying what is wrong.
// Catches: a check that is missing (no throw, or a throw of another type, e.g. a raw
// YAML::Exception), a message that lost the file or element, a multi-line message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

struct BadModel {
  const char* case_name;               // also the gtest name
  const char* yaml;                    // the bad file
  std::vector<std::string> must_contain;  // element and key words of the problem
};

// A valid body line used by most cases, so each case only shows what breaks.
#define HEAD "mechdyn: 1\nname: bad\nbodies:\n"
#define L1 "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n"
#define L2 "  - {name: L2, parent: L1, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n"

const BadModel kCases[] = {
    // ---- the document --------------------------------------------------------------------
    {"YamlSyntaxError", "mechdyn: 1\nname: [unclosed\nbodies: []\n", {"line 3", "YAML syntax error"}},
    {"YamlBadIndentation", "mechdyn: 1\nname: x\n  bodies: 3\n", {"line 3", "YAML syntax error"}},
    {"EmptyDocument", "", {"document", "empty"}},
    {"DocumentNotAMapping", "- 1\n- 2\n", {"document", "mapping"}},
    {"DuplicateKey", "mechdyn: 1\nname: a\nname: b\nbodies:\n" L1, {"document", "'name'", "twice"}},
    {"MissingVersion", "name: bad\nbodies:\n" L1, {"mechdyn", "missing required key 'mechdyn'"}},
    {"WrongVersion", "mechdyn: 4\nname: bad\nbodies:\n" L1, {"mechdyn", "unsupported format version 4"}},
    {"VersionNotAnInteger", "mechdyn: one\nname: bad\nbodies:\n" L1, {"mechdyn", "integer 1, 2 or 3", "'one'"}},
    {"MissingName", "mechdyn: 1\nbodies:\n" L1, {"name", "missing required key 'name'"}},
    {"MissingBodies", "mechdyn: 1\nname: bad\n", {"bodies", "missing required key 'bodies'"}},
    {"EmptyBodies", "mechdyn: 1\nname: bad\nbodies: []\n", {"bodies", "non-empty"}},
    {"BodyNotAMapping", HEAD "  - 3\n", {"bodies[0]", "mapping"}},
    {"GravityWrongLength", "mechdyn: 1\nname: bad\ngravity: [0, -9.81]\nbodies:\n" L1,
     {"gravity", "3 numbers", "got 2"}},
    {"GravityNotFinite", "mechdyn: 1\nname: bad\ngravity: [0, 0, .inf]\nbodies:\n" L1,
     {"gravity[2]", "finite", "'.inf'"}},

    // ---- bodies ------------------------------------------------------------------------------
    {"BodyWithoutName", HEAD "  - {parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0]", "missing required key 'name'"}},
    {"BodyNamedGround", HEAD "  - {name: ground, parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] name", "reserved"}},
    {"DuplicateBodyName", HEAD L1 "  - {name: L1, parent: ground, joint: {name: J, type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[1] 'L1' name", "duplicate body name", "bodies[0]"}},
    {"MissingParent", HEAD "  - {name: L1, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1'", "missing required key 'parent'"}},
    {"UnknownParent", HEAD L1 "  - {name: L2, parent: Lx, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[1] 'L2' parent", "unknown body 'Lx'"}},
    {"ParentDefinedLater", HEAD "  - {name: L2, parent: L1, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n" L1,
     {"bodies[0] 'L2' parent", "'L1' is defined later", "bodies[1]"}},
    {"OwnParent", HEAD "  - {name: L1, parent: L1, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' parent", "own parent"}},
    {"MissingJoint", HEAD "  - {name: L1, parent: ground, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1'", "missing required key 'joint'"}},
    {"MissingMass", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1'", "missing required key 'mass'"}},
    {"NegativeMass", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: -1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' mass", "must be positive", "'-1'"}},
    {"MasslessLeaf", HEAD L1 "  - {name: L2, parent: L1, joint: {type: revolute, axis: [0, 0, 1]}, mass: 0}\n",
     {"bodies[1] 'L2' mass", "massless body", "carries a child"}},
    {"MassNotANumber", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: heavy, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' mass", "must be a number", "'heavy'"}},
    {"MassQuoted", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: \"3\", inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' mass", "must be a number", "quoted string"}},
    {"MassNaN", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: .nan, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' mass", "finite", "'.nan'"}},
    {"ComWrongLength", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, com: [1, 2], inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' com", "3 numbers", "got 2"}},
    {"ComNotAList", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, com: 0.5, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' com", "list of 3 numbers", "'0.5'"}},
    {"ComInfinite", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, com: [0, -.inf, 0], inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' com[1]", "finite"}},
    {"MissingInertia", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1}\n",
     {"bodies[0] 'L1'", "missing required key 'inertia'"}},
    {"InertiaTwoForms", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [1, 1, 1], ixx: 1}}\n",
     {"bodies[0] 'L1' inertia", "exactly one of"}},
    {"InertiaMissingDiagonalEntry", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {ixx: 1, iyy: 1, ixy: 0.1}}\n",
     {"bodies[0] 'L1' inertia", "missing required key 'izz'"}},
    {"InertiaNotPSD", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [-0.1, 1, 1]}}\n",
     {"bodies[0] 'L1'", "positive semi-definite"}},
    {"InertiaEntriesNotPSD", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1.5, ixy: 2}}\n",
     {"bodies[0] 'L1'", "positive semi-definite"}},
    {"InertiaNotSymmetric", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {matrix: [[1, 0.1, 0], [0, 1, 0], [0, 0, 1]]}}\n",
     {"bodies[0] 'L1'", "not symmetric"}},
    {"InertiaTriangleInequality", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {diag: [0.1, 0.1, 0.3]}}\n",
     {"bodies[0] 'L1'", "triangle inequality"}},
    {"InertiaEntryNotANumber", HEAD "  - {name: L1, parent: ground, joint: {type: fixed}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1, ixy: small}}\n",
     {"bodies[0] 'L1' inertia.ixy", "must be a number", "'small'"}},

    // ---- joints ------------------------------------------------------------------------------
    {"MissingJointType", HEAD "  - {name: L1, parent: ground, joint: {axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint", "missing required key 'type'"}},
    {"UnknownJointType", HEAD "  - {name: L1, parent: ground, joint: {type: hinge, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.type", "unknown joint type 'hinge'"}},
    {"DuplicateJointName", HEAD "  - {name: L1, parent: ground, joint: {name: J, type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n"
                               "  - {name: L2, parent: L1, joint: {name: J, type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[1] 'L2' joint.name", "duplicate joint name 'J'"}},
    {"DefaultJointNameClash", HEAD "  - {name: L1, parent: ground, joint: {name: L2, type: fixed}, mass: 1, inertia: {diag: [1, 1, 1]}}\n" L2,
     {"bodies[1] 'L2' joint.name", "duplicate joint name 'L2'"}},
    {"ZeroAxis", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axis", "zero vector"}},
    {"AxisNotNumeric", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, z]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axis[2]", "must be a number", "'z'"}},
    {"AxisWrongLength", HEAD "  - {name: L1, parent: ground, joint: {type: prismatic, axis: [0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axis", "3 numbers", "got 2"}},
    {"MissingAxis", HEAD "  - {name: L1, parent: ground, joint: {type: revolute}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint", "missing required key 'axis'", "revolute"}},
    {"AxesForRevolute", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axes: [[1, 0, 0], [0, 1, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axes", "one axis"}},
    {"AxisForUniversal", HEAD "  - {name: L1, parent: ground, joint: {type: universal, axis: [1, 0, 0]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axis", "two axes"}},
    {"MissingAxesForUniversal", HEAD "  - {name: L1, parent: ground, joint: {type: universal}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint", "missing required key 'axes'"}},
    {"UniversalOneAxis", HEAD "  - {name: L1, parent: ground, joint: {type: universal, axes: [[1, 0, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axes", "list of 2 axes", "a list of 1"}},
    {"UniversalParallelAxes", HEAD "  - {name: L1, parent: ground, joint: {type: universal, axes: [[1, 0, 0], [-2, 0, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axes", "parallel"}},
    {"UniversalZeroSecondAxis", HEAD "  - {name: L1, parent: ground, joint: {type: universal, axes: [[1, 0, 0], [0, 0, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axes[1]", "zero vector"}},
    {"AxisForSpherical", HEAD "  - {name: L1, parent: ground, joint: {type: spherical, axis: [0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axis", "spherical joint takes no axis"}},
    {"AxesForFree", HEAD "  - {name: L1, parent: ground, joint: {type: free, axes: [[1, 0, 0], [0, 1, 0]]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.axes", "free joint takes no axes"}},
    {"OriginWrongLength", HEAD "  - {name: L1, parent: ground, joint: {type: fixed, origin: [0, 0, 0, 1]}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.origin", "3 numbers", "got 4"}},
    {"ActuatedNotBoolean", HEAD "  - {name: L1, parent: ground, joint: {type: fixed, actuated: maybe}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.actuated", "true or false", "'maybe'"}},

    // ---- friction ----------------------------------------------------------------------------
    {"UnknownFrictionModel", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: dahl, coulomb: 0.1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.model", "unknown friction model 'dahl'"}},
    {"MissingFrictionModel", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {coulomb: 0.1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "missing required key 'model'"}},
    {"MissingCoulomb", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: coulomb_viscous, viscous: 0.1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "missing required key 'coulomb'"}},
    {"NegativeCoulomb", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: coulomb_viscous, coulomb: -0.1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.coulomb", "negative", "'-0.1'"}},
    {"NegativeViscous", HEAD "  - {name: L1, parent: ground, joint: {type: prismatic, axis: [0, 0, 1], friction: {model: coulomb_viscous, coulomb: 0.1, viscous: -1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.viscous", "negative"}},
    {"StaticBelowCoulombStribeck", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: stribeck, coulomb: 0.05, static: 0.005, stribeck_velocity: 0.03}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.static", "below coulomb", "stribeck"}},
    {"StaticBelowCoulombLuGre", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: lugre, coulomb: 0.05, static: 0.01, stribeck_velocity: 0.03, bristle_stiffness: 100, bristle_damping: 1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.static", "below coulomb", "lugre"}},
    {"StaticBelowCoulombBrownMcPhee", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: brown_mcphee, coulomb: 0.05, static: 0.01, stribeck_velocity: 0.03}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.static", "below coulomb", "brown_mcphee"}},
    {"MissingStatic", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: stribeck, coulomb: 0.05, stribeck_velocity: 0.03}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "missing required key 'static'"}},
    {"MissingStribeckVelocity", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: stribeck, coulomb: 0.005, static: 0.05}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "missing required key 'stribeck_velocity'"}},
    {"ZeroStribeckVelocity", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: stribeck, coulomb: 0.005, static: 0.05, stribeck_velocity: 0}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.stribeck_velocity", "must be positive"}},
    {"LuGreMissingStiffness", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: lugre, coulomb: 0.005, static: 0.05, stribeck_velocity: 0.03, bristle_damping: 1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "missing required key 'bristle_stiffness'"}},
    {"LuGreNegativeDamping", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: lugre, coulomb: 0.005, static: 0.05, stribeck_velocity: 0.03, bristle_stiffness: 100, bristle_damping: -1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.bristle_damping", "negative"}},
    {"LoadArmNotPositive", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: coulomb_viscous, coulomb: 0.1, load: {pin_radius: 0.01, bending_arm: 0, friction_arm: 0.01}}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.load.bending_arm", "must be positive"}},
    {"LoadPinRadiusNegative", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: coulomb_viscous, coulomb: 0.1, load: {pin_radius: -0.01, bending_arm: 0.02, friction_arm: 0.01}}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.load.pin_radius", "must be positive"}},
    {"LoadMissingArm", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: {model: coulomb_viscous, coulomb: 0.1, load: {pin_radius: 0.01, bending_arm: 0.02}}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction.load", "missing required key 'friction_arm'"}},
    {"FrictionOnSphericalJoint", HEAD "  - {name: L1, parent: ground, joint: {type: spherical, friction: {model: coulomb_viscous, coulomb: 0.1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "only for revolute and prismatic"}},
    {"FrictionNotAMapping", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], friction: stribeck}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.friction", "must be a mapping"}},

    // ---- limits -------------------------------------------------------------------------------
    {"LimitsLowerAboveUpper", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], limits: {lower: 1, upper: -1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.limits", "lower", "above upper"}},
    {"LimitsEffortNotPositive", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], limits: {effort: 0}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.limits.effort", "must be positive"}},
    {"LimitsInfinite", HEAD "  - {name: L1, parent: ground, joint: {type: revolute, axis: [0, 0, 1], limits: {upper: .inf}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.limits.upper", "finite"}},
    {"LimitsOnFreeJoint", HEAD "  - {name: L1, parent: ground, joint: {type: free, limits: {effort: 1}}, mass: 1, inertia: {diag: [1, 1, 1]}}\n",
     {"bodies[0] 'L1' joint.limits", "only for revolute and prismatic"}},

    // ---- loops --------------------------------------------------------------------------------
    {"LoopsNotAList", HEAD L1 "loops: {name: C1}\n", {"loops", "must be a list"}},
    {"LoopMissingName", HEAD L1 "loops:\n  - {type: spherical, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0]", "missing required key 'name'"}},
    {"LoopUnknownBody", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: L1, point: [0, 0, 0]}, b: {body: nowhere, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1' b.body", "unknown body 'nowhere'"}},
    {"LoopUnknownType", HEAD L1 "loops:\n  - {name: C1, type: hinge, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1' type", "unknown loop type 'hinge'"}},
    {"LoopRevoluteWithoutAxis", HEAD L1 "loops:\n  - {name: C1, type: revolute, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1'", "missing required key 'axis'", "revolute"}},
    {"LoopPrismaticWithoutAxis", HEAD L1 "loops:\n  - {name: C1, type: prismatic, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1'", "missing required key 'axis'", "prismatic"}},
    {"LoopUniversalWithoutAxes", HEAD L1 "loops:\n  - {name: C1, type: universal, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1'", "missing required key 'axes'"}},
    {"LoopAxisForSpherical", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}, axis: [0, 0, 1]}\n",
     {"loops[0] 'C1' axis", "spherical loop takes no axis"}},
    {"LoopZeroAxis", HEAD L1 "loops:\n  - {name: C1, type: revolute, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}, axis: [0, 0, 0]}\n",
     {"loops[0] 'C1' axis", "zero vector"}},
    {"LoopGroundAsA", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: ground, point: [0, 0, 0]}, b: {body: L1, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1' a.body", "not ground"}},
    {"LoopSameBody", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: L1, point: [0, 0, 0]}, b: {body: L1, point: [1, 0, 0]}}\n",
     {"loops[0] 'C1'", "same body"}},
    {"LoopMissingPoint", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: L1}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1' a", "missing required key 'point'"}},
    {"LoopPointWrongLength", HEAD L1 "loops:\n  - {name: C1, type: spherical, a: {body: L1, point: [0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'C1' a.point", "3 numbers"}},
    {"LoopNameClashesWithJoint", HEAD L1 "loops:\n  - {name: L1, type: spherical, a: {body: L1, point: [0, 0, 0]}, b: {body: ground, point: [0, 0, 0]}}\n",
     {"loops[0] 'L1' name", "duplicate name"}},

    // ---- markers ------------------------------------------------------------------------------
    {"MarkerUnknownBody", HEAD L1 "markers:\n  - {name: tip, body: L9, point: [0, 0, 0]}\n",
     {"markers[0] 'tip' body", "unknown body 'L9'"}},
    {"MarkerMissingPoint", HEAD L1 "markers:\n  - {name: tip, body: L1}\n",
     {"markers[0] 'tip'", "missing required key 'point'"}},
    {"DuplicateMarker", HEAD L1 "markers:\n  - {name: tip, body: L1, point: [0, 0, 0]}\n  - {name: tip, body: L1, point: [1, 0, 0]}\n",
     {"markers[1] 'tip' name", "duplicate marker name"}},
};

class ModelFileError : public ::testing::TestWithParam<BadModel> {};

TEST_P(ModelFileError, ThrowsOneLineMessageNamingFileElementAndProblem) {
  const BadModel& c = GetParam();
  try {
    parse_model_string(c.yaml, "bad.yaml");
    FAIL() << "no ModelError for:\n" << c.yaml;
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("bad.yaml: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& part : c.must_contain)
      EXPECT_NE(message.find(part), std::string::npos) << "missing \"" << part << "\" in: " << message;
  } catch (const std::exception& e) {
    FAIL() << "wrong exception type: " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(EachCheck, ModelFileError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadModel>& info) { return std::string(info.param.case_name); });

// Catches: a missing file reported as something other than a ModelError naming it.
TEST(ModelFileErrorFile, MissingFileNamesThePath) {
  const std::string path = "/nonexistent/dir/model.yaml";
  try {
    load_model_file(path);
    FAIL() << "no ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be opened"), std::string::npos) << e.what();
  }
}

// Catches: error messages that report a line number other than the offending one.
TEST(ModelFileErrorFile, MessageGivesTheLineOfTheBadValue) {
  const char* yaml = "mechdyn: 1\nname: bad\nbodies:\n  - name: L1\n    parent: ground\n"
                     "    joint: {type: revolute, axis: [0, 0, 0]}\n    mass: 1\n    inertia: {diag: [1, 1, 1]}\n";
  try {
    parse_model_string(yaml, "bad.yaml");
    FAIL() << "no ModelError";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("(line 6)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mechdyn
