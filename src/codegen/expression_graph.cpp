// The folding expression graph of `mechdyn codegen` (expression_graph.hpp): hash-consed
// nodes, with 0, ±1 and constants folded as each node is made. Cost: O(1) expected per
// node. Reads and writes only the graph.
#include "expression_graph.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace mechdyn::codegen {

namespace {

thread_local ExpressionGraph* current = nullptr;

std::uint64_t bits_of(double value) {
  if (value == 0.0) value = 0.0;  // −0 and +0 are one constant
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

std::size_t ExpressionGraph::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = static_cast<std::uint64_t>(k.op) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.a)) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.b)) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.c)) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= k.bits + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return static_cast<std::size_t>(h);
}

ExpressionGraph::ExpressionGraph() {
  constant(0.0);  // node 0
  constant(1.0);  // node 1
}

int ExpressionGraph::make(Op op, int a, int b, double value, int input, int c) {
  const Key key{op, a, b, c, op == Op::Constant ? bits_of(value) : static_cast<std::uint64_t>(input + 1)};
  const auto found = unique_.find(key);
  if (found != unique_.end()) return found->second;
  Node node;
  node.op = op;
  node.a = a;
  node.b = b;
  node.c = c;
  node.value = value == 0.0 ? 0.0 : value;
  node.input = input;
  nodes_.push_back(node);
  const int id = static_cast<int>(nodes_.size()) - 1;
  unique_.emplace(key, id);
  return id;
}

int ExpressionGraph::constant(double value) {
  if (!std::isfinite(value)) throw std::domain_error("codegen: a folded constant is not finite");
  return make(Op::Constant, -1, -1, value);
}

int ExpressionGraph::input(const std::string& array, int index, const std::string& name) {
  for (std::size_t k = 0; k < inputs_.size(); ++k)
    if (inputs_[k].array == array && inputs_[k].index == index) return make(Op::Input, -1, -1, 0.0, static_cast<int>(k));
  inputs_.push_back({array, index, name});
  return make(Op::Input, -1, -1, 0.0, static_cast<int>(inputs_.size()) - 1);
}

int ExpressionGraph::neg(int a) {
  const Node n = node(a);  // a copy: make() may grow nodes_ and move it
  if (n.op == Op::Constant) return constant(-n.value);
  if (n.op == Op::Neg) return n.a;                // −(−x) = x
  if (n.op == Op::Sub) return make(Op::Sub, n.b, n.a);  // −(a − b) = b − a, exactly
  return make(Op::Neg, a, -1);
}

int ExpressionGraph::add(int a, int b) {
  const Node x = node(a), y = node(b);  // copies: constant() and make() may grow nodes_
  if (x.op == Op::Constant && y.op == Op::Constant) return constant(x.value + y.value);
  if (is_constant(a, 0.0)) return b;
  if (is_constant(b, 0.0)) return a;
  if (x.op == Op::Neg && y.op == Op::Neg) return neg(add(x.a, y.a));  // −x + −y = −(x + y)
  if (y.op == Op::Neg) return sub(a, y.a);                           // x + (−y) = x − y
  if (x.op == Op::Neg) return sub(b, x.a);                           // (−x) + y = y − x
  if (x.op == Op::Constant) {  // c + (c₂ + z) = (c + c₂) + z, c + (z − c₂), c + (c₂ − z): the constants merged
    if (y.op == Op::Add && node(y.a).op == Op::Constant) return add(constant(x.value + node(y.a).value), y.b);
    if (y.op == Op::Add && node(y.b).op == Op::Constant) return add(constant(x.value + node(y.b).value), y.a);
    if (y.op == Op::Sub && node(y.b).op == Op::Constant) return add(constant(x.value - node(y.b).value), y.a);
    if (y.op == Op::Sub && node(y.a).op == Op::Constant) return sub(constant(x.value + node(y.a).value), y.b);
  } else if (y.op == Op::Constant) {
    return add(b, a);
  }
  if (y.op == Op::Constant && y.value < 0.0) return sub(a, constant(-y.value));
  if (x.op == Op::Constant && x.value < 0.0) return sub(b, constant(-x.value));
  return make(Op::Add, std::min(a, b), std::max(a, b));
}

