// Derivatives of closed-chain inverse dynamics (constraints/closed_chain_inverse_dynamics_derivatives.hpp)
// against centred finite differences of the WHOLE closed-chain inverse dynamics: the actuated
// coordinate moved by ±h (the model's q ⊕ dq), the passive coordinates re-assembled by the
// library's Newton (‖Φ‖∞ ≤ 1e-14), v_p and a_p recomputed by the closure, τ_a from
// closed_chain_inverse_dynamics — a different path from the one under test (which never
// re-assembles, and takes the tree's derivatives from rnea_derivatives).
// Models: the bundled loop examples that load without flexible parts and have
// non-redundant actuation (four-bar, slider-crank, three-loop mechanism, 2-UPS/2-UPU
// Schoenflies, 3-RRRU rigid; not ups_3ups_upu_s.yaml, which has no initial configuration
// and does not assemble from q = 0), seeded random four-bars (planar cut: 2 rows;
// spatial revolute cut: 5 rows, 3 of them redundant), the spatial RSSR (spherical passive
// joint: world-direction axes) — several random states each.
//
// Tolerance: a centred difference with step h has truncation error h²/6 |τ'''| and rounding
// ε|τ|/h plus the assembly's residual 1e-14 / h; with h = 1e-5 that is ≲ 1e-9 of the
// column's scale. We allow 1e-6 · (1 + |column|∞), 1000× that and far below every column
// (a flipped sign of any entry > 1e-3 fails; so does dropping the closure terms).
#include "no_malloc_probe.hpp"  // first: it configures Eigen (no_malloc_probe.hpp)

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "closed_chain_models.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/energy.hpp"
#include "mechdyn/dynamics/force_elements.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "parallel_mechanisms.hpp"

