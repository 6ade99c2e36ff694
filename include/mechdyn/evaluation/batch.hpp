// Many states per call (issue 29 item 3; docs/python.md "Batches", docs/benchmarks.md
// "Batch"): RNEA, ABA, CRBA, their analytical derivatives and one RK4 step of K states,
// evaluated on a thread pool (evaluation/thread_pool.hpp).
//
// Layout: state k is column k. Inputs q (nq × K), v, a, tau (nv × K); outputs the caller
// provides, sized: vectors nv × K (column k the result of state k), matrices nv × (nv K)
// (state k's nv × nv matrix in columns k nv … k nv + nv − 1). A C-ordered numpy array of
// shape (K, nq) is this column-major nq × K matrix in memory (the Python binding maps it
// without a copy).
//
// Each state is one call of the single-state algorithm (dynamics/rnea.hpp, aba.hpp,
// crba.hpp, rnea_derivatives.hpp, aba_derivatives.hpp; simulation/integrators.hpp's
// Rk4Integrator::step) on the Data of the thread that runs it: the results equal K single
// calls bit for bit, for any thread count. The pool hands the states out in contiguous
// blocks, about 8 per thread (ThreadPool::parallel_for). No SIMD across states:
// docs/benchmarks.md "Batch" says why.
//
// Errors: every function first checks the workspace (made for this model's shape), the
// shapes of inputs and outputs, and that every input is finite, and throws InvalidArgument
// with a one-line message naming the function, the argument and the state. An error of
// one state during the evaluation (SolverError: a singular articulated inertia, a step
// that blows up) stops the call and is rethrown in the caller; outputs are then partly
// written. Allocates nothing after the workspace is built
// (tests/unit/test_batch_no_allocation.cpp).
// One workspace serves one call at a time (calls from several threads take turns).
#pragma once

#include <memory>
#include <vector>

#include "mechdyn/dynamics/derivative_data.hpp"
#include "mechdyn/evaluation/thread_pool.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

/// What one thread of a batch works in. Made once from a Model; never resized.
struct BatchThreadWorkspace {
  explicit BatchThreadWorkspace(const Model& model);
  BatchThreadWorkspace(const BatchThreadWorkspace&) = delete;
  BatchThreadWorkspace& operator=(const BatchThreadWorkspace&) = delete;

  Data data;                  // every dense group reserved (model/data.hpp): no algorithm allocates
  DerivativeData derivatives; // results of rnea_derivatives / aba_derivatives, nv × nv each
  const double* step_tau = nullptr;  // batch_step: the nv efforts of the state being stepped (held over the step)
  Rk4Integrator integrator;   // batch_step: ẋ = (q̇, ABA(q, v, step_tau)) (it reads `data` and `step_tau`)
};

/// One BatchThreadWorkspace per thread and the pool that runs them.
class BatchWorkspace {
 public:
  /// `threads`: the pool's size (0: one per core, ThreadPool). Keeps a reference to
  /// `model` (the integrators do): the model must outlive the workspace.
  explicit BatchWorkspace(const Model& model, int threads = 0);

  int threads() const { return pool_.size(); }
  ThreadPool& pool() { return pool_; }
  BatchThreadWorkspace& thread(int index) { return *per_thread_[static_cast<std::size_t>(index)]; }

 private:
  ThreadPool pool_;
  std::vector<std::unique_ptr<BatchThreadWorkspace>> per_thread_;  // threads() of them
};

/// τ = RNEA(q_k, v_k, a_k) of every state into tau's column k (nv × K).
void batch_rnea(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& a, Eigen::Ref<MatX> tau);

/// q̈ = ABA(q_k, v_k, τ_k) into ddq's column k (nv × K).
void batch_aba(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
               const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau, Eigen::Ref<MatX> ddq);

/// M(q_k) by CRBA (both triangles) into mass_matrices' columns k nv … k nv + nv − 1 (nv × nv K).
void batch_crba(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                Eigen::Ref<MatX> mass_matrices);

/// ∂τ/∂q and ∂τ/∂v of RNEA at (q_k, v_k, a_k), each nv × nv K (block k, row i the
/// derivative of τ_i; ∂/∂q in the tangent space, dynamics/rnea_derivatives.hpp).
void batch_rnea_derivatives(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                            const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& a,
                            Eigen::Ref<MatX> dtau_dq, Eigen::Ref<MatX> dtau_dv);

/// ∂q̈/∂q, ∂q̈/∂v and ∂q̈/∂τ = M⁻¹ of forward dynamics at (q_k, v_k, τ_k), each nv × nv K
/// (dynamics/aba_derivatives.hpp).
void batch_aba_derivatives(const Model& model, BatchWorkspace& workspace, const Eigen::Ref<const MatX>& q,
                           const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau,
                           Eigen::Ref<MatX> da_dq, Eigen::Ref<MatX> da_dv, Eigen::Ref<MatX> da_dtau);

/// One classic RK4 step of size h from time t of every state (q_k, v_k) under the efforts
/// τ_k held over the step, v̇ = ABA(q, v, τ_k): Rk4Integrator::step (simulation/rk4.cpp,
/// quaternions renormalised after the step) into q_next (nq × K) and v_next (nv × K). The
/// library's single-step integrator is RK4 (no semi-implicit Euler exists to batch).
/// q_next and v_next may be q and v themselves (stepping in place). Throws
/// InvalidArgument for h ≤ 0 or not finite, SolverError when a state blows up.
void batch_step(const Model& model, BatchWorkspace& workspace, double t, double h, const Eigen::Ref<const MatX>& q,
                const Eigen::Ref<const MatX>& v, const Eigen::Ref<const MatX>& tau, Eigen::Ref<MatX> q_next,
                Eigen::Ref<MatX> v_next);

}  // namespace mechdyn
