// The callgrind driver of docs/benchmarks.md "Closed-chain inverse dynamics derivatives":
// runs one computation `iterations` times on a model file with loops at its assembled
// initial configuration (crank rate 0.8, acceleration −1.2 on every actuated coordinate),
// so that `valgrind --tool=callgrind` counts its instructions; per call
// (Ir(N) − Ir(0)) / N (scripts/profile_closed_chain.sh).
//
// Usage: mechdyn_profile_closed_chain <model file> <computation> <iterations>
//   computation: inverse_dynamics      closed_chain_inverse_dynamics once
//                derivatives           closed_chain_inverse_dynamics_derivatives (τ_a and its derivatives)
//                finite_difference     τ_a and the same three na × na matrices by centred
//                                      differences of closed_chain_inverse_dynamics: 6 na + 1
//                                      calls, each re-assembling the passive coordinates
//                                      (Newton from the unperturbed configuration), h = 1e-5
// Only public API.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"

int main(int argc, char** argv) {
  using namespace mechdyn;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s MODEL inverse_dynamics|derivatives|finite_difference ITERATIONS\n", argv[0]);
    return 2;
  }
  const Model model = load_model_file(argv[1]);
  const std::string computation = argv[2];
  const long iterations = std::atol(argv[3]);
  Data data(model);
  ClosedChainDerivativeData work(model);
  VecX q = model.initial_configuration.size() == model.nq ? model.initial_configuration : model.neutral_configuration();
  assemble(model, data, q);
  VecX v = VecX::Zero(model.nv), a = VecX::Zero(model.nv);
  for (int k : data.actuated_dofs) v[k] = 0.8, a[k] = -1.2;
  closed_chain_inverse_dynamics(model, data, q, v, a);  // the completed state, and Data's dense groups
  const Eigen::Index na = static_cast<Eigen::Index>(data.actuated_dofs.size());
  MatX fd_q(na, na), fd_v(na, na), fd_a(na, na);
  VecX qq(model.nq), vv(model.nv), aa(model.nv), step(model.nv);
  const double h = 1e-5;
  auto tau_a = [&](MatX& out, Eigen::Index column, double sign) {
    closed_chain_inverse_dynamics(model, data, qq, vv, aa);
    for (Eigen::Index i = 0; i < na; ++i) out(i, column) += sign * data.tau[data.actuated_dofs[i]] / (2 * h);
  };
  double sink = 0;
  for (long n = 0; n < iterations; ++n) {
    if (computation == "inverse_dynamics") {
      qq = q, vv = v, aa = a;
      sink += closed_chain_inverse_dynamics(model, data, qq, vv, aa)[0];
    } else if (computation == "derivatives") {
      qq = q, vv = v, aa = a;
      closed_chain_inverse_dynamics_derivatives(model, data, work, qq, vv, aa);
      sink += work.dtau_dq(0, 0);
    } else if (computation == "finite_difference") {
      fd_q.setZero(), fd_v.setZero(), fd_a.setZero();
      qq = q, vv = v, aa = a;
      sink += closed_chain_inverse_dynamics(model, data, qq, vv, aa)[0];  // τ_a itself
      for (Eigen::Index c = 0; c < na; ++c) {
        const int k = data.actuated_dofs[c];
        for (double sign : {1.0, -1.0}) {
          step.setZero();
          step[k] = sign * h;
          forward_kinematics(model, data, q);
          qq = q, vv = v, aa = a;
          apply_velocity_increment(model, data, qq, step);
          tau_a(fd_q, c, sign);
          qq = q, vv = v + step, aa = a;
          tau_a(fd_v, c, sign);
          qq = q, vv = v, aa = a + step;
          tau_a(fd_a, c, sign);
        }
      }
      sink += fd_q(0, 0) + fd_v(0, 0) + fd_a(0, 0);
    } else {
      std::fprintf(stderr, "unknown computation '%s'\n", computation.c_str());
      return 2;
    }
  }
  std::printf("%.17g\n", sink);
  return 0;
}
