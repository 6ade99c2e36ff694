// A consistent initial state keeping the stated coordinates. See the header.
#include "mechdyn/constraints/initial_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/math/jacobi_svd.hpp"
#include "mechdyn/model/checks.hpp"

namespace mechdyn {

namespace {

std::string number(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

// Names and units of the nv velocity coordinates (model/joint.hpp).
std::vector<CoordinateName> velocity_names(const Model& model) {
  std::vector<CoordinateName> configuration, velocity;
  for (const Joint& joint : model.joints) joint_coordinate_names(joint, configuration, velocity);
  return velocity;
}

std::string list_names(const std::vector<CoordinateName>& names, const std::vector<int>& indices) {
  if (indices.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < indices.size(); ++i)
    out += (i ? ", " : "") + names[static_cast<std::size_t>(indices[i])].name;
  return out;
}

// The velocity coordinates that some loop involves: the joints on the tree path between
// a cut joint's two bodies (below their common ancestor). The others are independent of
// the loops (a branch hanging off them): never solved, kept as given.
std::vector<char> coordinates_in_loops(const Model& model) {
  const std::size_t n = static_cast<std::size_t>(model.num_bodies());
  std::vector<char> in_loop_body(n, 0), on_path_a(n, 0);
  for (const Loop& loop : model.loops) {
    std::fill(on_path_a.begin(), on_path_a.end(), 0);
    for (int l = loop.a.body; l != kGround; l = model.bodies[static_cast<std::size_t>(l)].parent)
      on_path_a[static_cast<std::size_t>(l)] = 1;
    int common = kGround;
    for (int l = loop.b.body; l != kGround; l = model.bodies[static_cast<std::size_t>(l)].parent) {
      if (on_path_a[static_cast<std::size_t>(l)]) {
        common = l;
        break;
      }
      in_loop_body[static_cast<std::size_t>(l)] = 1;
    }
    for (int l = loop.a.body; l != common; l = model.bodies[static_cast<std::size_t>(l)].parent)
      in_loop_body[static_cast<std::size_t>(l)] = 1;
  }
  std::vector<char> in_loop(static_cast<std::size_t>(model.nv), 0);
  for (int k = 0; k < model.nv; ++k) in_loop[static_cast<std::size_t>(k)] = in_loop_body[static_cast<std::size_t>(model.dof_body[static_cast<std::size_t>(k)])];
  return in_loop;
}

// Sorted, checked copy of a kept set (the actuated coordinates when not given).
std::vector<int> kept_set(const Model& model, const Data& data, const std::optional<std::vector<int>>& given,
                          const char* what) {
  if (!given) return data.actuated_dofs;
  std::vector<int> kept = *given;
  std::sort(kept.begin(), kept.end());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i] < 0 || kept[i] >= model.nv)
      throw InvalidArgument(std::string("consistent_initial_state: ") + what + " coordinate " + std::to_string(kept[i]) +
                            " is outside [0, " + std::to_string(model.nv) + ")");
    if (i > 0 && kept[i] == kept[i - 1])
      throw InvalidArgument(std::string("consistent_initial_state: ") + what + " coordinate " + std::to_string(kept[i]) +
                            " is named twice");
  }
  return kept;
}

// The coordinates the loops must determine: in a loop and not kept.
std::vector<int> solved_set(const Model& model, const std::vector<int>& kept, const std::vector<char>& in_loop) {
  std::vector<int> solved;
  for (int k = 0; k < model.nv; ++k)
    if (in_loop[static_cast<std::size_t>(k)] && !std::binary_search(kept.begin(), kept.end(), k)) solved.push_back(k);
  return solved;
}

// The complement of `solved`: what the assembly keeps as given.
std::vector<int> complement(const Model& model, const std::vector<int>& solved) {
  std::vector<int> out;
  for (int k = 0; k < model.nv; ++k)
    if (!std::binary_search(solved.begin(), solved.end(), k)) out.push_back(k);
  return out;
}

MatX columns(const MatX& jacobian, const std::vector<int>& indices) {
  MatX out(jacobian.rows(), static_cast<Eigen::Index>(indices.size()));
  for (std::size_t c = 0; c < indices.size(); ++c) out.col(static_cast<Eigen::Index>(c)) = jacobian.col(indices[c]);
  return out;
}

