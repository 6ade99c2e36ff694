// Adaptive Dormand–Prince 5(4) (Dormand & Prince, J. Comp. Appl. Math. 6 (1980) 19–26;
// Hairer, Nørsett, Wanner, "Solving ODEs I", §II.5, Table 5.2).
//
// Stages k_i = f(t + c_i h, x + h Σ_j a_ij k_j), i = 1..7; the 5th-order solution
// x5 = x + h Σ b_i k_i (b = the 7th row of a) is kept (local extrapolation); the
// embedded error estimate is e = h Σ (b_i − b̂_i) k_i.
// Error norm (Hairer I eq. 4.11): err = sqrt(1/n Σ (e_i / sc_i)²),
//   sc_i = atol + rtol · max(|x_i|, |x5_i|).
// Step control (eqs. 4.12–4.13): h_new = h · min(facmax, max(facmin, fac · err^(−1/5)));
// a step is accepted when err ≤ 1 (after a rejection the step does not grow).
// The seventh stage is evaluated at x5 before the quaternions are renormalised, so
// the FSAL property is not used: 7 evaluations per step. No allocation.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "mechdyn/simulation/integrators.hpp"

namespace mechdyn {

namespace {
// Butcher tableau, Hairer I Table 5.2.
constexpr double c2 = 1.0 / 5.0, c3 = 3.0 / 10.0, c4 = 4.0 / 5.0, c5 = 8.0 / 9.0;
constexpr double a21 = 1.0 / 5.0;
constexpr double a31 = 3.0 / 40.0, a32 = 9.0 / 40.0;
constexpr double a41 = 44.0 / 45.0, a42 = -56.0 / 15.0, a43 = 32.0 / 9.0;
constexpr double a51 = 19372.0 / 6561.0, a52 = -25360.0 / 2187.0, a53 = 64448.0 / 6561.0, a54 = -212.0 / 729.0;
constexpr double a61 = 9017.0 / 3168.0, a62 = -355.0 / 33.0, a63 = 46732.0 / 5247.0, a64 = 49.0 / 176.0,
                 a65 = -5103.0 / 18656.0;
constexpr double b1 = 35.0 / 384.0, b3 = 500.0 / 1113.0, b4 = 125.0 / 192.0, b5 = -2187.0 / 6784.0,
                 b6 = 11.0 / 84.0;
// e_i = b_i − b̂_i (5th minus 4th order weights).
constexpr double e1 = 71.0 / 57600.0, e3 = -71.0 / 16695.0, e4 = 71.0 / 1920.0, e5 = -17253.0 / 339200.0,
                 e6 = 22.0 / 525.0, e7 = -1.0 / 40.0;
}  // namespace

DormandPrinceIntegrator::DormandPrinceIntegrator(const Model& model, AccelerationFunction acceleration,
                                                 const DormandPrinceOptions& options)
    : options_(options), derivative_(model, std::move(acceleration)) {
  allocate(model);
}

DormandPrinceIntegrator::DormandPrinceIntegrator(const Model& model, ExtendedDerivativeFunction derivative,
                                                 int auxiliary_size, const DormandPrinceOptions& options)
    : options_(options), derivative_(model, std::move(derivative), auxiliary_size) {
  allocate(model);
}

void DormandPrinceIntegrator::allocate(const Model& model) {
  const DormandPrinceOptions& options = options_;
  if (!(options.relative_tolerance >= 0.0) || !(options.absolute_tolerance >= 0.0) ||
      options.relative_tolerance + options.absolute_tolerance <= 0.0 || !std::isfinite(options.relative_tolerance) ||
      !std::isfinite(options.absolute_tolerance))
    throw InvalidArgument("dopri5: rtol and atol must be finite, non-negative and not both zero");
  if (!(options.min_step > 0.0) || !(options.max_step > options.min_step))
    throw InvalidArgument("dopri5: need 0 < min_step < max_step");
  if (!(options.safety > 0.0 && options.safety <= 1.0)) throw InvalidArgument("dopri5: safety factor must lie in (0, 1]");
  const Eigen::Index n = model.nq + model.nv + derivative_.auxiliary_size();
  x_ = VecX::Zero(n);
  x_new_ = VecX::Zero(n);
  stage_ = VecX::Zero(n);
  error_ = VecX::Zero(n);
  for (VecX& k : k_) k = VecX::Zero(n);
  step_ = options.initial_step > 0.0 ? std::min(options.initial_step, options.max_step) : 0.0;
}

double DormandPrinceIntegrator::error_norm() const {
  double sum = 0.0;
  const Eigen::Index n = x_.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double scale = options_.absolute_tolerance +
                         options_.relative_tolerance * std::max(std::abs(x_[i]), std::abs(x_new_[i]));
    const double ratio = error_[i] / scale;
    sum += ratio * ratio;
  }
  return n == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(n));
}

