// The N-four-bar of the IFToMM benchmark A02 (González, Dopico, Cuadrado & others,
// "A benchmarking system for MBS simulation software", Multibody Syst. Dyn. 16 (2006)
// 179–190; as the issue restates it): N parallelogram loops of 1 m, 1 kg uniform bars,
// cranks vertical at t = 0, their tips moving at 1 m/s in +x, gravity 9.81 m/s² in −y.
// Built here as a tree (crank i on the ground at x = i, coupler i on crank i's tip) with a
// planar-revolute cut joint from coupler i's end to crank i+1's tip, like
// scripts/generate_n_four_bar.py (not read from it: the tests build their own).
// Its exact reduction to one degree of freedom (every crank at θ, couplers translating):
//   T = ½ [(N+1)/3 + N] m L² θ̇²,  V = [(N+1)/2 + N] m g L sin θ,
//   θ̈ = −g [(N+1)/2 + N] cos θ / ([(N+1)/3 + N] L).
#pragma once

#include <cmath>
#include <string>

#include "mechdyn/io/model_file.hpp"

namespace mechdyn::testing {

inline std::string n_four_bar_text(int n) {
  const std::string rod =
      "    mass: 1.0\n    com: [0.5, 0, 0]\n    inertia: {diag: [0, 0.083333333333333333, 0.083333333333333333]}\n";
  std::string text = "mechdyn: 1\nname: n_four_bar\ngravity: [0, -9.81, 0]\nbodies:\n";
  for (int i = 0; i <= n; ++i) {
    const std::string c = std::to_string(i);
    text += "  - name: crank" + c + "\n    parent: ground\n    joint: {name: crank" + c +
            "_joint, type: revolute, axis: [0, 0, 1], origin: [" + c + ", 0, 0]" +
            (i == 0 ? "" : ", actuated: false") + "}\n" + rod;
    if (i < n)
      text += "  - name: coupler" + c + "\n    parent: crank" + c + "\n    joint: {name: coupler" + c +
              "_joint, type: revolute, axis: [0, 0, 1], origin: [1, 0, 0], actuated: false}\n" + rod;
  }
  text += "loops:\n";
  for (int i = 0; i < n; ++i)
    text += "  - {name: loop" + std::to_string(i) + ", type: planar-revolute, a: {body: coupler" + std::to_string(i) +
            ", point: [1, 0, 0]}, b: {body: crank" + std::to_string(i + 1) + ", point: [1, 0, 0]}, axis: [0, 0, 1]}\n";
  return text;
}

inline Model n_four_bar(int n) { return parse_model_string(n_four_bar_text(n), "<n_four_bar>"); }

/// The benchmark's start: cranks at π/2 (rate −1 rad/s: tips at +1 m/s), couplers at −π/2
/// relative (rate +1: they translate).
inline void n_four_bar_start(const Model& model, VecX& q, VecX& v) {
  q = VecX::Zero(model.nq);
  v = VecX::Zero(model.nv);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const bool crank = model.bodies[b].name.rfind("crank", 0) == 0;
    q[model.joints[b].q_index] = crank ? M_PI / 2 : -M_PI / 2;
    v[model.joints[b].v_index] = crank ? -1.0 : 1.0;
  }
}

/// The one-degree-of-freedom reduction integrated by classic RK4 with step h_reference.
class NFourBarReference {
 public:
  explicit NFourBarReference(int n)
      : inertia_((n + 1) / 3.0 + n), weight_(9.81 * ((n + 1) / 2.0 + n)) {}
  void advance(double duration, double h_reference = 1e-5) {
    const long steps = std::lround(duration / h_reference);
    for (long k = 0; k < steps; ++k) {
      const double h = h_reference;
      const double k1t = rate_, k1w = f(angle_);
      const double k2t = rate_ + 0.5 * h * k1w, k2w = f(angle_ + 0.5 * h * k1t);
      const double k3t = rate_ + 0.5 * h * k2w, k3w = f(angle_ + 0.5 * h * k2t);
      const double k4t = rate_ + h * k3w, k4w = f(angle_ + h * k3t);
      angle_ += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
      rate_ += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
  }
  double angle() const { return angle_; }
  double rate() const { return rate_; }

 private:
  double f(double angle) const { return -weight_ * std::cos(angle) / inertia_; }
  double inertia_, weight_;
  double angle_ = M_PI / 2, rate_ = -1.0;
};

}  // namespace mechdyn::testing
