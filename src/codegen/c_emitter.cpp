// Straight-line C from an expression graph (c_emitter.hpp).
//
// Node ids are a topological order (a node's operands are made before it), so one pass
// in id order builds every reachable node's text: a local (`const double name = …;`)
// when it is used more than once, carries a name from the algorithm, or would make an
// inline term longer than a line; otherwise its text goes inline into its single user.
// Parentheses keep the graph's evaluation order exactly (a + (b + c) stays so: the
// compiler must not reassociate, and without -ffast-math it does not).
// Cost: O(nodes + text). Reads the graph; writes the text.
#include "c_emitter.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "c_names.hpp"

namespace mechdyn::codegen {

namespace {

// Precedence of a printed term: an atom (name, literal ≥ 0, call), a unary minus (also
// a negative literal), a product, a sum.
enum Level { kSum = 1, kProduct = 2, kUnary = 3, kAtom = 4 };

struct Term {
  std::string text;
  int level = kAtom;
};

constexpr std::size_t kLongestInline = 100;

std::string operand(const Term& t, int needed) {
  if (t.level >= needed && t.level != kUnary) return t.text;
  return "(" + t.text + ")";
}

}  // namespace

EmittedBody emit_body(const ExpressionGraph& graph, const std::vector<Statement>& statements,
                      const std::vector<std::string>& arrays, const std::string& math_prefix) {
  const std::size_t size = graph.size();
  // Reachable nodes and the number of references to each from reachable nodes and statements.
  std::vector<int> uses(size, 0);
  std::vector<char> reachable(size, 0);
  std::vector<int> stack;
  auto reference = [&](int id) {
    ++uses[static_cast<std::size_t>(id)];
    if (!reachable[static_cast<std::size_t>(id)]) {
      reachable[static_cast<std::size_t>(id)] = 1;
      stack.push_back(id);
    }
  };
  for (const Statement& s : statements) {
    if (s.kind == Statement::Kind::Return) continue;
    reference(s.value.id);
    if (s.kind == Statement::Kind::Guard) reference(s.limit.id);
  }
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const Node& n = graph.node(id);
    if (n.a >= 0) reference(n.a);
    if (n.b >= 0) reference(n.b);
    if (n.c >= 0) reference(n.c);
    // sign and nonzero_or print their first operand twice (a test and a value): it must
    // be a local or an atom, never an inline expression evaluated twice
    if (n.op == Op::Sign || n.op == Op::NonzeroOr) ++uses[static_cast<std::size_t>(n.a)];
  }

  EmittedBody out;
  std::set<std::string> taken = {"q", "v", "a", "tau", "M", "h", "force", "torque", "status", "tau_d", "friction", "z", "z_rate"};
  auto unique_name = [&](const std::string& wanted) {
    std::string name = c_identifier(wanted);
    for (int k = 2; taken.count(name) != 0; ++k) name = c_identifier(wanted) + "_" + std::to_string(k);
    taken.insert(name);
    return name;
  };

  // Inputs, in the order of `arrays`, then by index.
  std::vector<Term> terms(size);
  std::vector<int> input_nodes;
  for (std::size_t id = 0; id < size; ++id)
    if (reachable[id] && graph.node(static_cast<int>(id)).op == Op::Input) input_nodes.push_back(static_cast<int>(id));
  auto array_rank = [&](const std::string& array) {
    return static_cast<long>(std::find(arrays.begin(), arrays.end(), array) - arrays.begin());
  };
  std::sort(input_nodes.begin(), input_nodes.end(), [&](int x, int y) {
    const InputSlot& a = graph.inputs()[static_cast<std::size_t>(graph.node(x).input)];
    const InputSlot& b = graph.inputs()[static_cast<std::size_t>(graph.node(y).input)];
    return std::make_pair(array_rank(a.array), a.index) < std::make_pair(array_rank(b.array), b.index);
  });
  std::string text;
  for (const int id : input_nodes) {
    const InputSlot& slot = graph.inputs()[static_cast<std::size_t>(graph.node(id).input)];
    const std::string name = unique_name(slot.name);
    text += "  const double " + name + " = " + slot.array + "[" + std::to_string(slot.index) + "];\n";
    if (std::find(out.arrays_read.begin(), out.arrays_read.end(), slot.array) == out.arrays_read.end())
      out.arrays_read.push_back(slot.array);
    terms[static_cast<std::size_t>(id)] = {name, kAtom};
  }