// SVD of J(:, solved); throws "singular start" naming the solved coordinates that the
// null space of J(:, solved) moves (`level`: "positions" or "rates").
void require_determined(JacobiSvd& svd, const std::vector<int>& solved, const std::vector<int>& kept,
                        const std::vector<CoordinateName>& names, const char* level, double tolerance) {
  const Eigen::Index n = static_cast<Eigen::Index>(solved.size());
  const Eigen::Index rank = svd.rank(tolerance);
  if (rank == n) return;
  const double largest = svd.largest_singular_value();
  const VecX& sigma = svd.singular_values();
  const MatX& basis = svd.right_singular_vectors();
  std::vector<int> undetermined;
  for (Eigen::Index c = 0; c < n; ++c) {
    bool moves = false;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!(sigma[i] > tolerance * largest) && std::abs(basis(c, i)) > 1e-6) moves = true;
    if (moves) undetermined.push_back(solved[static_cast<std::size_t>(c)]);
  }
  throw SolverError("singular start: the " + std::string(level) + " of " + list_names(names, undetermined) +
                    " are not determined by the kept coordinates (" + list_names(names, kept) + "): rank " +
                    std::to_string(rank) + " of " + std::to_string(n) +
                    " (keep more coordinates, or start away from a dead point or branch point of the loops)");
}

}  // namespace

