// The rigid counterpart of a mechanism with flexible bodies (flexible/assembly.hpp):
// each beam's undeformed inertia from its FFR invariants (flexible/flexible_body.hpp),
//   m = m_beam + m_r,  m c = S_t + m_r c_r,
//   I_O = tr(I_t) 1 − I_t + J_r + [J_c + m_r (|c_r|² 1 − c_r c_rᵀ)]   (about the frame origin)
//   I_c = I_O − m (|c|² 1 − c cᵀ)                                       (about the centre of mass)
// (I_t = ∫ρA x̄₀x̄₀ᵀ ds, J_r = ∫ J_s ds: the FFR mass matrix's M_ωω at e = 0, so the rigid
// body has exactly the flexible one's inertia at e = 0: tested against flexible_mass_matrix).
// Cost: one make_flexible_body per beam. Allocates (builds a Model).
#include "mechdyn/flexible/assembly.hpp"

namespace mechdyn {

Model rigid_equivalent(const Model& model) {
  Model out = model;
  for (Body& body : out.bodies) {
    if (!body.flexible) continue;
    const FlexibleBody flexible = make_flexible_body(body);
    const Mat3 one = Mat3::Identity();
    const double mass = flexible.total_mass();
    const Vec3 moment = flexible.first_moment + flexible.rigid_mass * flexible.rigid_com;
    const Vec3& cr = flexible.rigid_com;
    const Mat3 origin_inertia = flexible.second_moment.trace() * one - flexible.second_moment +
                                flexible.rotary_inertia + flexible.rigid_inertia +
                                flexible.rigid_mass * (cr.squaredNorm() * one - cr * cr.transpose());
    const Vec3 com = moment / mass;
    body.mass = mass;
    body.com = com;
    body.inertia = origin_inertia - mass * (com.squaredNorm() * one - com * com.transpose());
    body.inertia = 0.5 * (body.inertia + body.inertia.transpose()).eval();
    body.flexible.reset();
  }
  if (out.initial_configuration.size() == model.nq && model.nq > model.rigid_nq)
    out.initial_configuration = model.initial_configuration.head(model.rigid_nq).eval();  // the joints' part
  finalize_model(out, model.name + " (rigid equivalent)");
  return out;
}

}  // namespace mechdyn