int ExpressionGraph::sub(int a, int b) {
  const Node x = node(a), y = node(b);  // copies (see add)
  if (x.op == Op::Constant && y.op == Op::Constant) return constant(x.value - y.value);
  if (a == b) return 0;
  if (is_constant(b, 0.0)) return a;
  if (is_constant(a, 0.0)) return neg(b);
  if (y.op == Op::Constant) {  // (k + z) − c = (k − c) + z, (z − k) − c = z − (k + c), (k − z) − c = (k − c) − z
    if (x.op == Op::Add && node(x.a).op == Op::Constant) return add(constant(node(x.a).value - y.value), x.b);
    if (x.op == Op::Add && node(x.b).op == Op::Constant) return add(constant(node(x.b).value - y.value), x.a);
    if (x.op == Op::Sub && node(x.b).op == Op::Constant) return sub(x.a, constant(node(x.b).value + y.value));
    if (x.op == Op::Sub && node(x.a).op == Op::Constant) return sub(constant(node(x.a).value - y.value), x.b);
  }
  if (x.op == Op::Constant) {  // c − (k + z) = (c − k) − z, c − (z − k) = (c + k) − z, c − (k − z) = (c − k) + z
    if (y.op == Op::Add && node(y.a).op == Op::Constant) return sub(constant(x.value - node(y.a).value), y.b);
    if (y.op == Op::Add && node(y.b).op == Op::Constant) return sub(constant(x.value - node(y.b).value), y.a);
    if (y.op == Op::Sub && node(y.b).op == Op::Constant) return sub(constant(x.value + node(y.b).value), y.a);
    if (y.op == Op::Sub && node(y.a).op == Op::Constant) return add(constant(x.value - node(y.a).value), y.b);
  }
  if (y.op == Op::Neg) return add(a, y.a);                    // x − (−y) = x + y
  if (x.op == Op::Neg) return neg(add(x.a, b));               // −x − y = −(x + y)
  if (y.op == Op::Constant && y.value < 0.0) return add(a, constant(-y.value));
  return make(Op::Sub, a, b);
}

int ExpressionGraph::mul(int a, int b) {
  const Node x = node(a), y = node(b);  // copies (see add)
  if (x.op == Op::Constant && y.op == Op::Constant) return constant(x.value * y.value);
  if (is_constant(a, 0.0) || is_constant(b, 0.0)) return 0;
  if (is_constant(a, 1.0)) return b;
  if (is_constant(b, 1.0)) return a;
  if (is_constant(a, -1.0)) return neg(b);
  if (is_constant(b, -1.0)) return neg(a);
  if (x.op == Op::Neg) return neg(mul(x.a, b));  // (−x)·y = −(x·y), exactly
  if (y.op == Op::Neg) return neg(mul(a, y.a));
  if (x.op == Op::Constant && x.value < 0.0) return neg(mul(constant(-x.value), b));
  if (y.op == Op::Constant && y.value < 0.0) return neg(mul(a, constant(-y.value)));
  // c₁·(c₂·z) = (c₁c₂)·z
  if (x.op == Op::Constant && y.op == Op::Mul && node(y.a).op == Op::Constant)
    return mul(constant(x.value * node(y.a).value), y.b);
  if (y.op == Op::Constant && x.op == Op::Mul && node(x.a).op == Op::Constant)
    return mul(constant(y.value * node(x.a).value), x.b);
  // constants first: c·z is printed with the literal in front
  if (y.op == Op::Constant) return make(Op::Mul, b, a);
  if (x.op == Op::Constant) return make(Op::Mul, a, b);
  return make(Op::Mul, std::min(a, b), std::max(a, b));
}

int ExpressionGraph::div(int a, int b) {
  const Node x = node(a), y = node(b);  // copies (see add)
  if (is_constant(b, 0.0)) throw std::domain_error("codegen: division by a structural zero");
  if (x.op == Op::Constant && y.op == Op::Constant) return constant(x.value / y.value);
  if (is_constant(a, 0.0)) return 0;
  if (is_constant(b, 1.0)) return a;
  if (is_constant(b, -1.0)) return neg(a);
  if (x.op == Op::Neg) return neg(div(x.a, b));
  if (y.op == Op::Neg) return neg(div(a, y.a));
  return make(Op::Div, a, b);
}

int ExpressionGraph::sin(int a) {
  if (is_constant(a)) return constant(std::sin(node(a).value));
  return make(Op::Sin, a, -1);
}

int ExpressionGraph::cos(int a) {
  if (is_constant(a)) return constant(std::cos(node(a).value));
  return make(Op::Cos, a, -1);
}

int ExpressionGraph::sqrt(int a) {
  if (is_constant(a)) return constant(std::sqrt(node(a).value));
  // √(x·x) = |x|: a correctly rounded square root of a correctly rounded square is |x|
  // unless x·x over- or underflows, where |x| is the better answer (the library's hypot)
  const Node n = node(a);  // a copy (see add)
  if (n.op == Op::Mul && n.a == n.b) return abs(n.a);
  return make(Op::Sqrt, a, -1);
}