namespace mechdyn {
namespace {

constexpr double kStep = 1e-5;

ClosedChainOptions tight() {
  ClosedChainOptions options;
  options.assembly.tolerance = 1e-14;
  return options;
}

// τ_a of closed_chain_inverse_dynamics at (q, v, a) (actuated parts; q's passive part the guess).
VecX actuated_efforts(const Model& model, Data& data, VecX q, VecX v, VecX a) {
  closed_chain_inverse_dynamics(model, data, q, v, a, tight());
  VecX out(static_cast<Eigen::Index>(data.actuated_dofs.size()));
  for (Eigen::Index c = 0; c < out.size(); ++c) out[c] = data.tau[data.actuated_dofs[c]];
  return out;
}

struct Reference {
  MatX dtau_dq, dtau_dv, dtau_da, coordinate_map;
};

// Centred differences of the whole closed-chain inverse dynamics at the completed state.
Reference finite_differences(const Model& model, const VecX& q, const VecX& v, const VecX& a) {
  Data data(model);
  const std::vector<int>& actuated = data.actuated_dofs;
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
  Reference out{MatX(na, na), MatX(na, na), MatX(na, na), MatX(model.nv, na)};
  for (Eigen::Index c = 0; c < na; ++c) {
    const int k = actuated[c];
    VecX dq = VecX::Zero(model.nv);
    dq[k] = kStep;
    VecX q_plus = q, q_minus = q;
    forward_kinematics(model, data, q);
    apply_velocity_increment(model, data, q_plus, dq);
    apply_velocity_increment(model, data, q_minus, -dq);
    out.dtau_dq.col(c) = (actuated_efforts(model, data, q_plus, v, a) - actuated_efforts(model, data, q_minus, v, a)) /
                         (2 * kStep);
    // G = ∂q/∂q_a from the assembled configurations (position level only).
    VecX g_plus = q_plus, g_minus = q_minus;
    assemble(model, data, g_plus, tight().assembly);
    assemble(model, data, g_minus, tight().assembly);
    for (int j = 0; j < model.num_bodies(); ++j) {
      const Joint& joint = model.joints[j];
      if (joint.type == JointType::Revolute || joint.type == JointType::Prismatic)
        out.coordinate_map(joint.v_index, c) = (g_plus[joint.q_index] - g_minus[joint.q_index]) / (2 * kStep);
      else  // not needed by the models that use this column (no passive revolute/prismatic only)
        for (int i = 0; i < joint.nv; ++i) out.coordinate_map(joint.v_index + i, c) = std::nan("");
    }
    VecX dv = VecX::Zero(model.nv);
    dv[k] = kStep;
    out.dtau_dv.col(c) =
        (actuated_efforts(model, data, q, v + dv, a) - actuated_efforts(model, data, q, v - dv, a)) / (2 * kStep);
    out.dtau_da.col(c) =
        (actuated_efforts(model, data, q, v, a + dv) - actuated_efforts(model, data, q, v, a - dv)) / (2 * kStep);
  }
  return out;
}

// max over columns of |analytic − reference| / (1 + |reference column|∞); ≤ 1 passes.
double worst_ratio(const MatX& analytic, const MatX& reference, double allowance = 1e-8) {
  double worst = 0.0;
  for (Eigen::Index c = 0; c < analytic.cols(); ++c) {
    const double scale = 1.0 + reference.col(c).lpNorm<Eigen::Infinity>();
    worst = std::max(worst, (analytic.col(c) - reference.col(c)).lpNorm<Eigen::Infinity>() / (allowance * scale));
  }
  return worst;
}

struct Case {
  std::string name;
  Model model;
  VecX q;  // assembled
};

// The model assembled near its initial configuration (else q = 0) with the actuated
// coordinates moved by `shift`.
Case make_case(const std::string& name, Model model, double shift) try {
  Data data(model);
  VecX q = model.initial_configuration.size() == model.nq ? model.initial_configuration : model.neutral_configuration();
  assemble_with_recovery(model, data, q);
  VecX dq = VecX::Zero(model.nv);
  for (int k : data.actuated_dofs) dq[k] = shift;
  forward_kinematics(model, data, q);
  apply_velocity_increment(model, data, q, dq);
  assemble(model, data, q);
  return {name, std::move(model), q};
} catch (const Error& e) {
  throw SolverError(name + ": " + e.what());
}

/// A planar four-bar with seeded random link lengths, masses and inertias, closed by a
/// planar-revolute cut (2 rows) or, with `spatial_cut`, a spatial revolute cut (5 rows, 3
/// redundant for a planar mechanism).
Model random_four_bar(unsigned seed, bool spatial_cut) {
  Model model = testing::example_model("four_bar.yaml");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double crank = 0.05 + 0.05 * u(rng), coupler = 0.3 + 0.1 * u(rng), rocker = 0.25 + 0.1 * u(rng),
               ground = 0.28 + 0.06 * u(rng);
  const double length[3] = {crank, coupler, rocker};
  model.joints[1].origin = Vec3(crank, 0, 0);
  model.joints[2].origin = Vec3(ground, 0, 0);
  for (int b = 0; b < 3; ++b) {
    model.bodies[b].mass = 0.1 + u(rng);
    model.bodies[b].com = Vec3(length[b] * (0.3 + 0.4 * u(rng)), 0.02 * (u(rng) - 0.5), 0);
    const double i = model.bodies[b].mass * length[b] * length[b] / 12;
    const double transverse = i * (0.5 + u(rng));  // a rod: two equal transverse moments
    model.bodies[b].inertia = Vec3(0.1 * i, transverse, transverse).asDiagonal();
  }
  model.loops[0].a.point = Vec3(coupler, 0, 0);
  model.loops[0].b.point = Vec3(rocker, 0, 0);
  if (spatial_cut) model.loops[0].type = LoopType::Revolute;
  model.initial_configuration.resize(0);
  finalize_model(model, "random four-bar");
  return model;
}

/// The spatial RSSR of parallel_mechanisms.hpp (crank about z, coupler on a spherical
/// joint, rocker about y) closed by a universal cut joint (axes x on the coupler, z on the
/// rocker) instead of a spherical one, which would leave the coupler's spin about BC free
/// (J_p rank-deficient). The coupler's spherical joint turns about world-fixed axes.
Model rssr(bool rocker_actuated) {
  testing::MechanismBuilder m("rssr");
  const Vec3 b(0.1, 0, 0), c(0.3, 0.1, 0.05), d(0.3, 0.1, 0.2);
  const Vec3 crank_com = 0.5 * b, coupler_com = 0.5 * (b + c), rocker_com = 0.5 * (c + d);
  m.body("crank", "ground", JointType::Revolute, Vec3::Zero(), true, Vec3::UnitZ(), Vec3::UnitY(), &crank_com);
  m.body("coupler", "crank", JointType::Spherical, b, false, Vec3::UnitZ(), Vec3::UnitY(), &coupler_com);
  m.body("rocker", "ground", JointType::Revolute, d, rocker_actuated, Vec3::UnitY(), Vec3::UnitY(), &rocker_com);
  m.loop("C", LoopType::Universal, "coupler", c, "rocker", c, Vec3::UnitX(), Vec3::UnitZ());
  return m.build();
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* file : {"four_bar.yaml", "slider_crank.yaml", "three_loop_mechanism.yaml",
                           "schoenflies_2ups_2upu.yaml", "rrru_3_rigid.yaml"})
    out.push_back(make_case(file, testing::example_model(file), 0.02));
  for (unsigned seed = 1; seed <= 4; ++seed) {
    Model model = random_four_bar(seed, seed % 2 == 0);
    Data data(model);
    VecX q = VecX::Zero(model.nq);
    q << 0.7 + 0.3 * seed, 1.0, 1.5;  // a crank angle and a guess of the others
    assemble_with_recovery(model, data, q);
    out.push_back({"random four-bar " + std::to_string(seed), std::move(model), q});
  }
  out.push_back(make_case("rssr", rssr(false), 0.3));
  return out;
}

// A random state at the case's configuration: v_a, a_a uniform in ±1 (the passive parts
// are filled in by the closure).
void random_state(const Case& c, std::mt19937& rng, VecX& v, VecX& a) {
  Data data(c.model);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  v = VecX::Zero(c.model.nv);
  a = VecX::Zero(c.model.nv);
  for (int k : data.actuated_dofs) v[k] = u(rng), a[k] = u(rng);
}

// Catches: a wrong G (∂q_p/∂q_a), a missing or wrong closure term (∂J/∂q, ∂(J̇v)/∂q,
// ∂(J̇v)/∂v, the (∂J/∂q)ᵀλ term), tree derivatives at the wrong state, a spherical passive
// joint's world-component convention mishandled (RSSR, UPS legs), redundant rows mishandled.
TEST(ClosedChainDerivatives, MatchCentredDifferencesOfTheWholeInverseDynamics) {
  std::mt19937 rng(7);
  for (const Case& c : cases()) {
    Data data(c.model);
    ClosedChainDerivativeData work(c.model);
    for (int state = 0; state < 3; ++state) {
      VecX q = c.q, v, a;
      random_state(c, rng, v, a);
      closed_chain_inverse_dynamics_derivatives(c.model, data, work, q, v, a, tight());
      const Reference reference = finite_differences(c.model, q, v, a);
      std::printf("%-28s state %d: na %d, |dtau_dq| %.3g, worst error / allowance: dq %.2g dv %.2g da %.2g\n",
                  c.name.c_str(), state, static_cast<int>(work.coordinates.size()),
                  reference.dtau_dq.lpNorm<Eigen::Infinity>(), worst_ratio(work.dtau_dq, reference.dtau_dq),
                  worst_ratio(work.dtau_dv, reference.dtau_dv), worst_ratio(work.dtau_da, reference.dtau_da));
      EXPECT_LE(worst_ratio(work.dtau_dq, reference.dtau_dq), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_dq << "\nreference\n" << reference.dtau_dq;
      EXPECT_LE(worst_ratio(work.dtau_dv, reference.dtau_dv), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_dv << "\nreference\n" << reference.dtau_dv;
      EXPECT_LE(worst_ratio(work.dtau_da, reference.dtau_da), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_da << "\nreference\n" << reference.dtau_da;
      // τ_a itself is closed_chain_inverse_dynamics' (same state, same solver).
      EXPECT_LE((work.tau - actuated_efforts(c.model, data, q, v, a)).lpNorm<Eigen::Infinity>(),
                1e-9 * (1 + work.tau.lpNorm<Eigen::Infinity>()))
          << c.name;
    }
  }
}

// The comparison above can fail: one flipped sign of any entry above 1e-3, or the
// derivative without the closure's own terms (G held constant, no δv, δa, (∂J/∂q)ᵀλ: the
// naive Gᵀ ∂τ_tree/∂q G), are rejected on the three-loop mechanism and the RSSR.
TEST(ClosedChainDerivatives, TheComparisonRejectsAFlippedSignAndDroppedClosureTerms) {
  std::mt19937 rng(11);
  for (const Case& c : cases()) {
    if (c.name != "three_loop_mechanism.yaml" && c.name != "rssr" && c.name != "four_bar.yaml") continue;
    Data data(c.model);
    ClosedChainDerivativeData work(c.model);
    VecX q = c.q, v, a;
    random_state(c, rng, v, a);
    closed_chain_inverse_dynamics_derivatives(c.model, data, work, q, v, a, tight());
    const Reference reference = finite_differences(c.model, q, v, a);
    int tried = 0;
    for (const MatX* result : {&work.dtau_dq, &work.dtau_dv})
      for (Eigen::Index i = 0; i < result->rows(); ++i)
        for (Eigen::Index j = 0; j < result->cols(); ++j) {
          if (std::abs((*result)(i, j)) <= 1e-3) continue;
          MatX flipped = *result;
          flipped(i, j) = -flipped(i, j);
          EXPECT_GT(worst_ratio(flipped, result == &work.dtau_dq ? reference.dtau_dq : reference.dtau_dv), 1.0)
              << c.name;
          ++tried;
        }
    EXPECT_GT(tried, 0) << c.name;
    // Without the closure terms of (D21): Gᵀ (∂τ/∂q G + ∂τ/∂v · 0 + M · 0).
    const MatX naive = work.coordinate_map.transpose() * work.tree.dtau_dq * work.coordinate_map;
    EXPECT_GT(worst_ratio(naive, reference.dtau_dq), 1.0) << c.name << "\n" << naive << "\n" << reference.dtau_dq;
  }
}

// ∂τ_a/∂a_a is the reduced mass matrix Gᵀ M G, with G from the assembled configurations'
// centred differences (position level; independent of the velocity and acceleration
// closure and of the constraint solve) and M from CRBA; and ½ v_aᵀ (Gᵀ M G) v_a is the
// kinetic energy of the completed motion (energy.hpp, from the bodies' velocities).
// Catches: a G with the wrong sign or scale, ∂/∂a taken from the tree (M) instead of the
// reduced system, an asymmetric or indefinite reduced mass matrix.
TEST(ClosedChainDerivatives, AccelerationDerivativeIsTheReducedMassMatrix) {
  std::mt19937 rng(3);
  for (const Case& c : cases()) {
    bool planar_joints_only = true;
    for (const Joint& joint : c.model.joints)
      planar_joints_only &= joint.type == JointType::Revolute || joint.type == JointType::Prismatic;
    Data data(c.model);
    ClosedChainDerivativeData work(c.model);
    VecX q = c.q, v, a;
    random_state(c, rng, v, a);
    closed_chain_inverse_dynamics_derivatives(c.model, data, work, q, v, a, tight());
    if (planar_joints_only) {
      const Reference reference = finite_differences(c.model, q, v, a);
      EXPECT_LE(worst_ratio(work.coordinate_map, reference.coordinate_map), 1.0) << c.name;
      const MatX mass = crba(c.model, data, q);
      const MatX reduced = reference.coordinate_map.transpose() * mass * reference.coordinate_map;
      EXPECT_LE(worst_ratio(work.dtau_da, reduced), 1.0) << c.name << "\n" << work.dtau_da << "\n" << reduced;
    }
    EXPECT_LE((work.dtau_da - work.dtau_da.transpose()).lpNorm<Eigen::Infinity>(),
              1e-12 * (1 + work.dtau_da.lpNorm<Eigen::Infinity>()))
        << c.name;
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(work.dtau_da).eigenvalues().minCoeff(), 0.0) << c.name;
    VecX va(work.coordinates.size());
    for (Eigen::Index i = 0; i < va.size(); ++i) va[i] = v[work.coordinates[i]];
    const double energy = kinetic_energy(c.model, data, q, v);
    EXPECT_NEAR(0.5 * va.dot(work.dtau_da * va), energy, 1e-10 * (1 + energy)) << c.name;
  }
}

// Bad input: loops without a passive joint, no actuated joint, an external wrench,
// redundant actuation, a work made for another model, a configuration that cannot be
// assembled — typed errors naming the problem, nothing NaN.
TEST(ClosedChainDerivatives, BadInputThrowsTypedErrors) {
  {
    Model model = testing::example_model("four_bar.yaml");
    for (Joint& joint : model.joints) joint.actuated = true;
    finalize_model(model, "test");
    Data data(model);
    ClosedChainDerivativeData work(model);
    VecX q = model.initial_configuration, v = VecX::Zero(3), a = VecX::Zero(3);
    try {
      closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("no passive joint"), std::string::npos) << e.what();
    }
  }
  {
    Model model = testing::example_model("four_bar.yaml");
    for (Joint& joint : model.joints) joint.actuated = false;
    finalize_model(model, "test");
    Data data(model);
    ClosedChainDerivativeData work(model);
    VecX q = model.initial_configuration, v = VecX::Zero(3), a = VecX::Zero(3);
    EXPECT_THROW(closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a), InvalidArgument);
  }
  {
    // The RSSR with both the crank and the rocker actuated: one degree of freedom, two
    // actuators (redundant actuation; v_a = 0 and a_a = 0 are compatible, so the inverse
    // dynamics itself succeeds).
    const Model model = rssr(true);
    Data data(model);
    ClosedChainDerivativeData work(model);
    const Case c = make_case("rssr", rssr(false), 0.3);
    VecX q = c.q, v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
    try {
      closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("redundant actuation"), std::string::npos) << e.what();
    }
  }
  {
    const Model model = testing::example_model("four_bar.yaml");
    const Model other = testing::example_model("three_loop_mechanism.yaml");
    Data data(model);
    ClosedChainDerivativeData work(other);
    VecX q = model.initial_configuration, v = VecX::Zero(3), a = VecX::Zero(3);
    EXPECT_THROW(closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a), InvalidArgument);
    ClosedChainDerivativeData right(model);
    data.external_wrench[1] = Vec6::Constant(1.0);
    EXPECT_THROW(closed_chain_inverse_dynamics_derivatives(model, data, right, q, v, a), InvalidArgument);
    data.external_wrench[1].setZero();
    VecX far = q;
    // The crank of four_bar.yaml turns fully (Grashof crank-rocker) but a crank past the
    // reach of a shortened coupler cannot close: make the coupler too short.
    Model broken = model;
    broken.loops[0].a.point = Vec3(0.05, 0, 0);
    finalize_model(broken, "test");
    Data broken_data(broken);
    ClosedChainDerivativeData broken_work(broken);
    EXPECT_THROW(closed_chain_inverse_dynamics_derivatives(broken, broken_data, broken_work, far, v, a), SolverError);
  }
}

