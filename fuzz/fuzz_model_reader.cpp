// Fuzz target: the model reader (src/io/model_file.cpp) on arbitrary file text.
// Contract checked: every input either loads or throws mechdyn::ModelError with a one-line
// message naming the source; nothing else escapes (no yaml-cpp exception, no bad_alloc
// from a size in the file, no crash, no sanitizer report). A model that loads is usable:
// Data builds and the recursive dynamics run at the neutral state (SolverError allowed:
// a singular M is a property of the model, not a defect); a model with flexible bodies
// builds its FlexibleSystem and evaluates M, h and the loop closure. A small model also goes
// through `mechdyn codegen`'s generator (codegen/codegen.hpp, in memory): it generates or
// throws a one-line mechdyn::Error, never anything else.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/dynamics/aba.hpp"
#include "mechdyn/dynamics/crba.hpp"
#include "mechdyn/dynamics/rnea.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/flexible_system.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/model/data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  mechdyn::Model model;
  try {
    model = mechdyn::parse_model_string(text, "fuzz.yaml", &warnings);
  } catch (const mechdyn::ModelError& e) {
    const char* message = e.what();
    if (std::strchr(message, '\n') != nullptr || std::strncmp(message, "fuzz.yaml: ", 11) != 0) std::abort();
    return 0;
  }
  for (const std::string& w : warnings)
    if (w.find('\n') != std::string::npos) std::abort();
  if (model.nv > 200) return 0;  // keep each run fast; size is fuzz_eval's business
  if (mechdyn::has_flexible_bodies(model)) {  // the system level of flexible bodies (flexible_system.hpp)
    try {
      const mechdyn::FlexibleSystem system = mechdyn::make_flexible_system(model);
      mechdyn::FlexibleSystemData data(model, system);
      const mechdyn::VecX q = model.neutral_configuration();
      const mechdyn::VecX v = mechdyn::VecX::Zero(model.nv), none;
      mechdyn::flexible_kinematics(model, system, data, q, v);
      mechdyn::flexible_mass_matrix(model, system, data, q);
      mechdyn::flexible_bias_force(model, system, data, q, v, none);
      mechdyn::flexible_loop_closure(model, system, data, q, v);
    } catch (const mechdyn::SolverError&) {  // e.g. a modal reduction of a degenerate beam
    } catch (const mechdyn::Error& e) {       // a typed refusal must be one line
      if (std::strchr(e.what(), '\n') != nullptr) std::abort();
    }
    return 0;
  }
  std::optional<mechdyn::Data> store;
  try {
    store.emplace(model);
  } catch (const mechdyn::ModelError& e) {
    if (std::strchr(e.what(), '\n') != nullptr) std::abort();
    return 0;
  }
  mechdyn::Data& work = *store;
  const mechdyn::VecX q = model.neutral_configuration();
  const mechdyn::VecX zero = mechdyn::VecX::Zero(model.nv);
  try {
    mechdyn::crba(model, work, q);
    mechdyn::rnea(model, work, q, zero, zero);
    mechdyn::aba(model, work, q, zero, zero);
  } catch (const mechdyn::SolverError&) {
  }
  if (model.nv <= 24) {  // the generated text grows as nv x depth: keep each run fast
    try {
      mechdyn::generate_code(model);
    } catch (const mechdyn::Error& e) {  // loops, no coordinates, numbers that overflow when folded
      if (std::strchr(e.what(), '\n') != nullptr) std::abort();
    }
  }
  return 0;
}
