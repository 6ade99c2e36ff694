// Centred finite-difference derivatives of inverse and forward dynamics, the baselines
// of mechdyn's analytical derivatives (docs/derivatives.md) in bench/bench_peers.cpp:
//   - of mechdyn's own RNEA / ABA: 4 nv RNEA calls for ∂τ/∂q, ∂τ/∂v; 6 nv ABA calls for
//     ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ; step kFiniteDifferenceStep; revolute/prismatic models only
//     (q ⊕ h e_j = q + h e_j);
//   - MuJoCo 2.2.2's, done the way its mjd_transitionFD does them (centred,
//     mj_integratePos for q, and the skip stages: q → mj_forwardSkip(mjSTAGE_NONE),
//     v → mjSTAGE_POS, τ → mjSTAGE_VEL; for inverse dynamics mj_inverseSkip with the same
//     stages for q and v). MuJoCo 2.2.2 has no derivative of qacc alone (mjd_inverseFD
//     came in 2.3).
// Nothing here allocates after the first call with a given size.
#pragma once

#include <mujoco/mujoco.h>

#include <vector>

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"
#include "peers/mujoco_peer.hpp"

namespace mechdyn::bench {

/// The step of the timed finite differences (MuJoCo's usual eps). Its error on the
/// 50-chain is dominated by rounding (∝ 1/h: 1.2e-6 relative at 1e-6, 1e-7 at 1e-5,
/// 2e-8 at 1e-4, then ∝ h²: 2e-6 at 1e-3), so the agreement checks use kCheckStep.
inline constexpr double kFiniteDifferenceStep = 1e-6;
/// The step of the agreement checks: near the centred difference's best accuracy.
inline constexpr double kCheckStep = 1e-4;

/// Jacobians of one finite-difference pass (columns: q, v, then τ for forward dynamics);
/// mechdyn's coordinate order for mechdyn, MuJoCo's for MuJoCo.
struct Jacobians {
  MatX dq, dv, dtau;
  explicit Jacobians(Eigen::Index nv) : dq(nv, nv), dv(nv, nv), dtau(nv, nv) {}
};

/// ∂τ/∂q, ∂τ/∂v of rnea at (q, v, a); `x` is scratch of size nv.
void mechdyn_inverse_dynamics_fd(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& a, VecX& x,
                                 Jacobians& out);
/// ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ of aba at (q, v, τ); `x` is scratch of size nv.
void mechdyn_forward_dynamics_fd(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                                 VecX& x, Jacobians& out);

/// Scratch of the MuJoCo passes.
struct MujocoScratch {
  std::vector<mjtNum> qpos, plus, dq;
};

/// MuJoCo's ∂qfrc_inverse/∂(q, v) at (q, v, a), all in MuJoCo's order.
void mujoco_inverse_dynamics_fd(const MujocoPeer& peer, const VecX& q, const VecX& v, const VecX& a, MujocoScratch& w,
                                Jacobians& out, double step = kFiniteDifferenceStep);
/// MuJoCo's ∂qacc/∂(q, v, qfrc_applied) at (q, v, τ), all in MuJoCo's order.
void mujoco_forward_dynamics_fd(const MujocoPeer& peer, const VecX& q, const VecX& v, const VecX& tau, MujocoScratch& w,
                                Jacobians& out, double step = kFiniteDifferenceStep);

/// max |analytical − mujoco| (MuJoCo's matrix read through the dof map) / max(1, |analytical|∞).
double relative_difference(const MatX& analytical, const MatX& mujoco, const std::vector<int>& dof);

}  // namespace mechdyn::bench
