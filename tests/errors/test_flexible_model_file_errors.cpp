// The model reader on bad flexible blocks (format version 2): one case per check of
// docs/model-file.md "Flexible bodies". Each case breaks exactly one rule of a valid
// model; the test asserts a ModelError with one line "<source>: <element>: <problem>
// (line N)" naming the element and the problem.
// Catches: a missing check (no throw, another exception type), a message that lost the
// file, the element or the line, a multi-line message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn {
namespace {

// A valid model; each case replaces one piece of text.
const std::string kGood = R"(mechdyn: 2
name: bad
bodies:
  - name: hub
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    inertia: {diag: [0.01, 0.01, 0.01]}
  - name: beam
    parent: hub
    joint: {type: revolute, axis: [0, 1, 0], origin: [0.1, 0, 0]}
    flexible:
      type: beam
      direction: [1, 0, 0]
      section_y: [0, 1, 0]
      length: 0.8
      elements: 4
      section: {area: 3.1416e-4, iy: 7.854e-9, iz: 7.854e-9, torsion: 1.5708e-8}
      material: {youngs_modulus: 71.7e9, density: 2700, shear_modulus: 27.58e9}
  - name: tool
    parent: beam
    joint: {type: fixed, origin: [0.8, 0, 0]}
    mass: 0.5
    inertia: {diag: [1e-4, 1e-4, 1e-4]}
loops:
  - {name: cut, type: spherical, a: {body: beam, point: [0.5, 0, 0]}, b: {body: ground, point: [0.6, 0, 0]}}
markers:
  - {name: tip, body: beam, point: [0.8, 0, 0]}
)";

struct BadBlock {
  const char* case_name;
  const char* find;
  const char* replace;
  std::vector<std::string> must_contain;
};

