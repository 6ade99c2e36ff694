// The functions `mechdyn codegen` writes (five; six with joint friction, seven with LuGre),
// each built in its own expression graph from the symbolic algorithms and printed by
// c_emitter (generated_functions.cpp). The
// file layout around them (header, comment block, C or C++) is generated_files.cpp's.
// Not installed.
#pragma once

#include <string>
#include <vector>

#include "c_emitter.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::codegen {

struct Parameter {
  std::string name;  // q, v, a, tau, M, h, force, torque
  int size = 0;      // number of doubles
  bool input = true;
  std::string meaning;
};

struct FunctionPart {
  std::string name;     // without prefix: mass_matrix, bias, ...
  std::string summary;  // one line for the header comment
  std::vector<Parameter> parameters;
  bool returns_status = false;  // int: 0 ok, k + 1 singular at pivot k, −(j + 1) spring-damper j at L ≈ 0
  std::string status;           // what the status means, for the header (returns_status only)
  bool always_fails = false;    // forward dynamics of a model whose M is singular at every q
  std::string note;             // said in the header, the README and by the command line
  EmittedBody body;
};

/// mass_matrix, bias, inverse_dynamics, forward_dynamics, joint_reactions for `model`,
/// inverse_dynamics_with_friction when a joint has friction, inverse_dynamics_with_lugre_state
/// when a joint has LuGre friction, applied_force (Q_f) when it has force elements (format 3:
/// spring-dampers and joint spring-dampers only, the caller refuses the others);
/// math_prefix as emit_body's; `form` chooses forward_dynamics' algorithm (Articulated
/// needs every joint of ≤ 1 coordinate: the caller checks).
std::vector<FunctionPart> generate_functions(const Model& model, const std::string& math_prefix,
                                             CodegenForwardDynamics form = CodegenForwardDynamics::Cheaper);

}  // namespace mechdyn::codegen
