// Mobility and constraint analysis of a model with loops at one configuration.
//
// Source: screw-kinematics-3UPS-UPU-S §2.2 (the platform's free twists are reciprocal to
// the limbs' constraint wrenches, eqs. 8, 12–14); momentum-screw-schoenflies §3.2 (the
// Schoenflies motion of 2UPS+2UPU); EC §2.3 eq. (24) (closure J v = 0). The numbers are
// exact at q (not a count), from the rank of the closure Jacobian J:
//   dof                    = nv − rank J                        (the free motions: null space N of J)
//   redundant constraints  = rows − rank J                      (dependent closure rows: an
//                            over-constrained mechanism; which rows, in row order)
//   Grübler–Kutzbach       M = 6 (n − j) + Σ f_i                (n bodies, j joints of the tree and
//                            the loops, f the freedoms; a cut joint has 6 − rows), so
//                            M = nv − rows and dof − M = redundant constraints exactly;
//   with the actuated joints locked (J_p = J restricted to the passive coordinates):
//   locked mobility        = n_p − rank J_p                     (motions the locked actuators allow)
//   redundant actuation    = rank J − rank J_p                  (independent internal-force patterns
//                            among the actuators: dim{τ_a : E τ_a + Jᵀλ = 0}; = actuated − dof
//                            when the actuators control the mechanism)
//   idle freedoms          = motions in which every moving body turns about a line through two
//                            or more of its joint points, so that no joint point moves (each
//                            tree-joint origin and cut point, seen as a point of each body it
//                            joins, stays at rest): e.g. the spin of an S–S link about the line
//                            through its ball centres. A body held at one joint point only (a
//                            leaf link) may not move in them: its spin is its joint's motion.
//   singular actuation     = the locked mechanism can still move other than by idle freedoms
// For a named body: a basis of its twists J_body N and of the constraint wrenches acting on it
// (their reciprocal system), and the twists it keeps with the actuators locked. The limbs
// between ground and that body and their constraint screws: mobility/limb_constraints.hpp.
// Every rank decision: singular values of a dimensionless matrix (mobility/
// scaled_closure_jacobian.hpp, screw/screw_system.hpp) above tolerance · max(σ_max, 1),
// tolerance = kScrewTolerance = 1e-9 by default (docs/parallel-manipulators.md).
// A diagnostic: allocates. Cost O(rows · nv² + n · nv²).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/mobility/limb_constraints.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/screw/screw_description.hpp"
#include "mechdyn/screw/screw_system.hpp"

namespace mechdyn {

struct MobilityOptions {
  double tolerance = kScrewTolerance;  // relative singular-value tolerance of every rank decision
  bool assemble = true;                // close the loops first (passive coordinates from q as a guess)
  AssemblyOptions assembly;            // Newton options (check_singular is ignored: singular poses are analysed)
  std::optional<int> body;             // body whose twists, constraint wrenches and limbs are reported
};

/// One closure row found to depend on the rows before it.
struct RedundantConstraint {
  int row = 0;       // row of the closure Jacobian
  int loop = 0;      // the cut joint (model.loops index), or loops.size() + c for coupling c (Model::constraint_name)
  int loop_row = 0;  // row within that cut joint (order of constraints/loop_closure.hpp)
  Wrench wrench;     // its unit constraint wrench on body a (f; m about the world origin)
};

struct BodyMotion {
  int body = 0;
  ScrewBasis twists;               // basis of the twists the body can have (canonical, screw_system.hpp)
  ScrewBasis constraint_wrenches;  // their reciprocal system: wrenches the joints can exert on it
  ScrewBasis locked_twists;        // twists it keeps with the actuated joints locked (empty if controlled)
};

struct MobilityReport {
  VecX q;                        // the configuration analysed (assembled when options.assemble)
  int assembly_iterations = 0;
  double closure_residual = 0.0;  // ‖Φ(q)‖∞ (m or rad)
  ScrewScale scale;              // characteristic point c and length L of the rank decisions
  double tolerance = kScrewTolerance;

  int bodies = 0;                // n: bodies other than ground
  int moving_bodies = 0;         // bodies whose twist space is not {0} at q
  int joints = 0;                // j: tree joints + cut joints
  int nv = 0;
  int constraint_rows = 0;
  int rank = 0;
  int dof = 0;                   // nv − rank
  int redundant_constraints = 0; // rows − rank
  std::vector<RedundantConstraint> redundant_rows;
  int gruebler_kutzbach = 0;     // 6 (n − j) + Σ f_i
  int idle_freedoms = 0;         // part of dof that moves no joint point (bodies spinning about lines through their joints)

  int actuated = 0;              // actuated velocity coordinates
  int locked_rank = 0;           // rank of J restricted to the passive coordinates
  int locked_mobility = 0;       // n_p − locked_rank
  int locked_idle_freedoms = 0;  // idle part of the locked mobility
  int redundant_actuation = 0;   // rank − locked_rank
  bool singular_actuation = false;  // locked_mobility > locked_idle_freedoms

  MatX motion_basis;             // nv × dof: joint velocities of the free motions (null space of J)
  VecX singular_values;          // of the dimensionless J', descending

  std::optional<BodyMotion> body;
  std::vector<LimbConstraints> limbs;  // with a body: the limbs from ground to it
};

/// Analyses the model at q (nq; passive coordinates are a guess when options.assemble).
/// Throws InvalidArgument for a q of the wrong size or not finite, an unknown body index, or
/// loops that cannot be closed from q (the assembly's reason in the message).
MobilityReport analyze_mobility(const Model& model, const Eigen::Ref<const VecX>& q,
                                const MobilityOptions& options = {});

}  // namespace mechdyn
