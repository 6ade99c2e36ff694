// Generated closed-form code for one mechanism (`mechdyn codegen`, docs/codegen.md).
//
// generate_code(model) writes dependency-free C99 (or C++) for that model alone:
//   mass_matrix(q, M)                     M(q), row-major nv × nv
//   bias(q, v, h)                         h(q, v): Coriolis, centrifugal and gravity terms
//   inverse_dynamics(q, v, a, tau)        tau = M a + h
//   forward_dynamics(q, v, tau, a)        a = M⁻¹ (tau − h) by an unrolled branch-sparse
//                                         Lᵀ D L, or by the unrolled articulated-body
//                                         algorithm where that prints fewer operations
//                                         (long chains; joints of ≤ 1 coordinate); returns
//                                         0, or k + 1 when pivot k (D_k) is not positive
//                                         (M singular), leaving a untouched
//   joint_reactions(q, v, a, force, torque)  per joint, world frame, torque about the
//                                         child's frame origin (eval-json.md `reactions`)
//   inverse_dynamics_with_friction(q, v, a, tau_d, friction)  only for a model with joint
//                                         friction: tau_d = M a + h + tau_f and tau_f, the
//                                         load-dependent friction of EC §3.3 (eval's
//                                         tau_with_friction, friction_effort; LuGre at its
//                                         steady state; at v = 0 the effort opposes a)
//   inverse_dynamics_with_lugre_state(q, v, a, z, tau_d, friction, z_rate)  only for a
//                                         model with a LuGre joint: the same with the
//                                         bristle deflections z given (LuGreEvaluation::State)
//                                         and their rates ż written
//   applied_force(q, v, Q_f)              only for a model with force elements (format 3):
//                                         Q_f, their generalized force (eval's applied_forces)
// Model format 3 (../shared/spec/force-elements.md): the joints' armature is on M's diagonal
// in every function; spring-damper and joint-spring-damper elements make inverse_dynamics
// tau = M a + h − Q_f and forward_dynamics solve M a = tau + Q_f − h (compute_all_terms'
// convention); joint_reactions and the friction functions carry the elements' wrenches, and
// bias is h alone. With a spring-damper that divides by its length (damping > 0 or
// k L0 ≠ T0), every function evaluating it returns int: −(j + 1) when spring-damper j has
// its points closer than 1e-12 m (the library's SolverError), outputs untouched.
// with the model's constants folded in as literals, no multiplication by a structural 0
// or ±1, common subexpressions as named locals and the tree unrolled (no loops). The
// algorithms are Featherstone's RNEA, CRBA and LTDL (2008, §5.3, §6.2, §6.5) in each
// body's natural frame, evaluated symbolically once at generation time (src/codegen/).
// Joint types: revolute, prismatic, cylindrical, universal, spherical, free, fixed.
// Refused (ModelError naming the part): flexible bodies, loops (cut joints), couplings,
// joint-stop, joint-servo, bushing and applied force elements, a model with no degrees of
// freedom, and more than kCodegenMaxDofs coordinates.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn {

enum class CodegenLanguage { C, Cpp };

/// The form of the generated forward dynamics.
enum class CodegenForwardDynamics {
  Cheaper,      // whichever of the two prints fewer multiplications + additions + divisions
  Factor,       // M, h, branch-sparse Lᵀ D L (any joint type)
  Articulated,  // the articulated-body algorithm (joints of one coordinate or none)
};

/// The largest nv codegen accepts: the unrolled M and its factor grow as O(nv · depth)
/// lines (a 200-joint chain: ~10⁵ lines), beyond which a compiler takes minutes.
inline constexpr int kCodegenMaxDofs = 200;

struct CodegenOptions {
  CodegenLanguage language = CodegenLanguage::C;
  std::string prefix;        // C identifier for the file and function names; empty: the model's name
  std::string model_source;  // the model file, named in the generated comment block
  CodegenForwardDynamics forward_dynamics = CodegenForwardDynamics::Cheaper;
};

/// Operations in the generated code of one function (kinematics included).
struct CodegenCounts {
  long multiplications = 0, divisions = 0, additions = 0, negations = 0;
  long sines = 0, cosines = 0, square_roots = 0, maxima = 0;
  // the friction function (inverse_dynamics_with_friction): exp (Stribeck), tanh
  // (Brown–McPhee), fabs (axial loads), selections (sign of v, or of a at v = 0)
  long exponentials = 0, hyperbolic_tangents = 0, absolute_values = 0, selections = 0;
  long locals = 0;  // named locals (common subexpressions and named quantities)
};

struct GeneratedFunction {
  std::string name;  // e.g. "five_axis_tree_mass_matrix" (C) or "mass_matrix" (C++, in namespace prefix)
  CodegenCounts counts;
  bool returns_status = false;  // int (0: success) rather than void: forward_dynamics always; with a
                                // spring-damper that divides by its length, every function that evaluates it
};

struct GeneratedFile {
  std::string name;  // file name inside the output directory
  std::string text;
};

struct GeneratedCode {
  std::string prefix;
  std::vector<GeneratedFile> files;          // header, source, CMakeLists.txt, README.md
  std::vector<GeneratedFunction> functions;  // the five functions (+1 with friction, +2 with LuGre, +1 with force elements), in the order above
  std::vector<std::string> notes;            // what a user must know (e.g. M singular at every q)
};

/// Generates the code for `model` (finalised). Throws ModelError naming the element it
/// cannot express, InvalidArgument for a prefix that is not a C identifier or for
/// CodegenForwardDynamics::Articulated on a model with a joint of several coordinates
/// (naming it).
GeneratedCode generate_code(const Model& model, const CodegenOptions& options = {});

/// Writes the files into `directory`, all or nothing: they are written into
/// `directory.partial-PID` first and renamed onto `directory` at the end. An existing
/// `directory` is replaced only when it is empty or was written by generate_code (it
/// holds the marker file `.mechdyn-codegen`). Throws InvalidArgument naming the
/// directory when it cannot be created or written, or is someone else's.
void write_generated_code(const GeneratedCode& code, const std::string& directory);

}  // namespace mechdyn