// ---- force elements and couplings (format 3) ------------------------------------------

// τ_a of the closed chain with force elements at (q, v, a, t): the first inverse dynamics
// completes q, v, a (assembly, v_p, a_p), then the elements are evaluated at the completed
// state and the inverse dynamics balances M a + h − Q_f with them (how a closed-chain run's
// inverse rows do it, src/evaluation/closed_chain_run.cpp).
VecX actuated_efforts_with_elements(const Model& model, Data& data, VecX q, VecX v, VecX a, double t) {
  closed_chain_inverse_dynamics(model, data, q, v, a, tight());
  force_elements(model, data, q, v, t);
  return actuated_efforts(model, data, q, v, a);
}

// Centred differences of that whole computation (re-assembly at every point).
Reference finite_differences_with_elements(const Model& model, const VecX& q, const VecX& v, const VecX& a, double t) {
  Data data(model);
  const std::vector<int>& actuated = data.actuated_dofs;
  const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
  Reference out{MatX(na, na), MatX(na, na), MatX(na, na), MatX()};
  for (Eigen::Index c = 0; c < na; ++c) {
    const int k = actuated[c];
    VecX dq = VecX::Zero(model.nv);
    dq[k] = kStep;
    VecX q_plus = q, q_minus = q;
    forward_kinematics(model, data, q);
    apply_velocity_increment(model, data, q_plus, dq);
    apply_velocity_increment(model, data, q_minus, -dq);
    out.dtau_dq.col(c) = (actuated_efforts_with_elements(model, data, q_plus, v, a, t) -
                          actuated_efforts_with_elements(model, data, q_minus, v, a, t)) /
                         (2 * kStep);
    out.dtau_dv.col(c) = (actuated_efforts_with_elements(model, data, q, v + dq, a, t) -
                          actuated_efforts_with_elements(model, data, q, v - dq, a, t)) /
                         (2 * kStep);
    out.dtau_da.col(c) = (actuated_efforts_with_elements(model, data, q, v, a + dq, t) -
                          actuated_efforts_with_elements(model, data, q, v, a - dq, t)) /
                         (2 * kStep);
  }
  return out;
}

