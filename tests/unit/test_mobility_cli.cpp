// mechdyn mobility and the mobility lines of mechdyn info: the contract's JSON keys
// (../shared/spec/parallel-manipulators.md), the text report, and every bad input (one
// line on stderr, status 2, nothing on stdout). Models: the example four-bar and the small
// mechanisms of tests/support/parallel_mechanisms.hpp written as model files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "closed_chain_models.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

using testing::run_cli;

std::string model_file(const Model& model) {
  return testing::write_temporary_file(model.name + ".yaml", testing::model_yaml(model));
}

Model four_bar_spatial_cut() {
  Model model = testing::example_model("four_bar.yaml");
  model.loops[0].type = LoopType::Revolute;
  model.name = "four_bar_spatial_cut";
  finalize_model(model, model.name);
  return model;
}

// Catches: a missing or renamed contract key, a wrong value in it, or a body basis that does
// not span the right space. The four-bar closed by a spatial revolute cut: dof 1, 5 rows of
// rank 2, 3 redundant (tests/reference/test_mobility_mechanisms.cpp derives these).
TEST(MobilityCli, JsonHasTheContractKeys) {
  const std::string path = model_file(four_bar_spatial_cut());
  const auto r = run_cli("mobility " + path + " --q 0.6,0.6,0.6 --body rocker --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("dof"), 1);
  EXPECT_EQ(j.at("constraint_rows"), 5);
  EXPECT_EQ(j.at("rank"), 2);
  EXPECT_EQ(j.at("redundant_constraints"), 3);
  EXPECT_EQ(j.at("actuated"), 1);
  EXPECT_EQ(j.at("redundant_actuation"), 0);
  EXPECT_EQ(j.at("singular_actuation"), false);
  EXPECT_EQ(j.at("body").at("name"), "rocker");
  ASSERT_EQ(j.at("body").at("twists").size(), 1u);
  const std::vector<double> twist = j.at("body").at("twists")[0];
  const std::vector<double> expected = {0, 0, 1, 0, -0.3, 0};  // rotation about z through (0.3, 0, 0)
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(twist[i], expected[i], 1e-9);
  EXPECT_EQ(j.at("body").at("constraint_wrenches").size(), 5u);
  EXPECT_EQ(j.at("gruebler_kutzbach"), -2);
  EXPECT_EQ(j.at("redundant_rows").size(), 3u);
  EXPECT_EQ(j.at("limbs").size(), 2u);
  // The first seven keys in the contract's order.
  const std::vector<std::string> order = {"dof",
                                          "constraint_rows",
                                          "rank",
                                          "redundant_constraints",
                                          "actuated",
                                          "redundant_actuation",
                                          "singular_actuation"};
  std::size_t at = 0;
  for (const std::string& key : order) {
    const std::size_t found = r.out.find("\"" + key + "\"");
    ASSERT_NE(found, std::string::npos) << key;
    EXPECT_GT(found + 1, at) << key;
    at = found;
  }
}

// Catches: the Schoenflies layout with the platform points at the base angles reported as a
// dead point (an assembly error) instead of singular_actuation: true.
TEST(MobilityCli, SchoenfliesSingularLayoutIsReportedAsSingularActuation) {
  const std::string singular = model_file(testing::schoenflies_2ups_2upu(true));
  const auto r = run_cli("mobility " + singular + " --body platform --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("dof"), 4);
  EXPECT_EQ(j.at("singular_actuation"), true);
  EXPECT_EQ(j.at("redundant_actuation"), 1);
  EXPECT_EQ(j.at("body").at("locked_twists").size(), 1u);
  const auto text = run_cli("mobility " + singular + " --body platform");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("singular actuation yes"), std::string::npos) << text.out;

  const std::string regular = model_file(testing::schoenflies_2ups_2upu(false));
  const nlohmann::json k = nlohmann::json::parse(run_cli("mobility " + regular + " --body platform --json").out);
  EXPECT_EQ(k.at("singular_actuation"), false);
  EXPECT_EQ(k.at("body").at("twists").size(), 4u);
  const std::vector<std::vector<double>> wrenches = k.at("body").at("constraint_wrenches");
  ASSERT_EQ(wrenches.size(), 2u);  // couples about x and y
  EXPECT_NEAR(wrenches[0][3], 1.0, 1e-9);
  EXPECT_NEAR(wrenches[1][4], 1.0, 1e-9);
}

// Catches: info losing its closure line or not showing the mobility summary.
TEST(MobilityCli, InfoPrintsTheMobilitySummary) {
  const auto r = run_cli("info " + model_file(four_bar_spatial_cut()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("closure rows 5, rank 2, redundant rows 3 (coupler_rocker row 2, coupler_rocker row 3, coupler_rocker row 4), mobility 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Grubler-Kutzbach -2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dof - GK = 3 redundant constraints"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("couple about"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("singular actuation no"), std::string::npos) << r.out;
}

// Catches: bad input that crashes, prints a partial result or exits with the wrong status.
TEST(MobilityCli, BadInputIsOneLineWithStatus2) {
  const std::string path = model_file(four_bar_spatial_cut());
  Model broken = testing::example_model("four_bar.yaml");
  broken.loops[0].a.point = Vec3(0.01, 0, 0);
  broken.name = "broken_four_bar";
  finalize_model(broken, broken.name);
  const std::string broken_path = model_file(broken);
  struct Case {
    std::string arguments, expected;
  } cases[] = {
      {"mobility " + path + " --q 0.6,0.6,0.6 --body nothing", "no body named 'nothing'"},
      {"mobility " + path + " --q 0.6,0.6", "--q has 2 numbers"},
      {"mobility " + path + " --q 0.6,x,0.6", "is not a number"},
      {"mobility " + broken_path + " --q 0.6,0.6,0.6", "loops cannot be closed"},
      {"mobility /nonexistent/model.yaml", "cannot open"},
      {"mobility " + path + " --tolerance 2", "--tolerance"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.arguments);
    const auto r = run_cli(c.arguments);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
}

}  // namespace
}  // namespace mechdyn
