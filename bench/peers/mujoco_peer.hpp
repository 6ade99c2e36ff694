// A mechdyn Model loaded into MuJoCo 2.2.2 (Debian libmujoco-dev) through the MJCF of
// the library's MJCF writer (mechdyn/io/mjcf.hpp): the compiled mjModel, one mjData, and the map from mechdyn's
// velocity coordinates to MuJoCo's dofs. Shared by bench/bench_peers.cpp (trees) and
// bench/bench_closed_chains.cpp (loops as equality constraints).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

/// MuJoCo model and data, freed with the peer.
struct MujocoPeer {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  std::vector<int> dof;  // dof[i]: MuJoCo's index of mechdyn velocity coordinate i (nq = nv: revolute/prismatic)
  MujocoPeer() = default;
  MujocoPeer(const MujocoPeer&) = delete;
  MujocoPeer& operator=(const MujocoPeer&) = delete;
  ~MujocoPeer();
};

/// Writes the MJCF of `model`, compiles it with mj_loadXML, sets the connect anchors
/// of its loops in eq_data (mechdyn/io/mjcf.hpp: MuJoCo's compiler places the second anchor at
/// qpos0) and builds the dof map. Throws std::runtime_error when MuJoCo rejects the
/// model or its coordinates do not match mechdyn's, mechdyn::ModelError when the
/// MJCF writer cannot express it.
std::unique_ptr<MujocoPeer> load_mujoco(const Model& model);

/// x (mechdyn's velocity order) in MuJoCo's dof order, and back.
VecX to_mujoco(const VecX& x, const std::vector<int>& dof);
VecX from_mujoco(const mjtNum* x, const std::vector<int>& dof);

}  // namespace mechdyn::bench
