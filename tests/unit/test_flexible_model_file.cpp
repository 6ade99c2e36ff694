// Reading flexible bodies (format version 2, ../shared/spec/flexible-bodies.md): values,
// defaults, the welded rigid part, version 1 unchanged, points on the beam, warnings, and
// the refusal of the rigid-only algorithms. (Bad input: tests/errors/test_flexible_model_file_errors.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_body.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"

namespace mechdyn {
namespace {

const char* kBeamModel = R"(mechdyn: 2
name: beam
bodies:
  - name: hub
    parent: ground
    joint: {type: revolute, axis: [0, 0, 1]}
    mass: 1
    inertia: {diag: [0.01, 0.01, 0.01]}
  - name: link
    parent: hub
    joint: {type: revolute, axis: [0, 1, 0], origin: [0.1, 0, 0]}
    flexible:
      type: beam
      direction: [2, 0, 0]
      section_y: [0, 0, 3]
      length: 0.8
      elements: 4
      section: {circle: 0.01}
      material: {youngs_modulus: 71.7e9, density: 2700, poisson_ratio: 0.3}
  - name: tool
    parent: link
    joint: {type: fixed, origin: [0.8, 0, 0]}
    mass: 0.5
    inertia: {diag: [1e-4, 1e-4, 1e-4]}
loops:
  - {name: cut, type: spherical, a: {body: link, point: [0.4, 0, 0.02]}, b: {body: ground, point: [0.5, 0, 0.02]}}
markers:
  - {name: tip, body: link, point: [0.8, 0, 0]}
)";

// Catches: values not stored, a direction not normalised, the circle section or G from ν
// wrong, defaults other than the documented ones, a flexible body without mass refused.
TEST(FlexibleModelFile, ReadsTheBlockWithItsDefaults) {
  std::vector<std::string> warnings;
  const Model model = parse_model_string(kBeamModel, "<beam>", &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(model.num_bodies(), 3);
  EXPECT_FALSE(model.bodies[0].flexible);
  ASSERT_TRUE(model.bodies[1].flexible);
  const FlexibleBeam& b = *model.bodies[1].flexible;
  EXPECT_EQ(b.direction, Vec3(1, 0, 0));
  EXPECT_EQ(b.section_y, Vec3(0, 0, 1));
  EXPECT_EQ(b.section_z(), Vec3(0, -1, 0));
  EXPECT_EQ(b.length, 0.8);
  EXPECT_EQ(b.elements, 4);
  const double pi = 3.14159265358979323846, r = 0.01;
  EXPECT_DOUBLE_EQ(b.section.area, pi * r * r);
  EXPECT_DOUBLE_EQ(b.section.iy, pi * std::pow(r, 4) / 4);
  EXPECT_DOUBLE_EQ(b.section.iz, pi * std::pow(r, 4) / 4);
  EXPECT_DOUBLE_EQ(b.section.torsion, pi * std::pow(r, 4) / 2);
  EXPECT_DOUBLE_EQ(b.material.shear_modulus, 71.7e9 / 2.6);  // G = E / (2 (1 + ν))
  EXPECT_TRUE(b.geometric_stiffening);
  EXPECT_EQ(b.damping_mass, 0.0);
  EXPECT_EQ(b.damping_stiffness, 0.0);
  EXPECT_EQ(b.modes, 0);
  EXPECT_EQ(b.num_elastic(), 24);
  EXPECT_EQ(model.bodies[1].mass, 0.0) << "no welded part";
  // The joints' coordinates are those of version 1; the elastic ones follow them
  // (../shared/spec/flexible-bodies.md): 2 + 24.
  EXPECT_EQ(model.rigid_nq, 2);
  EXPECT_EQ(model.rigid_nv, 2);
  EXPECT_EQ(model.nq, 26);
  EXPECT_EQ(model.nv, 26);
  EXPECT_EQ(model.elastic_index[1], 0);
  EXPECT_EQ(model.elastic_index[0], -1);
}

// Catches: optional keys ignored, the welded rigid part not stored.
TEST(FlexibleModelFile, OptionalKeysAndTheWeldedRigidPart) {
  std::string text = kBeamModel;
  const std::string block = "      material: {youngs_modulus: 71.7e9, density: 2700, poisson_ratio: 0.3}\n";
  text.replace(text.find(block), block.size(),
               "      material: {youngs_modulus: 7e10, density: 2700, shear_modulus: 2.6e10}\n"
               "      geometric_stiffening: false\n"
               "      damping: {mass: 0.5, stiffness: 1e-4}\n"
               "      modes: 6\n"
               "    mass: 0.3\n"
               "    com: [0.01, 0, 0]\n"
               "    inertia: {diag: [1e-4, 2e-4, 3e-4]}\n");
  const Model model = parse_model_string(text, "<beam>");
  const Body& body = model.bodies[1];
  const FlexibleBeam& b = *body.flexible;
  EXPECT_FALSE(b.geometric_stiffening);
  EXPECT_EQ(b.damping_mass, 0.5);
  EXPECT_EQ(b.damping_stiffness, 1e-4);
  EXPECT_EQ(b.modes, 6);
  EXPECT_EQ(b.material.shear_modulus, 2.6e10);
  EXPECT_EQ(body.mass, 0.3);
  EXPECT_EQ(body.com, Vec3(0.01, 0, 0));
  const FlexibleBody f = make_flexible_body(body);
  EXPECT_EQ(f.num_elastic, 6);
  EXPECT_EQ(f.rigid_mass, 0.3);
  EXPECT_NEAR(f.mass, 2700 * 3.14159265358979323846e-4 * 0.8, 1e-12);
  // D = α M_ee + β K in modal coordinates: α + β ω_i² on the diagonal.
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(f.damping(i, i), 0.5 + 1e-4 * f.modal_frequencies(i) * f.modal_frequencies(i),
                1e-9 * f.damping(i, i));
}

// Catches: a section_y nearly perpendicular (|cos| ≤ 1e-6, e.g. rounded decimals) refused
// or left non-perpendicular (check_flexible_beam then fails in finalize_model).
TEST(FlexibleModelFile, NearlyPerpendicularSectionAxisIsMadeExact) {
  std::string text = kBeamModel;
  text.replace(text.find("section_y: [0, 0, 3]"), 20, "section_y: [1e-7, 0, 1]");
  const Model model = parse_model_string(text, "<beam>");
  EXPECT_LT(std::abs(model.bodies[1].flexible->direction.dot(model.bodies[1].flexible->section_y)), 1e-15);
}

// Catches: unknown keys inside the block silently dropped (no warning) or made fatal.
TEST(FlexibleModelFile, UnknownKeysInTheBlockAreWarnings) {
  std::string text = kBeamModel;
  text.replace(text.find("      elements: 4\n"), 18, "      elements: 4\n      elasticity: 3\n");
  text.replace(text.find("section: {circle: 0.01}"), 23, "section: {circle: 0.01, radius: 2}");
  std::vector<std::string> warnings;
  parse_model_string(text, "<beam>", &warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("bodies[1] 'link' flexible: unknown key 'elasticity'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("flexible.section: unknown key 'radius'"), std::string::npos) << warnings[1];
}

// Catches: the rigid algorithms treating a beam as rigid. Data (the entry of every rigid
// algorithm) refuses a model with a flexible body, naming it.
TEST(FlexibleModelFile, RigidAlgorithmsRefuseFlexibleBodies) {
  const Model model = parse_model_string(kBeamModel, "<beam>");
  EXPECT_TRUE(has_flexible_bodies(model));
  try {
    Data data(model);
    FAIL() << "Data accepted a flexible body";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("bodies[1] 'link'"), std::string::npos) << message;
    EXPECT_NE(message.find("flexible"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

// Catches: finalize_model not validating a beam or its points for models built in code.
TEST(FlexibleModelFile, FinalizeChecksBeamsBuiltInCode) {
  Model good = parse_model_string(kBeamModel, "<beam>");
  Model bad = good;
  bad.bodies[1].flexible->elements = 0;
  EXPECT_THROW(finalize_model(bad, "code"), ModelError);
  bad = good;
  bad.markers[0].at.point = Vec3(0.9, 0, 0);
  try {
    finalize_model(bad, "code");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("marker 'tip' point"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("beyond the beam's length"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(finalize_model(good, "code"));
}

// Catches: a version-1 file changing meaning (it still reads, the same as before).
TEST(FlexibleModelFile, VersionOneFilesAreUnchanged) {
  const Model model = load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/five_axis_tree.yaml");
  EXPECT_FALSE(has_flexible_bodies(model));
  EXPECT_NO_THROW(Data data(model));
}

}  // namespace
}  // namespace mechdyn
