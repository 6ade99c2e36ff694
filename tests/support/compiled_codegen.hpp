// Compiles the code `mechdyn codegen` writes for a model with the system C (or C++)
// compiler into a shared object and loads its five functions (six for a model with joint
// friction, one more, applied_force, with force elements), for tests/properties/test_codegen*.cpp. The compiler is run with -std=c99 -pedantic-errors -Wall -Wextra
// -Werror (C++: -std=c++11), so a warning in the generated code fails the test.
// Header-only.
#pragma once

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn::testing {

/// examples/models/NAME.yaml of the source tree.
inline Model example_model(const std::string& name) {
  return load_model_file(std::string(MECHDYN_SOURCE_DIR) + "/examples/models/" + name + ".yaml");
}

/// The scale of a relative comparison: max(1, ‖x‖∞).
inline double scale_of(const VecX& x) { return std::max(1.0, x.cwiseAbs().maxCoeff()); }

struct CompiledCodegen {
  using MassMatrix = void (*)(const double*, double*);
  using Bias = void (*)(const double*, const double*, double*);
  using InverseDynamics = void (*)(const double*, const double*, const double*, double*);
  using ForwardDynamics = int (*)(const double*, const double*, const double*, double*);
  using JointReactions = void (*)(const double*, const double*, const double*, double*, double*);
  using InverseDynamicsWithFriction = void (*)(const double*, const double*, const double*, double*, double*);
  using InverseDynamicsWithLuGreState = void (*)(const double*, const double*, const double*, const double*, double*,
                                                 double*, double*);

  GeneratedCode code;
  std::string directory;
  void* handle = nullptr;
  MassMatrix mass_matrix = nullptr;
  Bias bias = nullptr;
  InverseDynamics inverse_dynamics = nullptr;
  ForwardDynamics forward_dynamics = nullptr;
  JointReactions joint_reactions = nullptr;
  InverseDynamicsWithFriction inverse_dynamics_with_friction = nullptr;  // models with joint friction only
  InverseDynamicsWithLuGreState inverse_dynamics_with_lugre_state = nullptr;  // models with a LuGre joint only
  // Model format 3 with a spring-damper that divides by its length: these functions return
  // int (0, or −(j + 1) for spring-damper j at L < 1e-12 m); the void pointers above stay null.
  using InverseDynamicsStatus = int (*)(const double*, const double*, const double*, double*);
  using JointReactionsStatus = int (*)(const double*, const double*, const double*, double*, double*);
  using AppliedForce = void (*)(const double*, const double*, double*);
  using AppliedForceStatus = int (*)(const double*, const double*, double*);
  InverseDynamicsStatus inverse_dynamics_status = nullptr;
  JointReactionsStatus joint_reactions_status = nullptr;
  AppliedForce applied_force = nullptr;               // models with force elements only
  AppliedForceStatus applied_force_status = nullptr;  // the same, int
  using InverseDynamicsWithFrictionStatus = int (*)(const double*, const double*, const double*, double*, double*);
  InverseDynamicsWithFrictionStatus inverse_dynamics_with_friction_status = nullptr;
  int call_inverse_dynamics_with_friction(const double* q, const double* v, const double* a, double* t, double* f) const {
    if (inverse_dynamics_with_friction_status != nullptr) return inverse_dynamics_with_friction_status(q, v, a, t, f);
    inverse_dynamics_with_friction(q, v, a, t, f);
    return 0;
  }

  /// The inverse dynamics, joint reactions and Q_f whichever their return type: the status, 0 for void.
  int call_inverse_dynamics(const double* q, const double* v, const double* a, double* tau) const {
    if (inverse_dynamics_status != nullptr) return inverse_dynamics_status(q, v, a, tau);
    inverse_dynamics(q, v, a, tau);
    return 0;
  }
  int call_joint_reactions(const double* q, const double* v, const double* a, double* f, double* m) const {
    if (joint_reactions_status != nullptr) return joint_reactions_status(q, v, a, f, m);
    joint_reactions(q, v, a, f, m);
    return 0;
  }
  int call_applied_force(const double* q, const double* v, double* out) const {
    if (applied_force_status != nullptr) return applied_force_status(q, v, out);
    applied_force(q, v, out);
    return 0;
  }
  bool returns_status(const std::string& function) const {
    for (const GeneratedFunction& f : code.functions)
      if (f.name == function || f.name == code.prefix + "_" + function) return f.returns_status;
    return false;
  }

  CompiledCodegen() = default;
  CompiledCodegen(const CompiledCodegen&) = delete;
  CompiledCodegen& operator=(const CompiledCodegen&) = delete;
  ~CompiledCodegen() {  // the shared object, sources and compiler log go with it
    if (handle != nullptr) ::dlclose(handle);
    std::error_code ignored;
    if (!directory.empty()) std::filesystem::remove_all(directory, ignored);
  }
  const std::string& text(const std::string& file_name) const {
    for (const GeneratedFile& f : code.files)
      if (f.name == file_name) return f.text;
    throw std::runtime_error("no generated file " + file_name);
  }
};

inline std::string read_whole_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Generates, writes (write_generated_code), compiles and loads the code for `model`.
/// Fails the current test (ADD_FAILURE) and returns with null functions on any error.
inline void compile_codegen(const Model& model, CodegenLanguage language, const std::string& prefix,
                            CompiledCodegen& out,
                            mechdyn::CodegenForwardDynamics form = mechdyn::CodegenForwardDynamics::Cheaper) {
  namespace fs = std::filesystem;
  CodegenOptions options;
  options.forward_dynamics = form;
  options.language = language;
  options.prefix = prefix;
  options.model_source = "test model '" + model.name + "'";
  out.code = generate_code(model, options);
  static int counter = 0;
  out.directory = ::testing::TempDir() + "mechdyn_codegen_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  write_generated_code(out.code, out.directory);
  const bool c = language == CodegenLanguage::C;
  const std::string library = out.directory + "/lib" + prefix + ".so";
  std::string sources = out.directory + "/" + prefix + (c ? ".c" : ".cpp");
  if (!c) {  // unmangled names to look up: a shim with extern "C" wrappers
    std::ofstream shim(out.directory + "/shim.cpp");
    shim << "#include \"" << prefix << ".hpp\"\n"
         << "extern \"C\" {\n"
         << "void shim_mass_matrix(const double* q, double* M) { " << prefix << "::mass_matrix(q, M); }\n"
         << "void shim_bias(const double* q, const double* v, double* h) { " << prefix << "::bias(q, v, h); }\n"
         << "int shim_forward_dynamics(const double* q, const double* v, const double* t, double* a) { return "
         << prefix << "::forward_dynamics(q, v, t, a); }\n";
    for (const GeneratedFunction& f : out.code.functions) {
      const std::string result = f.returns_status ? "int " : "void ", ret = f.returns_status ? "return " : "";
      if (f.name == "inverse_dynamics")
        shim << result << "shim_inverse_dynamics(const double* q, const double* v, const double* a, double* t) { " << ret
             << prefix << "::inverse_dynamics(q, v, a, t); }\n";
      else if (f.name == "joint_reactions")
        shim << result << "shim_joint_reactions(const double* q, const double* v, const double* a, double* f, double* m) { "
             << ret << prefix << "::joint_reactions(q, v, a, f, m); }\n";
      else if (f.name == "applied_force")
        shim << result << "shim_applied_force(const double* q, const double* v, double* f) { " << ret << prefix
             << "::applied_force(q, v, f); }\n";
      else if (f.name == "inverse_dynamics_with_friction")
        shim << result << "shim_inverse_dynamics_with_friction(const double* q, const double* v, const double* a, "
                "double* t, double* f) { "
             << ret << prefix << "::inverse_dynamics_with_friction(q, v, a, t, f); }\n";
      else if (f.name == "inverse_dynamics_with_lugre_state")
        shim << "void shim_inverse_dynamics_with_lugre_state(const double* q, const double* v, const double* a, "
                "const double* z, double* t, double* f, double* r) { "
             << prefix << "::inverse_dynamics_with_lugre_state(q, v, a, z, t, f, r); }\n";
    }
    shim << "}\n";
    sources += " " + out.directory + "/shim.cpp";
  }
  const std::string log = out.directory + "/compiler.log";
  const std::string command = std::string(c ? "cc -std=c99" : "c++ -std=c++11") +
                              " -pedantic-errors -Wall -Wextra -Werror -O1 -fPIC -shared -o " + library + " " + sources +
                              " -lm > " + log + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    ADD_FAILURE() << "the generated code does not compile: " << command << "\n" << read_whole_file(log);
    return;
  }
  out.handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (out.handle == nullptr) {
    ADD_FAILURE() << "dlopen " << library << ": " << ::dlerror();
    return;
  }
  const std::string p = c ? prefix + "_" : "shim_";
  auto find = [&](const std::string& name) {
    void* symbol = ::dlsym(out.handle, (p + name).c_str());
    if (symbol == nullptr) ADD_FAILURE() << "no symbol " << p + name << " in " << library;
    return symbol;
  };
  out.mass_matrix = reinterpret_cast<CompiledCodegen::MassMatrix>(find("mass_matrix"));
  out.bias = reinterpret_cast<CompiledCodegen::Bias>(find("bias"));
  if (out.returns_status("inverse_dynamics"))
    out.inverse_dynamics_status = reinterpret_cast<CompiledCodegen::InverseDynamicsStatus>(find("inverse_dynamics"));
  else
    out.inverse_dynamics = reinterpret_cast<CompiledCodegen::InverseDynamics>(find("inverse_dynamics"));
  out.forward_dynamics = reinterpret_cast<CompiledCodegen::ForwardDynamics>(find("forward_dynamics"));
  if (out.returns_status("joint_reactions"))
    out.joint_reactions_status = reinterpret_cast<CompiledCodegen::JointReactionsStatus>(find("joint_reactions"));
  else
    out.joint_reactions = reinterpret_cast<CompiledCodegen::JointReactions>(find("joint_reactions"));
  for (const GeneratedFunction& f : out.code.functions)
    if (f.name == p + "applied_force" || f.name == "applied_force") {
      if (f.returns_status)
        out.applied_force_status = reinterpret_cast<CompiledCodegen::AppliedForceStatus>(find("applied_force"));
      else
        out.applied_force = reinterpret_cast<CompiledCodegen::AppliedForce>(find("applied_force"));
    }
  for (const GeneratedFunction& f : out.code.functions)
    if ((f.name == p + "inverse_dynamics_with_friction" || f.name == "inverse_dynamics_with_friction") && f.returns_status)
      out.inverse_dynamics_with_friction_status = reinterpret_cast<CompiledCodegen::InverseDynamicsWithFrictionStatus>(
          find("inverse_dynamics_with_friction"));
    else if (f.name == p + "inverse_dynamics_with_friction" || f.name == "inverse_dynamics_with_friction")
      out.inverse_dynamics_with_friction =
          reinterpret_cast<CompiledCodegen::InverseDynamicsWithFriction>(find("inverse_dynamics_with_friction"));
    else if (f.name == p + "inverse_dynamics_with_lugre_state" || f.name == "inverse_dynamics_with_lugre_state")
      out.inverse_dynamics_with_lugre_state =
          reinterpret_cast<CompiledCodegen::InverseDynamicsWithLuGreState>(find("inverse_dynamics_with_lugre_state"));
}

}  // namespace mechdyn::testing