int ExpressionGraph::max(int a, int b) {
  if (is_constant(a) && is_constant(b)) return constant(std::max(node(a).value, node(b).value));
  if (a == b) return a;
  return make(Op::Max, std::min(a, b), std::max(a, b));
}

int ExpressionGraph::exp(int a) {
  if (is_constant(a)) return constant(std::exp(node(a).value));
  return make(Op::Exp, a, -1);
}

int ExpressionGraph::tanh(int a) {
  if (is_constant(a)) return constant(std::tanh(node(a).value));
  return make(Op::Tanh, a, -1);
}

int ExpressionGraph::abs(int a) {
  const Node n = node(a);  // a copy (see add)
  if (n.op == Op::Constant) return constant(std::abs(n.value));
  if (n.op == Op::Neg) return abs(n.a);  // |−x| = |x|
  if (n.op == Op::Abs) return a;         // ||x|| = |x|
  return make(Op::Abs, a, -1);
}

int ExpressionGraph::sign(int a) {
  const Node n = node(a);  // a copy (see add)
  if (n.op == Op::Constant) return constant(n.value > 0.0 ? 1.0 : (n.value < 0.0 ? -1.0 : 0.0));
  if (n.op == Op::Neg) return neg(sign(n.a));  // sgn(−x) = −sgn(x), exactly (sgn(±0) = 0)
  return make(Op::Sign, a, -1);
}

int ExpressionGraph::nonzero_or(int a, int b) {
  if (is_constant(a)) return node(a).value != 0.0 ? a : b;
  if (a == b) return a;
  return make(Op::NonzeroOr, a, b);  // not commutative: operands kept in order
}

int ExpressionGraph::if_positive(int condition, int then, int otherwise) {
  if (is_constant(condition)) return node(condition).value > 0.0 ? then : otherwise;
  if (then == otherwise) return then;
  return make(Op::IfPositive, condition, then, 0.0, -1, otherwise);
}

void ExpressionGraph::name(int id, const std::string& hint) {
  Node& n = nodes_[static_cast<std::size_t>(id)];
  if (n.op == Op::Constant || n.op == Op::Input || !n.hint.empty()) return;
  n.hint = hint;
}

GraphScope::GraphScope(ExpressionGraph& graph) : previous_(current) { current = &graph; }
GraphScope::~GraphScope() { current = previous_; }

ExpressionGraph& current_graph() {
  if (current == nullptr) throw std::logic_error("codegen: an expression was made outside a GraphScope");
  return *current;
}

Expr::Expr(double value) : id(value == 0.0 ? 0 : value == 1.0 ? 1 : current_graph().constant(value)) {}
bool Expr::is_zero() const { return id == 0; }
bool Expr::is_constant() const { return current_graph().is_constant(id); }

Expr operator+(Expr a, Expr b) { return Expr::node(current_graph().add(a.id, b.id)); }
Expr operator-(Expr a, Expr b) { return Expr::node(current_graph().sub(a.id, b.id)); }
Expr operator*(Expr a, Expr b) { return Expr::node(current_graph().mul(a.id, b.id)); }
Expr operator/(Expr a, Expr b) { return Expr::node(current_graph().div(a.id, b.id)); }
Expr operator-(Expr a) { return Expr::node(current_graph().neg(a.id)); }
Expr sin(Expr a) { return Expr::node(current_graph().sin(a.id)); }
Expr cos(Expr a) { return Expr::node(current_graph().cos(a.id)); }
Expr sqrt(Expr a) { return Expr::node(current_graph().sqrt(a.id)); }
Expr max(Expr a, Expr b) { return Expr::node(current_graph().max(a.id, b.id)); }
Expr exp(Expr a) { return Expr::node(current_graph().exp(a.id)); }
Expr tanh(Expr a) { return Expr::node(current_graph().tanh(a.id)); }
Expr abs(Expr a) { return Expr::node(current_graph().abs(a.id)); }
Expr sign(Expr a) { return Expr::node(current_graph().sign(a.id)); }
Expr nonzero_or(Expr a, Expr b) { return Expr::node(current_graph().nonzero_or(a.id, b.id)); }
Expr if_positive(Expr condition, Expr then, Expr otherwise) {
  return Expr::node(current_graph().if_positive(condition.id, then.id, otherwise.id));
}
Expr named(Expr e, const std::string& hint) {
  current_graph().name(e.id, hint);
  return e;
}
Expr input(const std::string& array, int index, const std::string& name) {
  return Expr::node(current_graph().input(array, index, name));
}

}  // namespace mechdyn::codegen
