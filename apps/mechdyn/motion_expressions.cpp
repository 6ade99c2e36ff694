// Prescribed body motion from muParser expressions of t. See motion_expressions.hpp.
#include "motion_expressions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "common.hpp"
#include "mechdyn/math/skew.hpp"

namespace mechdyn::cli {

namespace {

const char* const kPoseKeys[6] = {"px", "py", "pz", "rx", "ry", "rz"};
const char* const kTwistKeys[6] = {"wx", "wy", "wz", "vx", "vy", "vz"};

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

}  // namespace

MotionExpressions::MotionExpressions(const std::string& text, const std::string& element) : element_(element) {
  slot_.fill(-1);
  std::vector<std::string> expressions;
  bool pose = false, twist = false;
  for (const std::string& item : split_expression_list(text)) {
    const auto equals = item.find('=');
    if (equals == std::string::npos)
      throw UsageError(element + ": '" + item + "' is not key=expression (keys px, py, pz, rx, ry, rz or wx, wy, wz, vx, vy, vz)");
    const std::string key = trim(item.substr(0, equals)), expression = trim(item.substr(equals + 1));
    int index = -1;
    for (int k = 0; k < 6; ++k) {
      if (key == kPoseKeys[k]) index = k, pose = true;
      if (key == kTwistKeys[k]) index = k, twist = true;
    }
    if (index < 0)
      throw UsageError(element + ": unknown key '" + key + "' (keys px, py, pz, rx, ry, rz or wx, wy, wz, vx, vy, vz)");
    if (pose && twist)
      throw UsageError(element + ": pose keys (px..rz) and twist keys (wx..vz) cannot be mixed");
    if (slot_[index] >= 0) throw UsageError(element + ": key '" + key + "' given twice");
    if (expression.empty()) throw UsageError(element + ": key '" + key + "' has an empty expression");
    if (expression.find('=') != std::string::npos && expression.find("==") == std::string::npos &&
        expression.find("<=") == std::string::npos && expression.find(">=") == std::string::npos &&
        expression.find("!=") == std::string::npos)
      throw UsageError(element + ": key '" + key + "': an expression may not assign ('" + expression + "')");
    slot_[index] = static_cast<int>(expressions.size());
    expressions.push_back(expression);
  }
  if (expressions.empty()) throw UsageError(element + ": no expression (e.g. 'px=0.5*sin(_pi*t), rz=0.2*t')");
  if (pose && twist)
    throw UsageError(element + ": pose keys (px..rz) and twist keys (wx..vz) cannot be mixed");
  twist_form_ = twist;
  for (int k = 0; k < 6; ++k) components_[k] = twist && slot_[k] >= 0;
  try {
    expressions_ = std::make_unique<TimeExpressions>(expressions, element);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  derivatives_ = std::make_unique<ExpressionDerivatives>(*expressions_, element);
}

namespace {
constexpr int kTable = 10;
}  // namespace

ExpressionDerivatives::ExpressionDerivatives(TimeExpressions& expressions, std::string element)
    : expressions_(&expressions), element_(std::move(element)) {
  const Eigen::Index n = expressions.size();
  value = VecX::Zero(n), first = VecX::Zero(n), second = VecX::Zero(n);
  plus_ = VecX::Zero(n), minus_ = VecX::Zero(n), best_ = VecX::Zero(n), answer_ = VecX::Zero(n);
  done_.assign(static_cast<std::size_t>(n), 0);
  table_.assign(static_cast<std::size_t>(n) * kTable * kTable, 0.0);
}

void ExpressionDerivatives::evaluate(double t, bool with_second) {
  // Ridders: per expression a tableau a[j][i] of central differences at h_i = h₀ / 1.4^i,
  // extrapolated in h²; every expression is evaluated once per step (all of them together).
  constexpr double kShrink = 1.4, kShrink2 = kShrink * kShrink, kSafe = 2.0;
  const Eigen::Index n = value.size();
  expressions_->evaluate(t, value);
  for (int order = 1; order <= (with_second ? 2 : 1); ++order) {
    VecX& out = order == 1 ? first : second;
    auto table = [&](Eigen::Index e, int j, int i) -> double& {
      return table_[(static_cast<std::size_t>(e) * kTable + static_cast<std::size_t>(j)) * kTable +
                    static_cast<std::size_t>(i)];
    };
    for (Eigen::Index e = 0; e < n; ++e) best_[e] = 1e300, answer_[e] = 0.0, done_[static_cast<std::size_t>(e)] = 0;
    double h = 0.05 * std::max(1.0, std::abs(t));
    for (int i = 0; i < kTable; ++i) {
      if (i > 0) h /= kShrink;
      expressions_->evaluate(t + h, plus_);
      expressions_->evaluate(t - h, minus_);
      for (Eigen::Index e = 0; e < n; ++e) {
        if (done_[static_cast<std::size_t>(e)]) continue;
        table(e, 0, i) = order == 1 ? (plus_[e] - minus_[e]) / (2.0 * h)
                                    : (plus_[e] - 2.0 * value[e] + minus_[e]) / (h * h);
        double factor = kShrink2;
        for (int j = 1; j <= i; ++j) {
          table(e, j, i) = (table(e, j - 1, i) * factor - table(e, j - 1, i - 1)) / (factor - 1.0);
          factor *= kShrink2;
          const double error = std::max(std::abs(table(e, j, i) - table(e, j - 1, i)),
                                        std::abs(table(e, j, i) - table(e, j - 1, i - 1)));
          if (error <= best_[e]) best_[e] = error, answer_[e] = table(e, j, i);
        }
        if (i > 0 && std::abs(table(e, i, i) - table(e, i - 1, i - 1)) >= kSafe * best_[e])
          done_[static_cast<std::size_t>(e)] = 1;
      }
    }
    for (Eigen::Index e = 0; e < n; ++e) {
      out[e] = answer_[e];
      if (!(best_[e] <= 1e-6 * (1.0 + std::abs(answer_[e])))) {
        char buffer[200];
        std::snprintf(buffer, sizeof buffer,
                      ": the %s derivative of expression %ld is not smooth at t = %.10g s (Ridders' error estimate %.3g)",
                      order == 1 ? "first" : "second", static_cast<long>(e) + 1, t, best_[e]);
        throw UsageError(element_ + buffer);
      }
    }
  }
}

BodyMotionSample MotionExpressions::sample(double t) {
  derivatives_->evaluate(t, true);
  const ExpressionDerivatives& d = *derivatives_;
  double value[6], rate[6], second[6];
  for (int k = 0; k < 6; ++k) {
    const int s = slot_[k];
    value[k] = s >= 0 ? d.value[s] : 0.0;
    rate[k] = s >= 0 ? d.first[s] : 0.0;
    second[k] = s >= 0 ? d.second[s] : 0.0;
  }
  BodyMotionSample out;
  out.time = t;
  out.position = Vec3(value[0], value[1], value[2]);
  out.velocity = Vec3(rate[0], rate[1], rate[2]);
  out.acceleration = Vec3(second[0], second[1], second[2]);
  // R = R_z(γ) R_y(β) R_x(α): ω = γ̇ e_z + β̇ u + α̇ w, u = R_z e_y, w = R_z R_y e_x.
  const Vec3 ez = Vec3::UnitZ();
  const Mat3 rz = axis_angle_rotation(ez, value[5]);
  const Mat3 ry = axis_angle_rotation(Vec3::UnitY(), value[4]);
  const Mat3 rx = axis_angle_rotation(Vec3::UnitX(), value[3]);
  const Mat3 rotation = rz * ry * rx;
  out.orientation = Quat(rotation).normalized();
  const Vec3 u = rz * Vec3::UnitY(), w = rz * ry * Vec3::UnitX();
  const Vec3 outer = rate[5] * ez + rate[4] * u;  // angular velocity of the frame that carries w
  out.angular_velocity = outer + rate[3] * w;
  // ω̇ = γ̈ e_z + β̈ u + α̈ w + β̇ (γ̇ e_z × u) + α̇ (outer × w)
  out.angular_acceleration = second[5] * ez + second[4] * u + second[3] * w + rate[4] * (rate[5] * ez).cross(u) +
                             rate[3] * outer.cross(w);
  return out;
}

void MotionExpressions::twist(double t, Vec6& values, Vec6& rates) {
  derivatives_->evaluate(t, false);
  const ExpressionDerivatives& d = *derivatives_;
  values.setZero();
  rates.setZero();
  for (int k = 0; k < 6; ++k) {
    if (slot_[k] < 0) continue;
    values[k] = d.value[slot_[k]];
    rates[k] = d.first[slot_[k]];
  }
}

}  // namespace mechdyn::cli
