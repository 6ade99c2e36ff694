// Mobility and constraint analysis at one configuration. See the header.
#include "mechdyn/mobility/mobility_analysis.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <string>

#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/kinematics/jacobians.hpp"
#include "mechdyn/math/skew.hpp"
#include "mechdyn/mobility/scaled_closure_jacobian.hpp"

namespace mechdyn {

namespace {

// Rank of a dimensionless matrix and a basis of its null space (columns), by SVD:
// σ_i counts when σ_i > tolerance · max(σ_max, 1) (the entries are O(1) by construction).
struct RankAndNullSpace {
  int rank = 0;
  MatX null_space;
  VecX singular_values;
};

RankAndNullSpace rank_and_null_space(const MatX& matrix, double tolerance) {
  RankAndNullSpace out;
  const Eigen::Index cols = matrix.cols();
  if (matrix.rows() == 0 || cols == 0) {
    out.null_space = MatX::Identity(cols, cols);
    return out;
  }
  Eigen::JacobiSVD<MatX> svd(matrix, Eigen::ComputeFullV);
  out.singular_values = svd.singularValues();
  const double threshold = tolerance * std::max(out.singular_values[0], 1.0);
  for (Eigen::Index i = 0; i < out.singular_values.size(); ++i)
    if (out.singular_values[i] > threshold) ++out.rank;
  out.null_space = svd.matrixV().rightCols(cols - out.rank);
  return out;
}

// Twist Jacobians of every body about the world origin (6 × nv each): body_jacobian gives
// [ω; v at the body frame origin p], and v_O = v_p + p × ω.
std::vector<MatX> body_twist_jacobians(const Model& model, const Data& data) {
  std::vector<MatX> out(model.num_bodies(), MatX::Zero(6, model.nv));
  for (int b = 0; b < model.num_bodies(); ++b) {
    body_jacobian(model, data, b, out[b]);
    out[b].bottomRows(3) += skew(data.position[b]) * out[b].topRows(3);
  }
  return out;
}

// Velocities of every joint point, as a point of each body it joins (3 rows per pair): tree
// joint i at its frame origin (bodies i and its parent), cut joint at p_a and p_b (bodies a
// and b). An idle motion makes all of them zero. A body with fewer than two distinct joint
// points (a leaf, or one held at a single point) also gets two points at distance L off its
// joint point, so that in an idle motion it does not move at all: its spin about its own
// joint is its joint's motion, not an idle freedom.
MatX joint_point_velocities(const Model& model, const Data& data, const std::vector<MatX>& twists, double length) {
  std::vector<std::pair<int, Vec3>> pairs;
  for (int i = 0; i < model.num_bodies(); ++i) {
    pairs.push_back({i, data.position[i]});
    if (model.bodies[i].parent != kGround) pairs.push_back({model.bodies[i].parent, data.position[i]});
  }
  for (const Loop& loop : model.loops) {
    for (const BodyPoint& at : {loop.a, loop.b}) {
      const Vec3 point = point_position(data, at);
      for (int body : {loop.a.body, loop.b.body})
        if (body != kGround) pairs.push_back({body, point});
    }
  }
  const std::size_t joint_pairs = pairs.size();
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Vec3* first = nullptr;
    bool two = false;
    for (std::size_t i = 0; i < joint_pairs && !two; ++i) {
      if (pairs[i].first != b) continue;
      if (!first)
        first = &pairs[i].second;
      else if ((pairs[i].second - *first).norm() > 1e-9 * length)
        two = true;
    }
    if (!two) {
      const Vec3 x = first ? *first : data.position[b];
      pairs.push_back({b, Vec3(x + length * Vec3::UnitX())});
      pairs.push_back({b, Vec3(x + length * Vec3::UnitY())});
      pairs.push_back({b, Vec3(x + length * Vec3::UnitZ())});
    }
  }
  MatX out(3 * pairs.size(), model.nv);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const MatX& t = twists[pairs[i].first];
    out.middleRows(3 * i, 3) = t.bottomRows(3) - skew(pairs[i].second) * t.topRows(3);  // v_O + ω × x
  }
  return out;
}

ScrewSystem body_twist_system(const MatX& body_twists, const MatX& motions, const ScrewScale& scale, double tolerance) {
  ScrewSystem system(ScrewKind::Twist, scale);
  const MatX twists = body_twists * motions;
  for (Eigen::Index k = 0; k < twists.cols(); ++k) system.add(Vec6(twists.col(k)));
  system.factorize(tolerance, 1.0);  // a twist per unit scaled motion is O(1) when the body moves
  return system;
}

}  // namespace

