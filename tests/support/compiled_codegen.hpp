// Compiles the code `mechdyn codegen` writes for a model with the system C (or C++)
// compiler into a shared object and loads its five functions (six for a model with joint
// friction), for tests/properties/test_codegen*.cpp. The compiler is run with -std=c99 -pedantic-errors -Wall -Wextra
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
         << "void shim_inverse_dynamics(const double* q, const double* v, const double* a, double* t) { " << prefix
         << "::inverse_dynamics(q, v, a, t); }\n"
         << "int shim_forward_dynamics(const double* q, const double* v, const double* t, double* a) { return "
         << prefix << "::forward_dynamics(q, v, t, a); }\n"
         << "void shim_joint_reactions(const double* q, const double* v, const double* a, double* f, double* m) { "
         << prefix << "::joint_reactions(q, v, a, f, m); }\n";
    for (const GeneratedFunction& f : out.code.functions)
      if (f.name == "inverse_dynamics_with_friction")
        shim << "void shim_inverse_dynamics_with_friction(const double* q, const double* v, const double* a, "
                "double* t, double* f) { "
             << prefix << "::inverse_dynamics_with_friction(q, v, a, t, f); }\n";
      else if (f.name == "inverse_dynamics_with_lugre_state")
        shim << "void shim_inverse_dynamics_with_lugre_state(const double* q, const double* v, const double* a, "
                "const double* z, double* t, double* f, double* r) { "
             << prefix << "::inverse_dynamics_with_lugre_state(q, v, a, z, t, f, r); }\n";
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
  out.inverse_dynamics = reinterpret_cast<CompiledCodegen::InverseDynamics>(find("inverse_dynamics"));
  out.forward_dynamics = reinterpret_cast<CompiledCodegen::ForwardDynamics>(find("forward_dynamics"));
  out.joint_reactions = reinterpret_cast<CompiledCodegen::JointReactions>(find("joint_reactions"));
  for (const GeneratedFunction& f : out.code.functions)
    if (f.name == p + "inverse_dynamics_with_friction" || f.name == "inverse_dynamics_with_friction")
      out.inverse_dynamics_with_friction =
          reinterpret_cast<CompiledCodegen::InverseDynamicsWithFriction>(find("inverse_dynamics_with_friction"));
    else if (f.name == p + "inverse_dynamics_with_lugre_state" || f.name == "inverse_dynamics_with_lugre_state")
      out.inverse_dynamics_with_lugre_state =
          reinterpret_cast<CompiledCodegen::InverseDynamicsWithLuGreState>(find("inverse_dynamics_with_lugre_state"));
}

}  // namespace mechdyn::testing
