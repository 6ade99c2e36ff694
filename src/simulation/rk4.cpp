// Classic fixed-step Runge–Kutta of order 4 (Hairer, Nørsett, Wanner, "Solving ODEs I",
// §II.1, Table 1.2 left):
//   k1 = f(t, x)
//   k2 = f(t + h/2, x + h/2 k1)
//   k3 = f(t + h/2, x + h/2 k2)
//   k4 = f(t + h,   x + h k3)
//   x ← x + h/6 (k1 + 2 k2 + 2 k3 + k4)
// then quaternions renormalised. Cost: 4 derivative evaluations per step. No allocation.
#include <cmath>
#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

Rk4Integrator::Rk4Integrator(const Model& model, ExtendedDerivativeFunction derivative, int auxiliary_size)
    : derivative_(model, std::move(derivative), auxiliary_size) {
  const Eigen::Index n = model.nq + model.nv + auxiliary_size;
  x_ = VecX::Zero(n);
  stage_ = VecX::Zero(n);
  k1_ = VecX::Zero(n);
  k2_ = VecX::Zero(n);
  k3_ = VecX::Zero(n);
  k4_ = VecX::Zero(n);
}

Rk4Integrator::Rk4Integrator(const Model& model, AccelerationFunction acceleration)
    : derivative_(model, std::move(acceleration)) {
  const Eigen::Index n = model.nq + model.nv;
  x_ = VecX::Zero(n);
  stage_ = VecX::Zero(n);
  k1_ = VecX::Zero(n);
  k2_ = VecX::Zero(n);
  k3_ = VecX::Zero(n);
  k4_ = VecX::Zero(n);
}

void Rk4Integrator::step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  step(t, h, q, v, no_auxiliary_);
}

void Rk4Integrator::step(double t, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v, Eigen::Ref<VecX> z) {
  const Model& model = derivative_.model();
  const Eigen::Index nq = model.nq, nv = model.nv, nz = derivative_.auxiliary_size();
  if (q.size() != nq || v.size() != nv) throw InvalidArgument("rk4: q or v has the wrong size");
  if (z.size() != nz) throw InvalidArgument("rk4: the auxiliary state has the wrong size");
  if (!(h > 0.0) || !std::isfinite(h)) throw InvalidArgument("rk4: step size must be positive and finite");
  if (budget_ != nullptr) budget_->charge(t);
  x_.head(nq) = q;
  x_.segment(nq, nv) = v;
  x_.tail(nz) = z;
  derivative_.evaluate(t, x_, k1_);
  stage_ = x_ + (0.5 * h) * k1_;
  derivative_.evaluate(t + 0.5 * h, stage_, k2_);
  stage_ = x_ + (0.5 * h) * k2_;
  derivative_.evaluate(t + 0.5 * h, stage_, k3_);
  stage_ = x_ + h * k3_;
  derivative_.evaluate(t + h, stage_, k4_);
  x_ += (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
  check_finite_state(model, t + h, x_.head(nq), x_.segment(nq, nv));
  if (!x_.tail(nz).allFinite()) throw SolverError("rk4: the auxiliary state became non-finite at t = " + std::to_string(t + h) + " s");
  normalize_configuration(model, x_.head(nq));
  q = x_.head(nq);
  v = x_.segment(nq, nv);
  z = x_.tail(nz);
}

void Rk4Integrator::advance(double t, double t_end, double h, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  if (!(h > 0.0) || !std::isfinite(h)) throw InvalidArgument("rk4: step size must be positive and finite");
  if (!(t_end >= t)) throw InvalidArgument("rk4: end time lies before the start time");
  // Equal steps that land on t_end exactly (tolerating rounding in (t_end − t)/h).
  const double span = t_end - t;
  if (span == 0.0) return;
  const long steps = std::max(1L, static_cast<long>(std::ceil(span / h * (1.0 - 1e-12))));
  const double step_size = span / static_cast<double>(steps);
  for (long k = 0; k < steps; ++k) step(t + static_cast<double>(k) * step_size, step_size, q, v);
}

}  // namespace mechdyn