MobilityReport analyze_mobility(const Model& model, const Eigen::Ref<const VecX>& q, const MobilityOptions& options) {
  check_state(model, q);
  if (!(options.tolerance > 0.0 && options.tolerance < 1.0))
    throw InvalidArgument("mobility: the tolerance must lie in (0, 1)");
  if (options.body && (*options.body < 0 || *options.body >= model.num_bodies()))
    throw InvalidArgument("mobility: body index " + std::to_string(*options.body) + " is not a body of the model");
  MobilityReport report;
  report.q = q;
  report.tolerance = options.tolerance;
  Data data(model);
  if (options.assemble && model.has_constraints()) {
    AssemblyOptions assembly = options.assembly;
    assembly.check_singular = false;  // singular configurations are what this analysis is for
    try {
      report.assembly_iterations = assemble(model, data, report.q, assembly).iterations;
    } catch (const SolverError& e) {
      throw InvalidArgument(std::string("the loops cannot be closed from this configuration: ") + e.what());
    }
  }
  loop_closure(model, data, report.q);
  const int rows = model.num_loop_rows;
  report.closure_residual = rows > 0 ? data.loop_residual.cwiseAbs().maxCoeff() : 0.0;
  const ScaledClosureJacobian scaled = scaled_closure_jacobian(model, data);
  report.scale = scaled.scale;
  const double tolerance = options.tolerance;

  // Counts and Grübler–Kutzbach: M = 6 (n − j) + Σ f_i.
  report.bodies = model.num_bodies();
  report.joints = model.num_bodies() + static_cast<int>(model.loops.size());
  int freedoms = 0;
  for (const Joint& joint : model.joints) freedoms += joint.nv;
  for (const Loop& loop : model.loops) freedoms += 6 - loop_rows(loop.type);
  freedoms -= static_cast<int>(model.couplings.size());  // a gear coupling removes one freedom (no body, no joint)
  report.gruebler_kutzbach = 6 * (report.bodies - report.joints) + freedoms;
  report.nv = model.nv;
  report.constraint_rows = rows;

  // Rank, dof, the free motions N = diag(γ) N'.
  const RankAndNullSpace closure = rank_and_null_space(scaled.matrix, tolerance);
  report.rank = closure.rank;
  report.dof = model.nv - closure.rank;
  report.redundant_constraints = rows - closure.rank;
  report.singular_values = closure.singular_values;
  report.motion_basis = scaled.column_scale.asDiagonal() * closure.null_space;

  // Which rows: Gram–Schmidt in row order (twice, for orthogonality in floating point).
  if (rows > 0) {
    const double sigma_max = closure.singular_values.size() > 0 ? closure.singular_values[0] : 0.0;
    const double threshold = tolerance * std::max(sigma_max, 1.0);
    MatX basis(model.nv, 0);
    int loop = 0;
    for (int r = 0; r < rows; ++r) {
      while (loop + 1 < static_cast<int>(model.loops.size()) && model.loop_row_index[loop + 1] <= r) ++loop;
      const bool coupling_row = r >= model.coupling_row_index;  // constraint index loops.size() + c
      VecX row = scaled.matrix.row(r).transpose();
      for (int pass = 0; pass < 2; ++pass)
        if (basis.cols() > 0) row -= basis * (basis.transpose() * row);
      const double norm = row.norm();
      if (norm <= threshold || basis.cols() >= closure.rank) {
        report.redundant_rows.push_back(
            {r, coupling_row ? static_cast<int>(model.loops.size()) + (r - model.coupling_row_index) : loop,
             coupling_row ? 0 : r - model.loop_row_index[loop], Wrench::from_spatial_force(data.loop_row_wrench_a[r])});
      } else {
        basis.conservativeResize(Eigen::NoChange, basis.cols() + 1);
        basis.col(basis.cols() - 1) = row / norm;
      }
    }
  }

  // The actuated joints locked: J' restricted to the passive coordinates.
  std::vector<int> passive;
  for (const Joint& joint : model.joints) {
    for (int k = 0; k < joint.nv; ++k) {
      if (joint.actuated)
        ++report.actuated;
      else
        passive.push_back(joint.v_index + k);
    }
  }
  MatX passive_columns(rows, static_cast<Eigen::Index>(passive.size()));
  for (std::size_t c = 0; c < passive.size(); ++c) passive_columns.col(c) = scaled.matrix.col(passive[c]);
  const RankAndNullSpace locked = rank_and_null_space(passive_columns, tolerance);
  report.locked_rank = locked.rank;
  report.locked_mobility = static_cast<int>(passive.size()) - locked.rank;
  report.redundant_actuation = report.rank - locked.rank;
  MatX locked_motions = MatX::Zero(model.nv, locked.null_space.cols());  // scaled coordinates
  // (No columns when the locked mechanism cannot move: then there is no row to copy, and a
  // row of an empty matrix would offset its null data pointer — undefined behaviour.)
  if (locked_motions.cols() > 0)
    for (std::size_t c = 0; c < passive.size(); ++c) locked_motions.row(passive[c]) = locked.null_space.row(c);

  // Idle freedoms: motions that move no joint point.
  const std::vector<MatX> twists = body_twist_jacobians(model, data);
  const MatX point_velocities =
      joint_point_velocities(model, data, twists, report.scale.length) * scaled.column_scale.asDiagonal();
  report.idle_freedoms = report.dof - rank_and_null_space(point_velocities * closure.null_space, tolerance).rank;
  report.locked_idle_freedoms =
      report.locked_mobility - rank_and_null_space(point_velocities * locked_motions, tolerance).rank;
  report.singular_actuation = report.locked_mobility > report.locked_idle_freedoms;

  // Moving bodies, and the named body's twists and constraint wrenches.
  for (int b = 0; b < model.num_bodies(); ++b) {
    const MatX body_twists = twists[b] * scaled.column_scale.asDiagonal();
    const ScrewSystem free_twists = body_twist_system(body_twists, closure.null_space, report.scale, tolerance);
    if (free_twists.rank() > 0) ++report.moving_bodies;
    if (options.body && *options.body == b) {
      BodyMotion motion;
      motion.body = b;
      motion.twists = free_twists.canonical_basis();
      motion.constraint_wrenches = free_twists.canonical_reciprocal_basis();
      motion.locked_twists = body_twist_system(body_twists, locked_motions, report.scale, tolerance).canonical_basis();
      report.body = motion;
    }
  }
  if (options.body) report.limbs = limb_constraints(model, data, *options.body, report.scale, tolerance);
  return report;
}

}  // namespace mechdyn
