// Complex-step check of the analytical derivatives (issue 15, item 2: "against complex-step
// where it applies"; docs/derivatives.md, "Tests").
//
// The library's algorithms are written for double, so they cannot be evaluated at a complex
// argument. The code `mechdyn codegen` writes for one model can: it is a straight-line
// program of +, −, ×, ÷, sin, cos, sqrt, exp (and comparisons in guards and sign
// selections). This test compiles that C++ with std::complex<double> in place of double
// (one textual substitution; the comparisons read the real part, |x| and max(x, y) take the
// branch the real part picks: Martins, Sturdza & Alonso 2003, ACM TOMS 29(3), §3), and forms
// the complex-step derivative (Squire & Trapp 1998)
//     f'(x) · d = Im f(x + i h d) / h + O(h²),   h = 1e-30,
// which has no subtractive cancellation: it is exact to rounding, where a centred finite
// difference is good to ~1e-7. For a spherical or free joint the direction d is the tangent
// one, d/dε (q ⊕ ε e_j) at ε = 0 (the joint model's configuration rate): the imaginary part
// carries only the first-order term, so the quaternion needs no exponential.
//
// The generated code is body-frame RNEA / CRBA / L^T D L evaluated symbolically
// (src/codegen/), checked against the library to 1e-12 by test_codegen; the analytical
// derivatives are Carpentier & Mansard's world-frame recursion (src/dynamics/). They share
// no code. Compared to 1e-10 of each matrix's scale (its largest entry, at least 1); the
// errors measured are printed (1e-16 to 3e-13 on 2026-11-28).
//
// Each test names the bug it would catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "compiled_codegen.hpp"
#include "mechdyn/dynamics/aba_derivatives.hpp"
#include "mechdyn/dynamics/rnea_derivatives.hpp"
#include "mechdyn/friction/friction_effort_derivatives.hpp"
#include "random_model.hpp"

namespace {

using mechdyn::Data;
using mechdyn::DerivativeData;
using mechdyn::MatX;
using mechdyn::Model;
using mechdyn::VecX;
using mechdyn::testing::example_model;
using Complex = std::complex<double>;
using ComplexVector = std::vector<Complex>;

constexpr double kStep = 1e-30;      // h: far below any rounding of the real part
constexpr double kTolerance = 1e-10;  // relative to the matrix's scale

/// The generated functions, compiled for a complex scalar.
struct ComplexCode {
  using InverseDynamics = void (*)(const Complex*, const Complex*, const Complex*, Complex*);
  using ForwardDynamics = int (*)(const Complex*, const Complex*, const Complex*, Complex*);
  using JointReactions = void (*)(const Complex*, const Complex*, const Complex*, Complex*, Complex*);
  using WithFriction = void (*)(const Complex*, const Complex*, const Complex*, Complex*, Complex*);
  std::string directory;
  void* handle = nullptr;
  InverseDynamics inverse_dynamics = nullptr;
  ForwardDynamics forward_dynamics = nullptr;
  JointReactions joint_reactions = nullptr;
  WithFriction inverse_dynamics_with_friction = nullptr;  // models with joint friction only

  ComplexCode() = default;
  ComplexCode(const ComplexCode&) = delete;
  ComplexCode& operator=(const ComplexCode&) = delete;
  ~ComplexCode() {
    if (handle != nullptr) ::dlclose(handle);
    std::error_code ignored;
    if (!directory.empty()) std::filesystem::remove_all(directory, ignored);
  }
};

/// What the generated C++ needs beyond <complex>: comparisons on the real part (the guards
/// of the L^T D L pivots and the friction's sign), |x| and max(x, y) on the real part's branch.
const char* const kPreamble = R"(#include <algorithm>
#include <complex>
using Complex = std::complex<double>;
inline bool operator>(const Complex& a, const Complex& b) { return a.real() > b.real(); }
inline bool operator>(const Complex& a, double b) { return a.real() > b; }
inline bool operator>(double a, const Complex& b) { return a > b.real(); }
inline bool operator<(const Complex& a, const Complex& b) { return a.real() < b.real(); }
inline bool operator<(const Complex& a, double b) { return a.real() < b; }
inline bool operator<(double a, const Complex& b) { return a < b.real(); }
inline Complex complex_step_abs(const Complex& a) { return a.real() < 0.0 ? -a : a; }
inline Complex complex_step_max(const Complex& a, const Complex& b) { return a.real() < b.real() ? b : a; }
)";

