// Simbody peer (see simbody_peer.hpp).
#include "simbody_peer.hpp"

#include <Simbody.h>

#include <stdexcept>
#include <vector>

namespace mechdyn::bench {

namespace {

SimTK::Vec3 to_simtk(const Vec3& v) { return SimTK::Vec3(v.x(), v.y(), v.z()); }

// Inertia about the body origin: J_c + m (|c|² 1 − c cᵀ) (parallel axis).
SimTK::Inertia inertia_about_origin(const Body& body) {
  const Vec3& c = body.com;
  const Mat3 j = body.inertia + body.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return SimTK::Inertia(SimTK::Mat33(j(0, 0), j(0, 1), j(0, 2), j(1, 0), j(1, 1), j(1, 2), j(2, 0), j(2, 1), j(2, 2)));
}

}  // namespace

struct SimbodyPeer::Impl {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::State state;
  SimTK::Vector q, u, udot, applied, residual;
  SimTK::Matrix mass;
  SimTK::Vector_<SimTK::SpatialVec> body_acceleration;

  void set_state(const VecX& q_in, const VecX* v_in) {
    for (int k = 0; k < q.size(); ++k) q[k] = q_in[k];
    state.updQ() = q;
    if (v_in != nullptr) {
      for (int k = 0; k < u.size(); ++k) u[k] = (*v_in)[k];
      state.updU() = u;
    }
  }
};

bool SimbodyPeer::supports(const Model& model) {
  if (!model.loops.empty()) return false;
  for (const Joint& joint : model.joints)
    if (joint.type != JointType::Revolute && joint.type != JointType::Prismatic && joint.type != JointType::Fixed)
      return false;
  return true;
}

SimbodyPeer::SimbodyPeer(const Model& model) : impl_(std::make_unique<Impl>()) {
  if (!supports(model)) throw std::invalid_argument("simbody: model '" + model.name + "' has joints it cannot take");
  Impl& s = *impl_;
  SimTK::Force::UniformGravity(s.forces, s.matter, to_simtk(model.gravity));
  std::vector<SimTK::MobilizedBody> mobilized;
  for (int l = 0; l < model.num_bodies(); ++l) {
    const Body& body = model.bodies[l];
    const Joint& joint = model.joints[l];
    SimTK::MobilizedBody& parent =
        body.parent == kGround ? s.matter.updGround() : mobilized[static_cast<std::size_t>(body.parent)];
    const SimTK::Body::Rigid rigid(SimTK::MassProperties(body.mass, to_simtk(body.com), inertia_about_origin(body)));
    const SimTK::UnitVec3 axis(to_simtk(joint.axis));
    switch (joint.type) {
      case JointType::Revolute: {  // Pin turns about z of F and M
        const SimTK::Rotation frame(axis, SimTK::ZAxis);
        mobilized.push_back(SimTK::MobilizedBody::Pin(parent, SimTK::Transform(frame, to_simtk(joint.origin)), rigid,
                                                      SimTK::Transform(frame, SimTK::Vec3(0))));
        break;
      }
      case JointType::Prismatic: {  // Slider translates along x of F and M
        const SimTK::Rotation frame(axis, SimTK::XAxis);
        mobilized.push_back(SimTK::MobilizedBody::Slider(parent, SimTK::Transform(frame, to_simtk(joint.origin)),
                                                         rigid, SimTK::Transform(frame, SimTK::Vec3(0))));
        break;
      }
      default:
        mobilized.push_back(SimTK::MobilizedBody::Weld(parent, SimTK::Transform(to_simtk(joint.origin)), rigid,
                                                       SimTK::Transform()));
        break;
    }
  }
  s.system.realizeTopology();
  s.state = s.system.getDefaultState();
  s.q.resize(s.state.getNQ());
  s.u.resize(s.state.getNU());
  s.udot.resize(s.state.getNU());
  s.applied.resize(s.state.getNU());
  s.residual.resize(s.state.getNU());
  if (s.state.getNQ() != model.nq || s.state.getNU() != model.nv)
    throw std::logic_error("simbody: coordinate counts differ from mechdyn's");
}

SimbodyPeer::~SimbodyPeer() = default;

void SimbodyPeer::mass_matrix(const VecX& q, MatX& mass_matrix) {
  Impl& s = *impl_;
  s.set_state(q, nullptr);
  s.system.realize(s.state, SimTK::Stage::Position);
  s.matter.calcM(s.state, s.mass);
  for (int i = 0; i < s.mass.nrow(); ++i)
    for (int j = 0; j < s.mass.ncol(); ++j) mass_matrix(i, j) = s.mass(i, j);
}

void SimbodyPeer::inverse_dynamics(const VecX& q, const VecX& v, const VecX& a, VecX& tau) {
  Impl& s = *impl_;
  s.set_state(q, &v);
  s.system.realize(s.state, SimTK::Stage::Dynamics);  // gravity as applied body forces
  for (int k = 0; k < s.udot.size(); ++k) s.udot[k] = a[k];
  // residual = M udot + C − applied (gravity): the τ that produces udot.
  s.matter.calcResidualForceIgnoringConstraints(s.state, s.system.getMobilityForces(s.state, SimTK::Stage::Dynamics),
                                                s.system.getRigidBodyForces(s.state, SimTK::Stage::Dynamics), s.udot,
                                                s.residual);
  for (int k = 0; k < s.residual.size(); ++k) tau[k] = s.residual[k];
}

void SimbodyPeer::bias_force(const VecX& q, const VecX& v, VecX& bias) {
  Impl& s = *impl_;
  s.set_state(q, &v);
  s.system.realize(s.state, SimTK::Stage::Dynamics);
  s.udot = 0.0;
  s.matter.calcResidualForceIgnoringConstraints(s.state, s.system.getMobilityForces(s.state, SimTK::Stage::Dynamics),
                                                s.system.getRigidBodyForces(s.state, SimTK::Stage::Dynamics), s.udot,
                                                s.residual);
  for (int k = 0; k < s.residual.size(); ++k) bias[k] = s.residual[k];
}

void SimbodyPeer::forward_dynamics(const VecX& q, const VecX& v, const VecX& tau, VecX& ddq) {
  Impl& s = *impl_;
  s.set_state(q, &v);
  s.system.realize(s.state, SimTK::Stage::Dynamics);
  s.applied = s.system.getMobilityForces(s.state, SimTK::Stage::Dynamics);
  for (int k = 0; k < s.applied.size(); ++k) s.applied[k] += tau[k];
  s.matter.calcAcceleration(s.state, s.applied, s.system.getRigidBodyForces(s.state, SimTK::Stage::Dynamics), s.udot,
                            s.body_acceleration);
  for (int k = 0; k < s.udot.size(); ++k) ddq[k] = s.udot[k];
}

}  // namespace mechdyn::bench
