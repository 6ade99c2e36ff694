// The run that `mechdyn view MODEL --mode K` plays (docs/viewer.md "Mode shapes"): the
// K-th undamped vibration mode of a rigid mechanism about its equilibrium, as a periodic
// trajectory
//
//   q(t) = q_eq ⊕ (A sin(2π f t) · ŝ),   ŝ = s / max_i |s_i|,
//
// with f and s the library's (analysis/mechanism_equilibrium.hpp, mechanism_modes: the
// K-th frequency in ascending order and its shape in the velocity coordinates, nv), ⊕ the
// joints' own increment (apply_velocity_increment: q + δ for revolute and prismatic
// coordinates, the exponential map for quaternions), and A the largest coordinate
// excursion (rad or m). Closed chains: the shape satisfies the closure only to first
// order, so each row is re-assembled (assemble_keeping) with the free independent and the
// held coordinates kept as the formula gives them and the dependent ones solved: the page
// shows closed loops (its ‖Φ‖∞ column), the dependent coordinates move by the formula up
// to O(A²). Velocity columns: the linearised v(t) = 2π f A cos(2π f t) · ŝ (they only
// orient the damping part of force-element arrows).
//
// The rows: `periods` periods of `rows_per_period` rows each (a multiple of 4, so the
// peaks ±A are rows) and the first row of the next period, at times in seconds of the
// mechanism's own time; the page plays one period in 2 s of wall time at 1× (data.js
// mode.wall_seconds_per_period). Flexible models are refused by `view` before this.
#pragma once

#include <string>
#include <vector>

#include "mechdyn/analysis/mechanism_equilibrium.hpp"
#include "run_csv.hpp"

namespace mechdyn::cli {

struct ModeAnimationOptions {
  int mode = 1;                    // K: 1 = the lowest nonzero frequency
  double amplitude = 0.0;          // A (rad or m, the unit of the largest coordinate); ≤ 0: default below
  int periods = 3;
  int rows_per_period = 100;       // a multiple of 4
  EquilibriumOptions equilibrium;  // locking, efforts, time (as `mechdyn modes`)
};

struct ModeAnimation {
  RunTable run;                    // t_s, q_…, v_…_per_s, modal_coordinate[_unit], closure_residual (loops)
  int number = 1;                  // K
  int count = 0;                   // nonzero modes available
  int zero_modes = 0;
  double frequency = 0.0;          // f (Hz)
  double period = 0.0;             // 1 / f (s)
  double amplitude = 0.0;          // A as used
  bool default_amplitude = true;   // A chosen here (0.2 rad, or 0.2 × the model's size in m)
  std::string coordinate;          // the coordinate with the largest |s_i| (velocity label)
  std::string unit;                // its unit: "rad" or "m"
  VecX shape;                      // ŝ (nv), max |ŝ_i| = 1, sign as the library gives it
  VecX q_equilibrium;              // q_eq (nq)
  std::vector<std::string> locked; // joints held
  bool damped_model = false;       // the model has damping (the animation is the undamped mode)
  bool reassembled = false;        // closed chain: rows re-assembled
  double max_closure_residual = 0.0;  // max over rows of ‖Φ‖∞ (m or rad; 0 for trees)
};

/// Computes the modes about the equilibrium that mechanism_modes finds from q_start and
/// builds the rows above. Throws UsageError (exit 2) when K is out of range or the model
/// has no nonzero mode (naming the count), SolverError (exit 3) when the equilibrium,
/// the eigenproblem or a row's assembly fails.
ModeAnimation mode_animation(const Model& model, const std::string& model_path, const Eigen::Ref<const VecX>& q_start,
                             const ModeAnimationOptions& options);

}  // namespace mechdyn::cli
