// Prints the expressions of one generated function as straight-line C (or C++): the
// inputs loaded once into named locals, every node used more than once (or named by
// the algorithm) as a `const double` local, single-use nodes inline, then the guards,
// then the outputs. Counts the operations it prints. Not installed.
#pragma once

#include <string>
#include <vector>

#include "expression_graph.hpp"
#include "mechdyn/codegen/codegen.hpp"

namespace mechdyn::codegen {

/// One line of a generated function after its locals.
struct Statement {
  enum class Kind { Assign, Guard, Return };  // Return: `return status;`
  Kind kind = Kind::Assign;
  std::string target;   // Assign: "M[3]"
  Expr value;           // Assign: the value; Guard: compared with `limit`
  Expr limit;           // Guard: `if (!(value > limit)) return status;`
  int status = 0;       // Guard
  std::string comment;  // optional, printed after the line
};

/// Operations in the printed code (each node once, as a local or an inline term).
using OperationCounts = CodegenCounts;

struct EmittedBody {
  std::string text;  // the statements, each line indented by two spaces
  OperationCounts counts;
  std::vector<std::string> arrays_read;  // the input arrays the code reads (others get `(void)name;`)
};

/// `arrays`: the input array names in the order the inputs are loaded (e.g. q, v, a);
/// `math_prefix`: "" for C (math.h), "std::" for C++ (cmath).
EmittedBody emit_body(const ExpressionGraph& graph, const std::vector<Statement>& statements,
                      const std::vector<std::string>& arrays, const std::string& math_prefix);

}  // namespace mechdyn::codegen
