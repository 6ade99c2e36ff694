// Assembly of a mechanism with flexible bodies at position and velocity level
// (flexible/assembly.hpp): Gauss–Newton on Φ(q) = 0 over the free joint coordinates,
//   Δ_f = −J_f⁺ Φ,  q ← q ⊕ Δ     (J_f the free columns of J = ∂Φ/∂q in v coordinates)
// with J_f⁺ the least-norm pseudo-inverse (complete orthogonal decomposition: redundant
// rows and surplus freedoms both allowed), steps limited to 0.5 rad (or m); then
//   v_f = −J_f⁺ (J_h v_h)          (J v = 0 with the held and elastic velocities kept).
// Cost per iteration: the kinematics and the loop closure, one decomposition of rows × n_f.
// Reads and writes q, v; uses FlexibleSystemData as workspace. Allocates (an analysis).
#include <cmath>
#include <string>

#include <Eigen/QR>

#include "mechdyn/errors.hpp"
#include "mechdyn/flexible/assembly.hpp"

namespace mechdyn {

void assemble_flexible_state(const Model& model, const FlexibleSystem& system, FlexibleSystemData& data, VecX& q,
                             VecX& v, const std::vector<int>& held, double tolerance) {
  if (q.size() != model.nq || v.size() != model.nv || !q.allFinite() || !v.allFinite())
    throw InvalidArgument("assemble_flexible_state: q and v must hold nq and nv finite numbers");
  const Eigen::Index rows = model.num_loop_rows;
  if (rows == 0) return;
  std::vector<int> free;
  for (int k = 0; k < model.rigid_nv; ++k) {
    bool is_held = false;
    for (int h : held) is_held = is_held || h == k;
    if (!is_held) free.push_back(k);
  }
  const Eigen::Index nf = static_cast<Eigen::Index>(free.size());
  MatX columns(rows, nf);
  VecX dv = VecX::Zero(model.nv), next(model.nq);
  double residual = 0.0;
  for (int iteration = 0; iteration <= 50; ++iteration) {
    flexible_kinematics(model, system, data, q);
    flexible_loop_closure(model, system, data, q, VecX());
    residual = data.loop_residual.cwiseAbs().maxCoeff();
    if (!std::isfinite(residual)) break;
    if (residual <= tolerance) {
      // Velocities: J_f v_f = −J_h v_h − J_e v_e.
      for (Eigen::Index c = 0; c < nf; ++c) columns.col(c) = data.loop_jacobian.col(free[c]);
      VecX fixed = v;
      for (int k : free) fixed[k] = 0.0;
      const VecX right = -(data.loop_jacobian * fixed);
      const VecX solution = Eigen::CompleteOrthogonalDecomposition<MatX>(columns).solve(right);
      for (Eigen::Index c = 0; c < nf; ++c) v[free[c]] = solution[c];
      return;
    }
    if (nf == 0) break;
    for (Eigen::Index c = 0; c < nf; ++c) columns.col(c) = data.loop_jacobian.col(free[c]);
    const VecX step = Eigen::CompleteOrthogonalDecomposition<MatX>(columns).solve(-data.loop_residual);
    const double largest = step.cwiseAbs().maxCoeff();
    const double scale = largest > 0.5 ? 0.5 / largest : 1.0;
    dv.setZero();
    for (Eigen::Index c = 0; c < nf; ++c) dv[free[c]] = scale * step[c];
    flexible_integrate(model, data, q, dv, next);
    q = next;
  }
  throw SolverError("assembly: the loops do not close from the given configuration (largest |Phi| = " +
                    std::to_string(residual) + " after 50 Gauss-Newton iterations; give a configuration nearer an "
                    "assembled one)");
}

}  // namespace mechdyn
