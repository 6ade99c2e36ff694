// Fuzz target: the number lists of the command line (--q, --v, --a, --tau, --q0: common.cpp
// parse_number_list) and the muParser time expressions (time_expressions.cpp: split,
// parse, evaluate). The first byte picks the expected count (0..15); the rest is the text.
// Contract: a list is accepted with exactly that many finite numbers or refused with
// InvalidArgument/UsageError; an expression list is refused or evaluates to finite values
// (InvalidArgument when not finite at some t); t is never changed by an expression.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common.hpp"
#include "time_expressions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Eigen::Index expected = data[0] % 16;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const mechdyn::VecX values = mechdyn::cli::parse_number_list(text, "--q", expected, "nq");
    if (values.size() != expected || !values.allFinite()) std::abort();
  } catch (const mechdyn::InvalidArgument&) {
  }
  const std::vector<std::string> list = mechdyn::split_expression_list(text);
  if (list.size() > 64) return 0;
  try {
    mechdyn::TimeExpressions expressions(list, "tau");
    mechdyn::VecX out(expressions.size());
    for (double t : {0.0, 1e-3, 0.5, 1.0, 1e6, -2.0}) {
      try {
        expressions.evaluate(t, out);
        if (!out.allFinite()) std::abort();
      } catch (const mechdyn::InvalidArgument&) {
      }
    }
  } catch (const mechdyn::InvalidArgument&) {
  }
  return 0;
}