/// Generates the C++ for `model`, rewrites it for the complex scalar, compiles and loads it.
/// Fails the test (ADD_FAILURE) and leaves null functions on any error.
void compile_complex(const Model& model, const std::string& prefix, ComplexCode& out) {
  mechdyn::CodegenOptions options;
  options.language = mechdyn::CodegenLanguage::Cpp;
  options.prefix = prefix;
  options.forward_dynamics = mechdyn::CodegenForwardDynamics::Factor;  // any joint kind
  const mechdyn::GeneratedCode code = mechdyn::generate_code(model, options);
  std::string source;
  for (const mechdyn::GeneratedFile& f : code.files)
    if (f.name == prefix + ".cpp") source = f.text;
  if (source.empty()) {
    ADD_FAILURE() << "no " << prefix << ".cpp generated";
    return;
  }
  source = std::regex_replace(source, std::regex("#include \"[^\"]*\"\n"), "");  // declarations: the definitions
  source = std::regex_replace(source, std::regex("\\bdouble\\b"), "Complex");
  source = std::regex_replace(source, std::regex("std::fabs\\("), "complex_step_abs(");
  source = std::regex_replace(source, std::regex("std::fmax\\("), "complex_step_max(");
  static int counter = 0;
  out.directory = ::testing::TempDir() + "mechdyn_complex_step_" + std::to_string(::getpid()) + "_" +
                  std::to_string(counter++);
  std::filesystem::create_directories(out.directory);
  const bool friction = source.find("inverse_dynamics_with_friction(") != std::string::npos;
  {
    std::ofstream file(out.directory + "/complex.cpp");
    file << kPreamble << source << "\nextern \"C\" {\n"
         << "void cs_inverse_dynamics(const Complex* q, const Complex* v, const Complex* a, Complex* t) { " << prefix
         << "::inverse_dynamics(q, v, a, t); }\n"
         << "int cs_forward_dynamics(const Complex* q, const Complex* v, const Complex* t, Complex* a) { return "
         << prefix << "::forward_dynamics(q, v, t, a); }\n"
         << "void cs_joint_reactions(const Complex* q, const Complex* v, const Complex* a, Complex* f, Complex* m) { "
         << prefix << "::joint_reactions(q, v, a, f, m); }\n";
    if (friction)
      file << "void cs_inverse_dynamics_with_friction(const Complex* q, const Complex* v, const Complex* a, "
              "Complex* t, Complex* f) { "
           << prefix << "::inverse_dynamics_with_friction(q, v, a, t, f); }\n";
    file << "}\n";
  }
  const std::string library = out.directory + "/libcomplex.so", log = out.directory + "/compiler.log";
  const std::string command = "c++ -std=c++11 -O0 -fPIC -shared -o " + library + " " + out.directory +
                              "/complex.cpp > " + log + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    ADD_FAILURE() << "the complex form does not compile: " << command << "\n"
                  << mechdyn::testing::read_whole_file(log);
    return;
  }
  out.handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (out.handle == nullptr) {
    ADD_FAILURE() << "dlopen " << library << ": " << ::dlerror();
    return;
  }
  auto find = [&](const char* name) {
    void* symbol = ::dlsym(out.handle, name);
    if (symbol == nullptr) ADD_FAILURE() << "no symbol " << name << " in " << library;
    return symbol;
  };
  out.inverse_dynamics = reinterpret_cast<ComplexCode::InverseDynamics>(find("cs_inverse_dynamics"));
  out.forward_dynamics = reinterpret_cast<ComplexCode::ForwardDynamics>(find("cs_forward_dynamics"));
  out.joint_reactions = reinterpret_cast<ComplexCode::JointReactions>(find("cs_joint_reactions"));
  if (friction)
    out.inverse_dynamics_with_friction =
        reinterpret_cast<ComplexCode::WithFriction>(find("cs_inverse_dynamics_with_friction"));
}