std::string file_text(const std::string& file) {
  std::ifstream in(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The IFToMM four-bar with its diagonal spring-damper (coupler end C to the ground pivot O,
// k = 25, c = 1) plus a position servo on the passive rocker (an effort on a passive
// coordinate, time-dependent target), a joint spring-damper on the passive coupler joint
// a time-dependent applied load on the coupler and an anisotropic damped bushing between
// the rocker and the coupler: every element enters τ_a only through the closure (G) and the
// elements' q- and v-dependence.
Model four_bar_with_elements() {
  std::string text = file_text("iftomm_four_bar_spring.yaml");
  const std::size_t at = text.find("initial_configuration:");  // the elements go before it, after `forces:`
  text.insert(at,
      "  - {name: servo, type: joint-servo, joint: rocker, target: '0.3*sin(2*t)', target_rate: '0.6*cos(2*t)',"
      " stiffness: 40, damping: 3}\n"
      "  - {name: hinge, type: joint-spring-damper, joint: coupler, stiffness: 7, damping: 0.4, rest: 0.2}\n"
      "  - name: push\n    type: applied\n    body: coupler\n    point: [0.6, 0.1, 0]\n"
      "    force: ['3*cos(t)', '-2 + t', '0']\n    torque: ['0', '0', '0.5*sin(t)']\n"
      "  - {name: mount, type: bushing, a: {body: rocker, point: [-0.3, 0.4, 0]}, b: {body: coupler, point: [0.5, 0, 0]},"
      " stiffness: [30, 20, 50, 4, 3, 2], damping: [0.5, 0.3, 0.2, 0.05, 0.02, 0.04]}\n");
  return parse_model_string(text, "<four-bar with elements>");
}

// A spatial double pendulum whose second joint is geared to the first (q2 = −1.5 q1 + 0.2:
// a coupling row, the only closure), with a spring-damper from the second link to the
// ground and a joint spring on the passive joint. One actuated coordinate (J1).
Model geared_pendulum() {
  return parse_model_string(
      "mechdyn: 3\n"
      "name: geared_pendulum\n"
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - name: L1\n"
      "    parent: ground\n"
      "    joint: {name: J1, type: revolute, axis: [0, 1, 0], origin: [0, 0, 0], armature: 0.01}\n"
      "    mass: 1.5\n"
      "    com: [0.2, 0.02, -0.05]\n"
      "    inertia: {ixx: 0.01, iyy: 0.03, izz: 0.025, ixy: 0.002, ixz: 0, iyz: 0.001}\n"
      "  - name: L2\n"
      "    parent: L1\n"
      "    joint: {name: J2, type: revolute, axis: [0.6, 0, 0.8], origin: [0.4, 0, 0], actuated: false}\n"
      "    mass: 0.8\n"
      "    com: [0.1, 0.05, -0.2]\n"
      "    inertia: {diag: [0.02, 0.018, 0.006]}\n"
      "couplings:\n"
      "  - {name: gear, type: gear, a: J1, b: J2, ratio: -1.5, offset: 0.2}\n"
      "forces:\n"
      "  - {name: spring, type: spring-damper, a: {body: L2, point: [0.1, 0.1, -0.3]},"
      " b: {body: ground, point: [0.5, 0.3, 0.2]}, stiffness: 300, free_length: 0.2, damping: 4, preload: 2}\n"
      "  - {name: k2, type: joint-spring-damper, joint: J2, stiffness: 3, damping: 0.2}\n",
      "<geared pendulum>");
}

// Catches: the force elements left out of the closed chain's derivatives (∂Q_f/∂q, ∂Q_f/∂v
// not subtracted from the tree's, D21'), the elements taken at the guess instead of the
// completed state, the time not passed to the servo and the applied load, a coupling row
// mishandled by G or the closure's difference passes.
TEST(ClosedChainDerivatives, WithForceElementsAndCouplingsMatchCentredDifferences) {
  std::mt19937 rng(5);
  const double t = 0.7;
  struct ElementCase {
    std::string name;
    Model model;
  };
  std::vector<ElementCase> element_cases;
  element_cases.push_back({"four-bar: spring, servo, joint spring, load, bushing", four_bar_with_elements()});
  element_cases.push_back({"geared pendulum with spring", geared_pendulum()});
  for (const ElementCase& c : element_cases) {
    Data data(c.model);
    ClosedChainDerivativeData work(c.model);
    for (int state = 0; state < 3; ++state) {
      VecX q = c.model.initial_configuration.size() == c.model.nq ? c.model.initial_configuration
                                                                    : c.model.neutral_configuration();
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      VecX v = VecX::Zero(c.model.nv), a = VecX::Zero(c.model.nv);
      for (int k : data.actuated_dofs) q[c.model.joints[c.model.dof_body[k]].q_index] += 0.3 * u(rng), v[k] = u(rng), a[k] = u(rng);
      closed_chain_inverse_dynamics_derivatives(c.model, data, work, q, v, a, t, tight());
      const Reference reference = finite_differences_with_elements(c.model, q, v, a, t);
      // the elements' share of ∂τ_a/∂q_a alone (Gᵀ ∂Q_f/∂q G): dropping it must fail
      const MatX element_share = work.coordinate_map.transpose() * work.element_dq * work.coordinate_map;
      std::printf("%-48s state %d: |dtau_dq| %.3g |elements' share| %.3g, worst error / allowance: dq %.2g dv %.2g "
                  "da %.2g\n",
                  c.name.c_str(), state, reference.dtau_dq.lpNorm<Eigen::Infinity>(),
                  element_share.lpNorm<Eigen::Infinity>(), worst_ratio(work.dtau_dq, reference.dtau_dq),
                  worst_ratio(work.dtau_dv, reference.dtau_dv), worst_ratio(work.dtau_da, reference.dtau_da));
      EXPECT_LE(worst_ratio(work.dtau_dq, reference.dtau_dq), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_dq << "\nreference\n" << reference.dtau_dq;
      EXPECT_LE(worst_ratio(work.dtau_dv, reference.dtau_dv), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_dv << "\nreference\n" << reference.dtau_dv;
      EXPECT_LE(worst_ratio(work.dtau_da, reference.dtau_da), 1.0)
          << c.name << " state " << state << "\nanalytic\n" << work.dtau_da << "\nreference\n" << reference.dtau_da;
      EXPECT_GT(worst_ratio(work.dtau_dq + element_share, reference.dtau_dq), 1.0) << c.name;
      EXPECT_LE((work.tau - actuated_efforts_with_elements(c.model, data, q, v, a, t)).lpNorm<Eigen::Infinity>(),
                1e-9 * (1 + work.tau.lpNorm<Eigen::Infinity>()))
          << c.name;
    }
  }
}

// Nothing allocates after the first call (the Data then holds its dense groups).
TEST(ClosedChainDerivatives, NoAllocationAfterTheFirstCall) {
  const Model model = testing::example_model("three_loop_mechanism.yaml");
  Data data(model);
  ClosedChainDerivativeData work(model);
  VecX q = model.initial_configuration.size() == model.nq ? model.initial_configuration : model.neutral_configuration();
  VecX v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
  v[data.actuated_dofs[0]] = 0.7;
  a[data.actuated_dofs[0]] = -0.4;
  closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a);
  const long allocations =
      testing::allocations_during([&] { closed_chain_inverse_dynamics_derivatives(model, data, work, q, v, a); });
  EXPECT_LE(allocations, 0);
  // With force elements (every type: spring-damper, servo, joint spring, applied load, bushing).
  const Model with = four_bar_with_elements();
  Data with_data(with);
  ClosedChainDerivativeData with_work(with);
  VecX wq = with.initial_configuration, wv = VecX::Zero(with.nv), wa = VecX::Zero(with.nv);
  wv[with_data.actuated_dofs[0]] = 0.7;
  wa[with_data.actuated_dofs[0]] = -0.4;
  closed_chain_inverse_dynamics_derivatives(with, with_data, with_work, wq, wv, wa, 0.3);
  const long with_allocations = testing::allocations_during(
      [&] { closed_chain_inverse_dynamics_derivatives(with, with_data, with_work, wq, wv, wa, 0.3); });
  EXPECT_LE(with_allocations, 0);
}

}  // namespace
}  // namespace mechdyn