// Starting step size, Hairer I §II.4 (a)–(f), with k_[0] = f(t, x_) already evaluated.
double DormandPrinceIntegrator::initial_step(double t, double t_end) {
  const Eigen::Index n = x_.size();
  if (n == 0) return t_end - t;
  auto scaled_norm = [&](const VecX& y) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double sc = options_.absolute_tolerance + options_.relative_tolerance * std::abs(x_[i]);
      sum += (y[i] / sc) * (y[i] / sc);
    }
    return std::sqrt(sum / static_cast<double>(n));
  };
  const double d0 = scaled_norm(x_), d1 = scaled_norm(k_[0]);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  h0 = std::min({h0, t_end - t, options_.max_step});
  stage_ = x_ + h0 * k_[0];  // explicit Euler step
  derivative_.evaluate(t + h0, stage_, k_[1]);
  error_ = (k_[1] - k_[0]) / h0;
  const double d2 = scaled_norm(error_);
  const double dmax = std::max(d1, d2);
  const double h1 = dmax <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / dmax, 1.0 / 5.0);
  double h = std::min(100.0 * h0, h1);
  if (!std::isfinite(h) || h <= 0.0) h = 1e-6;
  return std::max(std::min(h, options_.max_step), options_.min_step);
}

void DormandPrinceIntegrator::advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v) {
  advance(t, t_end, q, v, no_auxiliary_);
}

void DormandPrinceIntegrator::advance(double t, double t_end, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                      Eigen::Ref<VecX> z) {
  const Model& model = derivative_.model();
  const Eigen::Index nq = model.nq, nv = model.nv, nz = derivative_.auxiliary_size();
  if (q.size() != nq || v.size() != nv) throw InvalidArgument("dopri5: q or v has the wrong size");
  if (z.size() != nz) throw InvalidArgument("dopri5: the auxiliary state has the wrong size");
  if (!(t_end >= t) || !std::isfinite(t_end) || !std::isfinite(t))
    throw InvalidArgument("dopri5: end time lies before the start time");
  x_.head(nq) = q;
  x_.segment(nq, nv) = v;
  x_.tail(nz) = z;
  bool previous_rejected = false;
  bool have_first_stage = false;  // k_[0] = f(t, x_) is still valid after a rejection
  long steps = 0;
  while (t < t_end) {
    if (++steps > options_.max_steps) {
      std::ostringstream message;
      message.precision(17);
      message << "dopri5: more than " << options_.max_steps << " steps before t = " << t_end << " s (stopped at t = "
              << t << " s)";
      throw SolverError(message.str());
    }
    if (options_.budget != nullptr) options_.budget->charge(t);
    if (!have_first_stage) derivative_.evaluate(t, x_, k_[0]);
    have_first_stage = true;
    if (step_ <= 0.0) step_ = initial_step(t, t_end);
    if (step_ < options_.min_step) {
      std::ostringstream message;
      message.precision(17);
      message << "dopri5: step size " << step_ << " s fell below the minimum " << options_.min_step
              << " s at t = " << t << " s (stiff or singular motion?)";
      throw SolverError(message.str());
    }
    // Land exactly on t_end: stretch the last step by at most 1 % rather than leave a sliver.
    const double remaining = t_end - t;
    const bool last = remaining <= 1.01 * step_;
    const double h = last ? remaining : step_;

    stage_ = x_ + h * (a21 * k_[0]);
    derivative_.evaluate(t + c2 * h, stage_, k_[1]);
    stage_ = x_ + h * (a31 * k_[0] + a32 * k_[1]);
    derivative_.evaluate(t + c3 * h, stage_, k_[2]);
    stage_ = x_ + h * (a41 * k_[0] + a42 * k_[1] + a43 * k_[2]);
    derivative_.evaluate(t + c4 * h, stage_, k_[3]);
    stage_ = x_ + h * (a51 * k_[0] + a52 * k_[1] + a53 * k_[2] + a54 * k_[3]);
    derivative_.evaluate(t + c5 * h, stage_, k_[4]);
    stage_ = x_ + h * (a61 * k_[0] + a62 * k_[1] + a63 * k_[2] + a64 * k_[3] + a65 * k_[4]);
    derivative_.evaluate(t + h, stage_, k_[5]);
    x_new_ = x_ + h * (b1 * k_[0] + b3 * k_[2] + b4 * k_[3] + b5 * k_[4] + b6 * k_[5]);
    derivative_.evaluate(t + h, x_new_, k_[6]);
    error_ = h * (e1 * k_[0] + e3 * k_[2] + e4 * k_[3] + e5 * k_[4] + e6 * k_[5] + e7 * k_[6]);
    const double err = error_norm();

    if (!std::isfinite(err)) {  // a stage left the finite range: retry much smaller
      step_ = h * options_.min_factor;
      ++rejected_;
      previous_rejected = true;
      continue;
    }
    double factor = err == 0.0 ? options_.max_factor : options_.safety * std::pow(err, -0.2);
    factor = std::clamp(factor, options_.min_factor, options_.max_factor);
    if (err <= 1.0) {
      if (previous_rejected) factor = std::min(factor, 1.0);
      t = last ? t_end : t + h;
      check_finite_state(model, t, x_new_.head(nq), x_new_.segment(nq, nv));
      if (!x_new_.tail(nz).allFinite()) throw SolverError("dopri5: the auxiliary state became non-finite");
      normalize_configuration(model, x_new_.head(nq));
      x_.swap(x_new_);
      have_first_stage = false;
      ++accepted_;
      previous_rejected = false;
      // A step shortened to land on t_end says little about the next one: keep the larger.
      step_ = std::min(options_.max_step, last ? std::max(step_, h * factor) : h * factor);
    } else {
      step_ = h * std::min(1.0, factor);
      ++rejected_;
      previous_rejected = true;
    }
  }
  q = x_.head(nq);
  v = x_.segment(nq, nv);
  z = x_.tail(nz);
}

}  // namespace mechdyn
