// MJCF (MuJoCo's XML model format) in and out (docs/robot-files.md).
//
// Writing (mjcf_writer.cpp). Natural frames map one to one onto MuJoCo bodies: every
// mechdyn body frame is parallel to its parent's at q = 0, so a MuJoCo <body> gets
// pos = joint origin r^{l̄}_{l0} and no orientation, its joint the axis-invariant n^{l̄}_l
// (the same vector in both frames at q = 0) through the body origin. Joints: revolute →
// hinge, prismatic → slide, fixed → none, spherical → ball, universal → two hinges in one
// body (MuJoCo turns a body's later joint axes with its earlier joints: the universal's
// "second axis carried by the first"), free → freejoint (a root body only: MuJoCo 2.2.2
// allows free joints in top-level bodies only). The coordinates are mechdyn's one for
// one except free and ball joints' velocities, which MuJoCo takes in the body's own frame
// (and a free joint's position, which is the world position, origin + q). The inertia is
// written as principal moments (diaginertia) and the quaternion of the principal axes:
// MuJoCo 2.2.2 converts fullinertia through an eigen-solver accurate to about 1e-8, the
// principal form to round-off. Contacts are disabled; no geoms. Force elements, couplings
// and armature as joint attributes, <equality><joint>, spatial tendons and <position>
// actuators (docs/robot-files.md "Writing"; read_mjcf reads them back).
//
// Loops (cut joints) become equality constraints, made as hard as MuJoCo 2.2.2 allows
// (solimp 0.9999, the largest impedance it accepts; solref time constant 2 × timestep,
// the smallest `refsafe` keeps; Newton solver, tolerance 1e-12):
//   spherical        one <connect> at the cut point (3 rows = mechdyn's 3);
//   revolute         two connects, at the cut point and one axis length ℓ along the
//                    axis (6 rows of rank 5 = mechdyn's 5);
//   planar-revolute  one connect, when both sides move in planes normal to the loop axis
//                    (the axial row is then constant and is met by shifting the second
//                    anchor by the constant axial offset of the cut points);
//   fixed            one <weld> with relpose = the q = 0 relative pose (natural frames:
//                    identity rotation, offset a.point − b.point);
//   prismatic, universal, and a spatial planar-revolute: refused (MuJoCo 2.2.2 has no
//                    equality constraint for them), naming the loop.
// MuJoCo 2.2.2's compiler places a connect's second anchor where the first one is in the
// configuration the file describes, so a loop whose cut points do not meet at q = 0 needs
// the model written posed at an assembled configuration q*: MjcfOptions::reference_
// configuration writes every body at q* with each joint's ref = q* (then MuJoCo's qpos is
// mechdyn's q: MuJoCo measures a hinge or slide from its ref). Hinge, slide and fixed
// joints only. A caller that sets both anchors itself (the benchmarks copy them into
// eq_data after loading) may instead pass loops_set_by_caller.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// One <equality><connect> written for a loop.
struct MjcfConnect {
  std::string name;   // the equality's name in the MJCF: the loop's name, "/2" added for a revolute cut's second
  int loop = 0;       // index into model.loops
  int body1 = 0;      // mechdyn body of MuJoCo's body1 (never ground)
  int body2 = 0;      // mechdyn body of MuJoCo's body2; kGround: the world
  Vec3 anchor1;       // the point in body1's frame (eq_data[0..2])
  Vec3 anchor2;       // the point in body2's frame (eq_data[3..5]); world frame when body2 is ground
};

struct MjcfOptions {
  /// Write the bodies posed at this configuration (size nq, hinge/slide/fixed joints only)
  /// with joint ref = its coordinates, so that loops closed there compile right.
  std::optional<VecX> reference_configuration;
  /// The caller copies both connect anchors (mjcf_connects) into eq_data after loading:
  /// the loops need not be closed in the written configuration.
  bool loops_set_by_caller = false;
};

/// The MJCF document of `model`. Throws ModelError naming the joint or loop MuJoCo
/// cannot express, or a loop not closed in the written configuration (see above).
std::string write_mjcf(const Model& model, const MjcfOptions& options = {},
                       std::vector<std::string>* warnings = nullptr);

/// The connects that write_mjcf writes for model.loops, in writing order (welds are not
/// listed: their relpose is written explicitly). Throws ModelError like write_mjcf.
std::vector<MjcfConnect> mjcf_connects(const Model& model);

/// True when write_mjcf can write the model's joints and loops.
bool mjcf_supports(const Model& model);

/// Reads MJCF text (docs/robot-files.md "MJCF": bodies, hinge/slide/ball/free joints,
/// explicit or geom-derived inertias by MuJoCo's rules, defaults and childclass, the
/// compiler's angle/eulerseq/inertiafromgeom/boundmass/boundinertia/balanceinertia/
/// settotalmass, <include>, <equality> connect and weld as loops, sites as markers; format
/// 3: joint springs, dampers, armature, direct-solreflimit stops, <equality><joint> gears,
/// two-site spatial tendons and <position> servos, docs/robot-files.md "Force elements").
/// `base_directory` resolves <include file>; empty: includes are refused.
Model read_mjcf(const std::string& text, const std::string& source, const std::string& base_directory = "",
                const ImportOptions& options = {}, std::vector<std::string>* warnings = nullptr);

/// Reads the MJCF file at `path` (whatever its extension); includes resolve against its
/// directory. Throws ModelError "<path>: <element>: <problem> (line N)".
Model load_mjcf(const std::string& path, const ImportOptions& options = {},
                std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