InitialStateResult consistent_initial_state(const Model& model, Data& data, Eigen::Ref<VecX> q, Eigen::Ref<VecX> v,
                                            const InitialStateOptions& options) {
  check_data(model, data, "consistent_initial_state");
  const Eigen::Ref<const VecX> velocities(v);
  check_state(model, q, &velocities);
  InitialStateResult result;
  result.kept_positions = kept_set(model, data, options.kept_positions, "kept position");
  result.kept_velocities = kept_set(model, data, options.kept_velocities, "kept velocity");
  if (model.num_loop_rows == 0) return result;
  const std::vector<CoordinateName> names = velocity_names(model);
  const std::vector<char> in_loop = coordinates_in_loops(model);
  const double tolerance = options.assembly.singular_tolerance;

  // 1. Positions: Φ(q) = 0 solved for the coordinates in loops that are not kept.
  const std::vector<int> solved_positions = solved_set(model, result.kept_positions, in_loop);
  AssemblyOptions assembly = options.assembly;
  assembly.check_singular = false;  // checked below, naming the coordinates
  try {
    result.assembly_method =
        assemble_keeping(model, data, q, complement(model, solved_positions), assembly).method;
  } catch (const SolverError& e) {
    throw SolverError("unassemblable start: the loops cannot close with the positions of " +
                      list_names(names, result.kept_positions) + " as given: " + e.what());
  }
  loop_closure(model, data, q);
  result.closure_residual = data.loop_residual.lpNorm<Eigen::Infinity>();
  const MatX jacobian = data.loop_jacobian;
  if (!solved_positions.empty()) {
    JacobiSvd svd(jacobian.rows(), static_cast<Eigen::Index>(solved_positions.size()));
    svd.compute(columns(jacobian, solved_positions));
    require_determined(svd, solved_positions, result.kept_positions, names, "positions", tolerance);
  }

  // 2. Velocities: J_F v_F = −J_K v_K (eq. 24 with Φ̇ = 0), minimum-norm least squares.
  const std::vector<int> solved = solved_set(model, result.kept_velocities, in_loop);
  const std::vector<int> given = complement(model, solved);  // kept, and the rates outside every loop
  const Eigen::Index nf = static_cast<Eigen::Index>(solved.size()), ng = static_cast<Eigen::Index>(given.size());
  const MatX jacobian_free = columns(jacobian, solved), jacobian_given = columns(jacobian, given);
  JacobiSvd svd(jacobian.rows(), nf);
  if (nf > 0) {
    svd.compute(jacobian_free);
    require_determined(svd, solved, result.kept_velocities, names, "rates", tolerance);
  }
  VecX v_given(ng), v_free = VecX::Zero(nf);
  for (Eigen::Index c = 0; c < ng; ++c) v_given[c] = v[given[static_cast<std::size_t>(c)]];
  const VecX stated = v_given;
  auto solve_free = [&] {  // v_F = J_F⁺ (−J_K v_K); returns ‖J v‖∞
    const VecX rhs = -(jacobian_given * v_given);
    if (nf > 0) svd.solve_min_norm(rhs, v_free, tolerance);
    return (jacobian_free * v_free - rhs).lpNorm<Eigen::Infinity>();
  };
  const double jacobian_scale = jacobian.cwiseAbs().maxCoeff();
  auto compatible = [&](double residual) {
    const double rates = std::max(v_given.lpNorm<Eigen::Infinity>(), nf > 0 ? v_free.lpNorm<Eigen::Infinity>() : 0.0);
    return residual <= options.velocity_tolerance * jacobian_scale * rates;
  };
  double residual = solve_free();
  if (!compatible(residual)) {
    // The kept rates violate the loops: the least change Δ of them with A (v_K − Δ) = 0,
    // A = (I − J_F J_F⁺) J_K (the part of J_K v_K that no free rates can cancel):
    // Δ = A⁺ A v_K.
    MatX incompatible = jacobian_given;
    VecX column_free(nf);
    for (Eigen::Index c = 0; c < ng && nf > 0; ++c) {
      svd.solve_min_norm(jacobian_given.col(c), column_free, tolerance);
      incompatible.col(c) -= jacobian_free * column_free;
    }
    JacobiSvd projector(jacobian.rows(), ng);
    projector.compute(incompatible);
    VecX change(ng);
    projector.solve_min_norm(incompatible * v_given, change, tolerance);
    const VecX nearest = v_given - change;
    // Only coordinates the user kept can move here (the rates outside every loop have zero
    // columns in J, so zero rows in A⁺).
    if (!options.allow_velocity_adjustment) {
      std::string detail;
      for (Eigen::Index c = 0; c < ng; ++c) {
        if (std::abs(change[c]) <= 1e-12 * std::max(1.0, stated.lpNorm<Eigen::Infinity>())) continue;
        detail += (detail.empty() ? "" : ", ") + names[static_cast<std::size_t>(given[static_cast<std::size_t>(c)])].name +
                  " = " + number(stated[c]) + " (nearest allowed " + number(nearest[c]) + ")";
      }
      throw SolverError("impossible initial velocity: the kept rates violate the loops (|J v| = " + number(residual) +
                        "): " + detail);
    }
    v_given = nearest;
    residual = solve_free();
    if (!compatible(residual) || !v_given.allFinite() || !v_free.allFinite())
      throw SolverError("impossible initial velocity: no rates of the kept coordinates (" +
                        list_names(names, result.kept_velocities) + ") satisfy the loops (|J v| = " +
                        number(residual) + " after the least change)");
    const double noise = 1e-12 * std::max(1.0, stated.lpNorm<Eigen::Infinity>());
    for (Eigen::Index c = 0; c < ng; ++c) {
      if (std::abs(v_given[c] - stated[c]) <= noise) {
        v_given[c] = stated[c];  // round-off only: keep the stated number
        continue;
      }
      const int k = given[static_cast<std::size_t>(c)];
      InitialStateAdjustment adjustment;
      adjustment.coordinate = k;
      adjustment.name = names[static_cast<std::size_t>(k)].name;
      adjustment.unit = names[static_cast<std::size_t>(k)].unit;
      adjustment.given = stated[c];
      adjustment.used = v_given[c];
      result.adjustments.push_back(adjustment);
    }
    solve_free();
  }
  for (Eigen::Index c = 0; c < ng; ++c) v[given[static_cast<std::size_t>(c)]] = v_given[c];
  for (Eigen::Index c = 0; c < nf; ++c) v[solved[static_cast<std::size_t>(c)]] = v_free[c];
  if (!v.allFinite()) throw SolverError("consistent_initial_state: the velocities are not finite");
  result.velocity_residual = (jacobian * v).lpNorm<Eigen::Infinity>();
  return result;
}

}  // namespace mechdyn
