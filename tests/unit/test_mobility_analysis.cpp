// Properties of the mobility analysis (mobility/): the dimensionless closure Jacobian, the
// null space it gives, independence of the units and of the world origin, agreement with
// constraints/constraint_rank on the example models, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/constraint_rank.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/mobility/mobility_analysis.hpp"
#include "mechdyn/mobility/scaled_closure_jacobian.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

// A model with every length multiplied by `factor` and every world position moved by
// `shift` (the ground points of loops too): the same mechanism in another unit and place.
Model rescaled(Model model, double factor, const Vec3& shift) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    model.joints[i].origin *= factor;
    if (model.bodies[i].parent == kGround) model.joints[i].origin += shift;
    model.bodies[i].com *= factor;
  }
  for (Loop& loop : model.loops) {
    for (BodyPoint* p : {&loop.a, &loop.b}) {
      p->point *= factor;
      if (p->body == kGround) p->point += shift;
    }
  }
  finalize_model(model, model.name + "_rescaled");
  return model;
}

VecX scaled_configuration(const Model& model, VecX q, double factor) {
  for (const Joint& joint : model.joints)
    if (joint.type == JointType::Prismatic) q[joint.q_index] *= factor;
  return q;
}

// Catches: rank decisions that depend on the unit of length or on where the mechanism sits
// (the reason for the dimensionless J'). The four-bar closed by a spatial revolute cut, the
// Schoenflies robot and the 3UPS-UPU-S are analysed as built, 10⁴ times smaller (a 10 µm
// four-bar), 10³ times larger and moved 10 km away: the same numbers each time.
TEST(MobilityAnalysis, IndependentOfUnitsAndOrigin) {
  Model four_bar = testing::example_model("four_bar.yaml");
  four_bar.loops[0].type = LoopType::Revolute;
  four_bar.name = "four_bar_spatial_cut";
  finalize_model(four_bar, four_bar.name);
  const Model models[3] = {four_bar, testing::schoenflies_2ups_2upu(false), testing::ups_upu_s()};
  for (const Model& base : models) {
    SCOPED_TRACE(base.name);
    VecX q = base.neutral_configuration();
    if (base.name == "four_bar_spatial_cut") q.setConstant(0.6);
    const MobilityReport reference = analyze_mobility(base, q);
    for (const auto& [factor, shift] :
         {std::pair<double, Vec3>{1e-4, Vec3::Zero()}, std::pair<double, Vec3>{1e3, Vec3(1e4, -2e4, 5e3)}}) {
      SCOPED_TRACE(factor);
      const Model model = rescaled(base, factor, shift);
      // The assembly tolerance is absolute (m or rad, constraints/assembly.hpp): 1e-12 m
      // cannot be reached 10 km from the origin, so it follows the size and the distance.
      MobilityOptions options;
      options.assembly.tolerance = 1e-12 * std::max(1.0, factor + shift.norm());
      const MobilityReport r = analyze_mobility(model, scaled_configuration(model, q, factor), options);
      EXPECT_EQ(r.rank, reference.rank);
      EXPECT_EQ(r.dof, reference.dof);
      EXPECT_EQ(r.redundant_constraints, reference.redundant_constraints);
      EXPECT_EQ(r.redundant_actuation, reference.redundant_actuation);
      EXPECT_EQ(r.singular_actuation, reference.singular_actuation);
      EXPECT_NEAR(r.scale.length, factor * reference.scale.length, 1e-9 * factor);
      // J' is dimensionless: the same singular values.
      ASSERT_EQ(r.singular_values.size(), reference.singular_values.size());
      EXPECT_NEAR((r.singular_values - reference.singular_values).norm(), 0.0, 1e-6);
    }
  }
}

// Catches: a null space that is not the free motions of the raw Jacobian (a missing column
// scale), or J' entries that are not bounded by 1 (a wrong row or column normalisation).
TEST(MobilityAnalysis, MotionBasisSatisfiesTheClosureAndJPrimeIsBounded) {
  for (const Model& model : {testing::stewart_6ups(), testing::tsai_3upu(), testing::rssr(false)}) {
    SCOPED_TRACE(model.name);
    const MobilityReport r = analyze_mobility(model, model.neutral_configuration());
    Data data(model);
    loop_closure(model, data, r.q);
    ASSERT_EQ(r.motion_basis.cols(), r.dof);
    const double jacobian_scale = data.loop_jacobian.cwiseAbs().maxCoeff();
    EXPECT_LE((data.loop_jacobian * r.motion_basis).cwiseAbs().maxCoeff(), 1e-12 * jacobian_scale * r.scale.length);
    const ScaledClosureJacobian scaled = scaled_closure_jacobian(model, data);
    EXPECT_LE(scaled.matrix.cwiseAbs().maxCoeff(), 1.0 + 1e-12);
    EXPECT_GT(scaled.matrix.cwiseAbs().maxCoeff(), 0.1);
  }
}

// Catches: a disagreement with the existing rank of constraints/constraint_rank (same J,
// unscaled, relative 1e-9) where the units are benign: the example models.
TEST(MobilityAnalysis, AgreesWithConstraintRankOnTheExamples) {
  for (const char* file : {"four_bar.yaml", "slider_crank.yaml", "three_loop_mechanism.yaml"}) {
    SCOPED_TRACE(file);
    const Model model = testing::example_model(file);
    MobilityOptions options;
    const MobilityReport r = analyze_mobility(model, VecX::Constant(model.nq, 0.5), options);
    Data data(model);
    const ConstraintRank rank = constraint_rank(model, data, r.q);
    EXPECT_EQ(r.rank, rank.rank);
    EXPECT_EQ(r.dof, rank.mobility);
    EXPECT_EQ(r.redundant_constraints, static_cast<int>(rank.redundant_rows.size()));
    EXPECT_EQ(r.gruebler_kutzbach, model.nv - model.num_loop_rows);
    EXPECT_LE(r.closure_residual, 1e-12);
  }
}

// Catches: bad input crashing or giving numbers: wrong size, non-finite q, a body index out
// of range, loops that cannot close (a four-bar whose coupler is too short).
TEST(MobilityAnalysis, BadInputThrowsNamingTheProblem) {
  const Model model = testing::example_model("four_bar.yaml");
  EXPECT_THROW(analyze_mobility(model, VecX::Zero(2)), InvalidArgument);
  VecX q = VecX::Zero(3);
  q[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(analyze_mobility(model, q), InvalidArgument);
  MobilityOptions options;
  options.body = 7;
  EXPECT_THROW(analyze_mobility(model, VecX::Constant(3, 0.6), options), InvalidArgument);
  Model broken = model;
  broken.loops[0].a.point = Vec3(0.01, 0, 0);  // coupler 0.01 m: |B − D| ≥ 0.2 m cannot be bridged
  finalize_model(broken, "broken");
  try {
    analyze_mobility(broken, VecX::Constant(3, 0.6));
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("loops cannot be closed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mechdyn
