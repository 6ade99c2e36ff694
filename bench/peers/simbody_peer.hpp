// Simbody (simtk.org) built through its API from a mechdyn Model, for the peer
// benchmark (bench/bench_peers.cpp). Kept behind a small interface so that only
// simbody_peer.cpp includes Simbody's headers.
//
// Each body becomes a MobilizedBody: revolute → Pin (which turns about its frames' z,
// so the F frame on the parent and the M frame on the body are the joint origin with
// a rotation taking z onto the axis-invariant n), prismatic → Slider (along x, rotated
// the same way), fixed → Weld. Mass properties are about the body origin. Gravity is
// Force::UniformGravity. Other joint types and loops are not built (supports()).
#pragma once

#include <memory>

#include "mechdyn/model/model.hpp"

namespace mechdyn::bench {

class SimbodyPeer {
 public:
  /// True when the model has only revolute, prismatic and fixed joints and no loops.
  static bool supports(const Model& model);

  explicit SimbodyPeer(const Model& model);
  ~SimbodyPeer();
  SimbodyPeer(const SimbodyPeer&) = delete;
  SimbodyPeer& operator=(const SimbodyPeer&) = delete;

  /// M(q): setQ, realize(Position), calcM.
  void mass_matrix(const VecX& q, MatX& mass_matrix);
  /// h(q, v): setQ, setU, realize(Dynamics), calcResidualForceIgnoringConstraints(udot = 0).
  void bias_force(const VecX& q, const VecX& v, VecX& bias);
  /// M a + h: as bias_force with udot = a.
  void inverse_dynamics(const VecX& q, const VecX& v, const VecX& a, VecX& tau);
  /// q̈: setQ, setU, realize(Dynamics), calcAcceleration(τ + gravity).
  void forward_dynamics(const VecX& q, const VecX& v, const VecX& tau, VecX& ddq);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mechdyn::bench