const BadBlock kCases[] = {
    {"VersionOneWithFlexible", "mechdyn: 2", "mechdyn: 1",
     {"bodies[1] 'beam' flexible", "format version 2", "line 13"}},
    {"MissingArea", "area: 3.1416e-4, ", "", {"bodies[1] 'beam' flexible.section", "missing required key 'area'"}},
    {"ZeroArea", "area: 3.1416e-4", "area: 0", {"flexible.section.area", "must be positive", "'0'"}},
    {"NegativeIy", "iy: 7.854e-9", "iy: -7.854e-9", {"flexible.section.iy", "must be positive"}},
    {"MissingTorsion", ", torsion: 1.5708e-8", "", {"flexible.section", "missing required key 'torsion'"}},
    {"ZeroCircle", "section: {area: 3.1416e-4, iy: 7.854e-9, iz: 7.854e-9, torsion: 1.5708e-8}",
     "section: {circle: 0}", {"flexible.section.circle", "must be positive"}},
    {"CircleAndValues", "section: {area: 3.1416e-4,", "section: {circle: 0.01, area: 3.1416e-4,",
     {"flexible.section", "either {circle: r} or the values", "not both"}},
    {"MissingSection", "      section: {area: 3.1416e-4, iy: 7.854e-9, iz: 7.854e-9, torsion: 1.5708e-8}\n", "",
     {"bodies[1] 'beam' flexible", "missing required key 'section'"}},
    {"MissingYoungsModulus", "youngs_modulus: 71.7e9, ", "", {"flexible.material", "missing required key 'youngs_modulus'"}},
    {"ZeroDensity", "density: 2700", "density: 0", {"flexible.material.density", "must be positive"}},
    {"NegativeShearModulus", "shear_modulus: 27.58e9", "shear_modulus: -1", {"flexible.material.shear_modulus", "must be positive"}},
    {"ShearModulusAndPoissonRatio", "shear_modulus: 27.58e9", "shear_modulus: 27.58e9, poisson_ratio: 0.3",
     {"flexible.material", "shear_modulus or poisson_ratio, not both"}},
    {"NeitherShearModulusNorPoissonRatio", ", shear_modulus: 27.58e9", "",
     {"flexible.material", "missing required key 'shear_modulus' (or 'poisson_ratio')"}},
    {"PoissonRatioOutOfRange", "shear_modulus: 27.58e9", "poisson_ratio: 0.7",
     {"flexible.material.poisson_ratio", "(-1, 0.5]"}},
    {"SectionYNotPerpendicular", "section_y: [0, 1, 0]", "section_y: [0.1, 1, 0]",
     {"flexible.section_y", "not perpendicular to direction"}},
    {"SectionYParallel", "section_y: [0, 1, 0]", "section_y: [2, 0, 0]", {"flexible.section_y", "not perpendicular"}},
    {"ZeroDirection", "direction: [1, 0, 0]", "direction: [0, 0, 0]", {"flexible.direction", "zero vector"}},
    {"DirectionWrongLength", "direction: [1, 0, 0]", "direction: [1, 0]", {"flexible.direction", "3 numbers"}},
    {"ZeroElements", "elements: 4", "elements: 0", {"flexible.elements", "at least 1", "'0'"}},
    {"FractionalElements", "elements: 4", "elements: 2.5", {"flexible.elements", "whole number", "'2.5'"}},
    {"MissingElements", "      elements: 4\n", "", {"bodies[1] 'beam' flexible", "missing required key 'elements'"}},
    {"ZeroLength", "length: 0.8", "length: 0", {"flexible.length", "must be positive"}},
    {"NonFiniteLength", "length: 0.8", "length: .inf", {"flexible.length", "finite"}},
    {"UnknownType", "type: beam", "type: plate", {"flexible.type", "unknown flexible body type 'plate'"}},
    {"TooManyModes", "elements: 4", "elements: 4\n      modes: 25", {"flexible.modes", "between 1 and 6 x elements = 24"}},
    {"ZeroModes", "elements: 4", "elements: 4\n      modes: 0", {"flexible.modes", "between 1"}},
    {"NegativeDamping", "elements: 4", "elements: 4\n      damping: {mass: -1}", {"flexible.damping.mass", "negative"}},
    {"StiffeningNotABoolean", "elements: 4", "elements: 4\n      geometric_stiffening: maybe",
     {"flexible.geometric_stiffening", "true or false", "'maybe'"}},
    {"BlockNotAMapping", "    flexible:\n      type: beam", "    flexible: 3\n    flexibility:\n      type: beam",
     {"bodies[1] 'beam' flexible", "must be a mapping"}},
    {"ChildJointOriginBeyondTheBeam", "origin: [0.8, 0, 0]", "origin: [0.9, 0, 0]",
     {"bodies[2] 'tool' joint.origin", "flexible body 'beam'", "beyond the beam's length", "0.9", "line 22"}},
    {"LoopPointBeyondTheBeam", "a: {body: beam, point: [0.5, 0, 0]}", "a: {body: beam, point: [0.85, 0.1, 0]}",
     {"loops[0] 'cut' a.point", "flexible body 'beam'", "beyond the beam's length", "line 26"}},
    {"MarkerBeyondTheBeam", "{name: tip, body: beam, point: [0.8, 0, 0]}", "{name: tip, body: beam, point: [0.8000001, 0, 0]}",
     {"markers[0] 'tip' point", "beyond the beam's length"}},
    {"MarkerBeforeTheBeam", "{name: tip, body: beam, point: [0.8, 0, 0]}", "{name: tip, body: beam, point: [-0.01, 0.02, 0]}",
     {"markers[0] 'tip' point", "before the beam's first node"}},
};

class FlexibleModelFileErrors : public ::testing::TestWithParam<BadBlock> {};

TEST_P(FlexibleModelFileErrors, OneLineNamingFileElementAndProblem) {
  const BadBlock& c = GetParam();
  std::string text = kGood;
  const std::size_t at = text.find(c.find);
  ASSERT_NE(at, std::string::npos) << "the case's text is not in the model: " << c.find;
  text.replace(at, std::string(c.find).size(), c.replace);
  try {
    parse_model_string(text, "bad.yaml");
    FAIL() << "accepted: " << c.case_name;
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("bad.yaml: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& part : c.must_contain) EXPECT_NE(message.find(part), std::string::npos) << part << " not in: " << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, FlexibleModelFileErrors, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadBlock>& info) { return std::string(info.param.case_name); });

// Catches: the good model itself failing (every case above would then pass for the wrong reason).
TEST(FlexibleModelFileErrors, TheUnbrokenModelLoads) { EXPECT_NO_THROW(parse_model_string(kGood, "good.yaml")); }

}  // namespace
}  // namespace mechdyn
