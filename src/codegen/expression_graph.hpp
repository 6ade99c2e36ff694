// The symbolic-expression layer of `mechdyn codegen` (docs/codegen.md): a graph of scalar
// expressions in which every node is made once (hash-consing, so a common subexpression
// is one node, later one named local) and folded as it is made, so that the generated code
// never multiplies by a structural 0 or ±1 and never recomputes a constant:
//   c ∘ c → the constant (computed here, in double, as the generated code would)
//   0·x → 0,  1·x → x,  (−1)·x → −x,  x + 0 → x,  x − 0 → x,  0 − x → −x,  x − x → 0,
//   x/1 → x,  −(−x) → x,  −(a − b) → b − a,  negations pulled out of products and folded
//   into sums (x + (−y) → x − y),  c₁·(c₂·x) → (c₁c₂)·x,  sin/cos/sqrt/exp/tanh/abs/sign
//   of a constant,  |−x| → |x|,  ||x|| → |x|,  sgn(−x) → −sgn(x),  nonzero_or(c, y) → c or y,
//   if_positive(c, x, y) → x or y,  if_positive(g, x, x) → x,  √(x·x) → |x|.
// The friction functions add the non-smooth nodes: abs (fabs), sign (the library's
// sign_of: +1, −1, or 0 for ±0), nonzero_or(x, y) = x ≠ 0 ? x : y (the direction of a
// friction effort at v = 0, friction_models.cpp) and if_positive(g, x, y) = g > 0 ? x : y
// (LuGre's g(v) ≤ 0 case); all exact in IEEE arithmetic.
// Commutative operands are ordered by node id, so a·b and b·a are the same node.
// Reassociation (c₁·(c₂·x)) and the folded constants change results only by rounding
// (the tests compare the generated code with the library to 1e-12).
//
// `Expr` is a node id; its operators build nodes in the graph made current by a
// `GraphScope` (one graph per generated function, one scope per thread), so the
// symbolic algorithms (symbolic_dynamics.cpp) read like the numeric ones.
// Not installed.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace mechdyn::codegen {

enum class Op : std::uint8_t {
  Constant, Input, Add, Sub, Mul, Div, Neg, Sin, Cos, Sqrt, Max,
  Exp, Tanh, Abs, Sign, NonzeroOr, IfPositive,  // the friction models (friction_models.cpp)
};

struct Node {
  Op op = Op::Constant;
  int a = -1, b = -1, c = -1;  // operands (node ids), −1 when unused (c: IfPositive's third)
  double value = 0.0;  // Constant: the value
  int input = -1;      // Input: index into ExpressionGraph::inputs
  std::string hint;    // a name for the generated local ("c_joint1"), empty: none
};

/// A scalar input of a generated function: `array[index]`, loaded once into a local `name`.
struct InputSlot {
  std::string array;
  int index = 0;
  std::string name;
};

class ExpressionGraph {
 public:
  ExpressionGraph();  // node 0 is the constant 0, node 1 the constant 1

  int constant(double value);
  int input(const std::string& array, int index, const std::string& name);
  int add(int a, int b);
  int sub(int a, int b);
  int mul(int a, int b);
  int div(int a, int b);
  int neg(int a);
  int sin(int a);
  int cos(int a);
  int sqrt(int a);
  int max(int a, int b);
  int exp(int a);
  int tanh(int a);
  int abs(int a);
  int sign(int a);                // +1, −1, 0 (also for −0): friction_models.cpp's sign_of
  int nonzero_or(int a, int b);  // a ≠ 0 ? a : b
  int if_positive(int condition, int then, int otherwise);  // condition > 0 ? then : otherwise

  /// Gives node `id` a name for its local in the generated code (the first name wins;
  /// constants and inputs keep theirs).
  void name(int id, const std::string& hint);

  const Node& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return nodes_.size(); }
  const std::vector<InputSlot>& inputs() const { return inputs_; }
  bool is_constant(int id) const { return node(id).op == Op::Constant; }
  bool is_constant(int id, double value) const { return is_constant(id) && node(id).value == value; }

 private:
  struct Key {
    Op op;
    int a, b, c;
    std::uint64_t bits;
    bool operator==(const Key& o) const { return op == o.op && a == o.a && b == o.b && c == o.c && bits == o.bits; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  int make(Op op, int a, int b, double value = 0.0, int input = -1, int c = -1);

  std::vector<Node> nodes_;
  std::vector<InputSlot> inputs_;
  std::unordered_map<Key, int, KeyHash> unique_;
};

/// Makes `graph` the graph that Expr operators build into, for this thread, while alive.
class GraphScope {
 public:
  explicit GraphScope(ExpressionGraph& graph);
  ~GraphScope();
  GraphScope(const GraphScope&) = delete;
  GraphScope& operator=(const GraphScope&) = delete;

 private:
  ExpressionGraph* previous_;
};

/// The graph of the innermost GraphScope of this thread.
ExpressionGraph& current_graph();

/// A scalar expression: a node of the current graph. Default: the constant 0.
struct Expr {
  int id = 0;
  Expr() = default;
  Expr(double value);  // NOLINT(google-explicit-constructor): constants read as numbers
  static Expr node(int id) {
    Expr e;
    e.id = id;
    return e;
  }
  bool is_zero() const;
  bool is_constant() const;
};

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator/(Expr a, Expr b);
Expr operator-(Expr a);
inline Expr& operator+=(Expr& a, Expr b) { return a = a + b; }
inline Expr& operator-=(Expr& a, Expr b) { return a = a - b; }
Expr sin(Expr a);
Expr cos(Expr a);
Expr sqrt(Expr a);
Expr max(Expr a, Expr b);
Expr exp(Expr a);
Expr tanh(Expr a);
Expr abs(Expr a);
Expr sign(Expr a);
Expr nonzero_or(Expr a, Expr b);
Expr if_positive(Expr condition, Expr then, Expr otherwise);
/// Names the node of `e` (ExpressionGraph::name) and returns e.
Expr named(Expr e, const std::string& hint);
/// A function input `array[index]`, loaded into the local `name`.
Expr input(const std::string& array, int index, const std::string& name);

}  // namespace mechdyn::codegen