  OperationCounts& counts = out.counts;
  long temporaries = 0;
  for (std::size_t index = 0; index < size; ++index) {
    if (!reachable[index]) continue;
    const int id = static_cast<int>(index);
    const Node& n = graph.node(id);
    Term term;
    auto arg = [&](int k) -> const Term& { return terms[static_cast<std::size_t>(k)]; };
    switch (n.op) {
      case Op::Input:
        continue;  // loaded above
      case Op::Constant: {
        const std::string literal = c_literal(n.value);
        terms[index] = {literal, n.value < 0.0 ? kUnary : kAtom};
        continue;
      }
      case Op::Add:
        term = {operand(arg(n.a), kSum) + " + " + operand(arg(n.b), kProduct), kSum}, ++counts.additions;
        break;
      case Op::Sub:
        term = {operand(arg(n.a), kSum) + " - " + operand(arg(n.b), kProduct), kSum}, ++counts.additions;
        break;
      case Op::Mul:
        term = {operand(arg(n.a), kProduct) + " * " + operand(arg(n.b), kAtom), kProduct}, ++counts.multiplications;
        break;
      case Op::Div:
        term = {operand(arg(n.a), kProduct) + " / " + operand(arg(n.b), kAtom), kProduct}, ++counts.divisions;
        break;
      case Op::Neg:
        term = {"-" + operand(arg(n.a), kAtom), kUnary}, ++counts.negations;
        break;
      case Op::Sin:
        term = {math_prefix + "sin(" + arg(n.a).text + ")", kAtom}, ++counts.sines;
        break;
      case Op::Cos:
        term = {math_prefix + "cos(" + arg(n.a).text + ")", kAtom}, ++counts.cosines;
        break;
      case Op::Sqrt:
        term = {math_prefix + "sqrt(" + arg(n.a).text + ")", kAtom}, ++counts.square_roots;
        break;
      case Op::Max:
        term = {math_prefix + "fmax(" + arg(n.a).text + ", " + arg(n.b).text + ")", kAtom}, ++counts.maxima;
        break;
      case Op::Exp:
        term = {math_prefix + "exp(" + arg(n.a).text + ")", kAtom}, ++counts.exponentials;
        break;
      case Op::Tanh:
        term = {math_prefix + "tanh(" + arg(n.a).text + ")", kAtom}, ++counts.hyperbolic_tangents;
        break;
      case Op::Abs:
        term = {math_prefix + "fabs(" + arg(n.a).text + ")", kAtom}, ++counts.absolute_values;
        break;
      case Op::Sign: {  // friction_models.cpp's sign_of: 0 for ±0
        const std::string x = operand(arg(n.a), kAtom);
        term = {"(" + x + " > 0.0 ? 1.0 : (" + x + " < 0.0 ? -1.0 : 0.0))", kAtom}, ++counts.selections;
        break;
      }
      case Op::IfPositive:
        term = {"(" + operand(arg(n.a), kProduct) + " > 0.0 ? " + arg(n.b).text + " : " + arg(n.c).text + ")", kAtom},
        ++counts.selections;
        break;
      case Op::NonzeroOr: {
        const std::string x = operand(arg(n.a), kAtom);
        term = {"(" + x + " != 0.0 ? " + x + " : " + arg(n.b).text + ")", kAtom}, ++counts.selections;
        break;
      }
    }
    const bool local = uses[index] > 1 || !n.hint.empty() || term.text.size() > kLongestInline;
    if (local) {
      const std::string name = n.hint.empty() ? unique_name("t" + std::to_string(++temporaries)) : unique_name(n.hint);
      text += "  const double " + name + " = " + term.text + ";\n";
      term = {name, kAtom};
      ++counts.locals;
    }
    terms[index] = term;
  }

  for (const Statement& s : statements) {
    const std::string comment = s.comment.empty() ? "" : "  /* " + s.comment + " */";
    if (s.kind == Statement::Kind::Return) {
      text += "  return " + std::to_string(s.status) + ";" + comment + "\n";
    } else if (s.kind == Statement::Kind::Guard) {
      text += "  if (!(" + operand(terms[static_cast<std::size_t>(s.value.id)], kProduct) + " > " +
              operand(terms[static_cast<std::size_t>(s.limit.id)], kProduct) + ")) return " + std::to_string(s.status) +
              ";" + comment + "\n";
    } else {
      text += "  " + s.target + " = " + terms[static_cast<std::size_t>(s.value.id)].text + ";" + comment + "\n";
    }
  }
  out.text = std::move(text);
  return out;
}

}  // namespace mechdyn::codegen
