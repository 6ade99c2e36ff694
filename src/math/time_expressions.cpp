// Time-dependent efforts and accelerations from muParser expressions. See the header.
#include "mechdyn/math/time_expressions.hpp"

#include <muParser.h>

#include <cmath>
#include <sstream>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

// muParser 2.3's only assignment operator is '=' (its other operators that contain '='
// are "<=", ">=", "!=" and "=="). An assignment to t would change the time that every
// later expression sees ("t=7,t"), so it is refused where the expression is read: an
// '=' that is neither the second character of one of those operators nor followed by
// another '='.
std::size_t assignment_position(const std::string& expression) {
  for (std::size_t i = 0; i < expression.size(); ++i) {
    if (expression[i] != '=') continue;
    const char before = i > 0 ? expression[i - 1] : ' ';
    const char after = i + 1 < expression.size() ? expression[i + 1] : ' ';
    if (before == '<' || before == '>' || before == '!' || before == '=' || after == '=') continue;
    return i;
  }
  return std::string::npos;
}

}  // namespace

struct TimeExpressions::Impl {
  std::string name;
  std::vector<std::string> expressions;
  std::vector<std::unique_ptr<mu::Parser>> parsers;
  double t = 0.0;  // the variable `t`; muParser keeps its address, so Impl never moves
};

TimeExpressions::TimeExpressions(const std::vector<std::string>& expressions, const std::string& name)
    : impl_(std::make_unique<Impl>()) {
  impl_->name = name;
  impl_->expressions = expressions;
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    const std::string element = name + "[" + std::to_string(i) + "]";
    if (expressions[i].find_first_not_of(" \t") == std::string::npos)
      throw InvalidArgument(element + " is empty");
    if (const std::size_t at = assignment_position(expressions[i]); at != std::string::npos)
      throw InvalidArgument(element + " '" + expressions[i] + "': assignment ('=' at position " + std::to_string(at + 1) +
                            ") is not allowed in an expression (compare with '==')");
    auto parser = std::make_unique<mu::Parser>();
    try {
      parser->DefineVar("t", &impl_->t);
      parser->SetExpr(expressions[i]);
      impl_->t = 0.0;
      parser->Eval();  // parses now, so that syntax errors surface here and not mid-simulation
    } catch (const mu::Parser::exception_type& e) {
      throw InvalidArgument(element + " '" + expressions[i] + "': " + e.GetMsg());
    }
    impl_->parsers.push_back(std::move(parser));
  }
}

TimeExpressions::~TimeExpressions() = default;
TimeExpressions::TimeExpressions(const TimeExpressions& other)
    : TimeExpressions(other.impl_->expressions, other.impl_->name) {}
TimeExpressions& TimeExpressions::operator=(const TimeExpressions& other) {
  if (this != &other) *this = TimeExpressions(other);
  return *this;
}
TimeExpressions::TimeExpressions(TimeExpressions&&) noexcept = default;
TimeExpressions& TimeExpressions::operator=(TimeExpressions&&) noexcept = default;

Eigen::Index TimeExpressions::size() const { return static_cast<Eigen::Index>(impl_->parsers.size()); }

const std::vector<std::string>& TimeExpressions::expressions() const { return impl_->expressions; }

void TimeExpressions::evaluate(double t, Eigen::Ref<VecX> values) {
  if (values.size() != size()) throw InvalidArgument(impl_->name + ": output has the wrong size");
  impl_->t = t;
  for (std::size_t i = 0; i < impl_->parsers.size(); ++i) {
    double value = 0.0;
    try {
      value = impl_->parsers[i]->Eval();
    } catch (const mu::Parser::exception_type& e) {
      throw InvalidArgument(impl_->name + "[" + std::to_string(i) + "] '" + impl_->expressions[i] + "': " + e.GetMsg());
    }
    if (impl_->t != t)  // cannot happen after the constructor's check; never let it pass silently
      throw InvalidArgument(impl_->name + "[" + std::to_string(i) + "] '" + impl_->expressions[i] + "' changes t");
    if (!std::isfinite(value)) {
      std::ostringstream message;
      message.precision(17);
      message << impl_->name << "[" << i << "] '" << impl_->expressions[i] << "' is not finite at t = " << t << " s";
      throw InvalidArgument(message.str());
    }
    values[static_cast<Eigen::Index>(i)] = value;
  }
}

std::vector<std::string> split_expression_list(const std::string& text) {
  std::vector<std::string> out;
  if (text.find_first_not_of(" \t\n") == std::string::npos) return out;
  auto trim = [](const std::string& s) {
    const auto begin = s.find_first_not_of(" \t\n");
    if (begin == std::string::npos) return std::string();
    const auto end = s.find_last_not_of(" \t\n");
    return s.substr(begin, end - begin + 1);
  };
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth <= 0) {
      out.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(trim(current));
  return out;
}

}  // namespace mechdyn