ComplexVector complex_of(const VecX& x, const VecX& direction = VecX()) {
  ComplexVector out(static_cast<std::size_t>(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    out[static_cast<std::size_t>(i)] = Complex(x[i], direction.size() == 0 ? 0.0 : kStep * direction[i]);
  return out;
}

VecX step_derivative(const ComplexVector& value) {  // Im f(x + i h d) / h
  VecX out(static_cast<Eigen::Index>(value.size()));
  for (std::size_t i = 0; i < value.size(); ++i) out[static_cast<Eigen::Index>(i)] = value[i].imag() / kStep;
  return out;
}

/// The nv columns of a function's complex-step derivative: `evaluate(q, v, u)` of complex
/// inputs returns the outputs; column j perturbs q along the tangent direction e_j
/// (`wrt` = 0), v along e_j (1) or the third input along e_j (2).
template <typename Evaluate>
MatX complex_step_matrix(const Model& model, const VecX& q, const VecX& v, const VecX& u, int wrt,
                         const Evaluate& evaluate) {
  MatX out;
  for (Eigen::Index j = 0; j < model.nv; ++j) {
    const VecX e = VecX::Unit(model.nv, j);
    const ComplexVector column = evaluate(complex_of(q, wrt == 0 ? mechdyn::testing::configuration_rate(model, q, e) : VecX()),
                                          complex_of(v, wrt == 1 ? e : VecX()), complex_of(u, wrt == 2 ? e : VecX()));
    if (j == 0) out.resize(static_cast<Eigen::Index>(column.size()), model.nv);
    out.col(j) = step_derivative(column);
  }
  return out;
}

/// |analytic − complex step|∞ / max(1, |complex step|∞).
double relative_error(const MatX& analytic, const MatX& complex_step) {
  EXPECT_EQ(analytic.rows(), complex_step.rows());
  EXPECT_EQ(analytic.cols(), complex_step.cols());
  if (analytic.rows() != complex_step.rows() || analytic.cols() != complex_step.cols()) return 1.0;
  return (analytic - complex_step).cwiseAbs().maxCoeff() / std::max(1.0, complex_step.cwiseAbs().maxCoeff());
}

struct Worst {
  double dtau = 0, dddq = 0, dreaction = 0, dfriction = 0;
};

/// Compares ∂τ/∂(q, v), ∂q̈/∂(q, v, τ), the reactions' ∂/∂(q, v) and (with friction) ∂τ_f/∂(q, v)
/// with the complex step of the generated code at `states` random states, the velocities
/// uniform in ±`speed` moved `away` from 0 (the friction laws' kink at v = 0).
Worst compare(const Model& model, const ComplexCode& code, unsigned seed, int states, double speed = 2.0,
              double away = 0.3) {
  Worst worst;
  if (code.inverse_dynamics == nullptr || code.forward_dynamics == nullptr || code.joint_reactions == nullptr)
    return worst;
  Data data(model);
  DerivativeData work(model, true);
  std::mt19937 rng(seed);
  const std::size_t nv = static_cast<std::size_t>(model.nv), n = static_cast<std::size_t>(model.num_bodies());
  const auto tau_of = [&](const ComplexVector& q, const ComplexVector& v, const ComplexVector& a) {
    ComplexVector tau(nv);
    code.inverse_dynamics(q.data(), v.data(), a.data(), tau.data());
    return tau;
  };
  const auto ddq_of = [&](const ComplexVector& q, const ComplexVector& v, const ComplexVector& tau) {
    ComplexVector ddq(nv);
    EXPECT_EQ(code.forward_dynamics(q.data(), v.data(), tau.data(), ddq.data()), 0) << "generated M singular";
    return ddq;
  };
  const auto reactions_of = [&](const ComplexVector& q, const ComplexVector& v, const ComplexVector& a) {
    ComplexVector force(3 * n), torque(3 * n), out(6 * n);
    code.joint_reactions(q.data(), v.data(), a.data(), force.data(), torque.data());
    for (std::size_t u = 0; u < n; ++u)  // DerivativeData's rows: 6u…6u+2 force, 6u+3…6u+5 torque
      for (std::size_t k = 0; k < 3; ++k) out[6 * u + k] = force[3 * u + k], out[6 * u + 3 + k] = torque[3 * u + k];
    return out;
  };
  const auto friction_of = [&](const ComplexVector& q, const ComplexVector& v, const ComplexVector& a) {
    ComplexVector tau(nv), friction(nv);
    code.inverse_dynamics_with_friction(q.data(), v.data(), a.data(), tau.data(), friction.data());
    return friction;
  };
  for (int s = 0; s < states; ++s) {
    SCOPED_TRACE(model.name + " state " + std::to_string(s));
    const VecX q = mechdyn::testing::random_configuration(model, rng);
    VecX v = mechdyn::testing::random_vector(model.nv, rng, speed);
    for (Eigen::Index k = 0; k < model.nv; ++k) v[k] += v[k] >= 0 ? away : -away;
    const VecX a = mechdyn::testing::random_vector(model.nv, rng, 3.0);
    const VecX tau = mechdyn::testing::random_vector(model.nv, rng, 10.0);

    mechdyn::rnea_derivatives(model, data, work, q, v, a);  // with reactions (work made so)
    const double e_tau = std::max(relative_error(work.dtau_dq, complex_step_matrix(model, q, v, a, 0, tau_of)),
                                  relative_error(work.dtau_dv, complex_step_matrix(model, q, v, a, 1, tau_of)));
    const double e_reaction =
        std::max(relative_error(work.dreaction_dq, complex_step_matrix(model, q, v, a, 0, reactions_of)),
                 relative_error(work.dreaction_dv, complex_step_matrix(model, q, v, a, 1, reactions_of)));
    EXPECT_LE(e_tau, kTolerance) << "dtau/dq, dtau/dv";
    EXPECT_LE(e_reaction, kTolerance) << "d reactions/dq, dv";

    mechdyn::aba_derivatives(model, data, work, q, v, tau);
    const double e_ddq = std::max({relative_error(work.da_dq, complex_step_matrix(model, q, v, tau, 0, ddq_of)),
                                   relative_error(work.da_dv, complex_step_matrix(model, q, v, tau, 1, ddq_of)),
                                   relative_error(work.da_dtau, complex_step_matrix(model, q, v, tau, 2, ddq_of))});
    EXPECT_LE(e_ddq, kTolerance) << "dddq/dq, dv, dtau";

    worst.dtau = std::max(worst.dtau, e_tau);
    worst.dreaction = std::max(worst.dreaction, e_reaction);
    worst.dddq = std::max(worst.dddq, e_ddq);
    if (code.inverse_dynamics_with_friction != nullptr) {
      mechdyn::friction_effort_derivatives(model, data, work, q, v, a);
      const double e_friction =
          std::max(relative_error(work.dfriction_dq, complex_step_matrix(model, q, v, a, 0, friction_of)),
                   relative_error(work.dfriction_dv, complex_step_matrix(model, q, v, a, 1, friction_of)));
      EXPECT_LE(e_friction, kTolerance) << "d friction/dq, dv";
      worst.dfriction = std::max(worst.dfriction, e_friction);
    }
  }
  std::printf("%-28s complex step, worst relative difference: dtau %.1e, dddq %.1e, reactions %.1e, friction %.1e\n",
              model.name.c_str(), worst.dtau, worst.dddq, worst.dreaction, worst.dfriction);
  return worst;
}

// Bug caught: a wrong term of the derivative recursions (a sign, gravity left out of the
// base acceleration, a missing axis variation, M⁻¹ applied on the wrong side) that a
// centred difference, good to ~1e-7, lets through when it is small: here to 1e-10, on the
// paper's five-axis tree, the 7-DoF Panda and the planar 3R arm.
TEST(DerivativesComplexStep, ExamplesAgreeToRounding) {
  for (const char* name : {"five_axis_tree", "panda_7dof", "planar_3dof_arm"}) {
    const Model model = example_model(name);
    ComplexCode code;
    compile_complex(model, "complex_example", code);
    compare(model, code, 7u, 4);
  }
}

// Bug caught: the tangent convention of spherical and free joints (world components of
// the rotation, the free joint's translation in world axes) or a multi-coordinate joint's
// columns (universal, cylindrical) wrong; the general form above spherical and free joints
// and the fast form elsewhere both checked: seeded random trees of every joint type.
TEST(DerivativesComplexStep, RandomTreesOfEveryJointTypeAgreeToRounding) {
  int spherical_or_free = 0;
  for (unsigned seed = 3; seed <= 8; ++seed) {  // odd seeds: world axes (general form), even: rigid only (fast)
    const Model model = mechdyn::testing::tree_with_every_joint_type(seed, 3 + static_cast<int>(seed % 4), seed % 2 == 1);
    for (const mechdyn::Joint& joint : model.joints)
      spherical_or_free += joint.type == mechdyn::JointType::Spherical || joint.type == mechdyn::JointType::Free;
    ComplexCode code;
    compile_complex(model, "complex_tree", code);
    compare(model, code, seed, 2);
  }
  EXPECT_GT(spherical_or_free, 0) << "no spherical or free joint was generated: the tangent convention went unchecked";
}

// Bug caught: a wrong derivative of the load-dependent friction efforts (EC §3.3: the
// load decomposition's |P x|, the normal load, the Stribeck exponent, the viscous term):
// the paper's tree with Coulomb–viscous and with Stribeck friction (eqs. 42, 52), the
// velocities near the Stribeck velocity 0.03 rad/s (|v| in 0.01 … 0.05), where the
// exponential term's slope is largest, and at ordinary speeds (|v| in 0.3 … 2.3).
TEST(DerivativesComplexStep, FrictionEffortsAgreeToRounding) {
  for (const char* name : {"five_axis_tree_coulomb_viscous", "five_axis_tree_stribeck"}) {
    const Model model = example_model(name);
    ComplexCode code;
    compile_complex(model, "complex_friction", code);
    ASSERT_NE(code.inverse_dynamics_with_friction, nullptr) << name << " has no generated friction function";
    compare(model, code, 11u, 3, 0.04, 0.01);
    compare(model, code, 12u, 3);
  }
}

}  // namespace
