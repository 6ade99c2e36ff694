// Efforts or accelerations given as functions of time: one muParser expression of the
// variable `t` (s) per velocity coordinate, or plain numbers.
//
// The inputs of a run (issue 25: the run's inputs live in the library): efforts tau(t) of
// a forward run, prescribed accelerations, velocities or positions of an inverse run, the
// efforts of a sweep sample (evaluation/sweep.hpp). Used by `mechdyn simulate`, `mechdyn
// sweep` and Python's simulate, simulate_closed_chain and SweepSpec. muParser is a private
// dependency of the library (the installed package finds it: cmake/mechdynConfig.cmake.in);
// no muParser header appears here. Each expression is parsed once in the constructor
// (muParser compiles it to bytecode); evaluation allocates nothing.
// Expression syntax: muParser 2.3 (https://beltoforion.de/en/muparser/): + − * / ^,
// sin cos tan asin acos atan sinh cosh tanh exp ln log10 sqrt abs sign rint, min(a,b),
// max(a,b), sum(...), the constants _pi and _e, and the ternary `t < 1 ? 2 : 0`. muParser's
// assignment operator ('=') is refused: it would change the time every expression shares.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mechdyn/math/types.hpp"

namespace mechdyn {

class TimeExpressions {
 public:
  /// `name` (e.g. "tau") names the expressions in messages ("tau[2]"). Throws
  /// InvalidArgument naming the index, the expression and muParser's message when an
  /// expression does not parse, uses a variable other than t, or assigns ('=').
  TimeExpressions(const std::vector<std::string>& expressions, const std::string& name);
  ~TimeExpressions();
  TimeExpressions(TimeExpressions&&) noexcept;
  TimeExpressions& operator=(TimeExpressions&&) noexcept;
  /// A copy parses the expressions again (each copy owns its parsers and its t; copying
  /// allocates, evaluating the copy does not). Used where a Data is copied.
  TimeExpressions(const TimeExpressions& other);
  TimeExpressions& operator=(const TimeExpressions& other);

  Eigen::Index size() const;
  const std::vector<std::string>& expressions() const;

  /// Values at time t into `values` (size()). Throws InvalidArgument naming the index
  /// and the time when a value is not finite (e.g. 1/t at t = 0). No allocation.
  void evaluate(double t, Eigen::Ref<VecX> values);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Splits a comma-separated list of expressions at the commas outside parentheses,
/// so that "sin(t), min(t, 1)" gives two expressions. Whitespace around each is
/// trimmed. An empty (or all-blank) text gives an empty list.
std::vector<std::string> split_expression_list(const std::string& text);

}  // namespace mechdyn
