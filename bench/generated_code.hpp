// The five functions `mechdyn codegen` writes for one model (docs/codegen.md), as
// function pointers, and their check against the library. Shared by the benchmarks that
// compile generated C (bench_peers.cpp, bench_codegen.cpp).
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

/// Pointers to `PREFIX_mass_matrix` … `PREFIX_joint_reactions` (codegen/codegen.hpp).
struct GeneratedFunctions {
  void (*mass_matrix)(const double* q, double* M);
  void (*bias)(const double* q, const double* v, double* h);
  void (*inverse_dynamics)(const double* q, const double* v, const double* a, double* tau);
  int (*forward_dynamics)(const double* q, const double* v, const double* tau, double* a);
  void (*joint_reactions)(const double* q, const double* v, const double* a, double* force, double* torque);
};

/// GeneratedFunctions of the C code written with prefix `prefix` (its header included).
#define MECHDYN_GENERATED_FUNCTIONS(prefix)                                                          \
  ::mechdyn::bench::GeneratedFunctions {                                                             \
    prefix##_mass_matrix, prefix##_bias, prefix##_inverse_dynamics, prefix##_forward_dynamics,       \
        prefix##_joint_reactions                                                                     \
  }

/// Largest difference generated − library (crba, rnea, aba, joint_reactions) relative to
/// max(1, |library|∞), accumulated over the states passed to add().
class GeneratedCheck {
 public:
  GeneratedCheck(const Model& model, const GeneratedFunctions& functions);
  /// Compares all five functions at one state.
  void add(const VecX& q, const VecX& v, const VecX& a, const VecX& tau);
  double worst() const { return worst_; }
  const char* worst_quantity() const { return quantity_; }

 private:
  void note(const double* value, const double* reference, Eigen::Index size, const char* quantity);
  const Model& model_;
  GeneratedFunctions functions_;
  Data data_;
  VecX out_, zero_, force_, torque_;
  double worst_ = 0.0;
  const char* quantity_ = "";
};

}  // namespace mechdyn::bench
