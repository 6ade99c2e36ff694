// The cosine and sine of a joint angle taken one body ahead, for the written-out steps of
// the kinematics stage (forward_kinematics.cpp, one_axis_step.hpp) and the explicit inverse
// dynamics (dynamics/explicit_inverse_dynamics.cpp). Those loops call joint_cosine_sine for
// body l + 1 before body l's step: the libm call then runs beside body l's arithmetic
// instead of heading body l + 1's dependency chain, and nothing of the step is live across
// it. Which kinds take them is each kind's trait `caller_cosine_sine` (the revolute kinds,
// whatever the axis: the kinematics step builds Q = 1 + ñ sin φ + ñ²(1 − cos φ), EC eq. 3,
// from them; the explicit inverse dynamics reads them for RevoluteX/Y/Z, its general-axis
// revolute step takes its own), read once at compile time into a bit mask, so the test in
// the loop is one comparison (the revolute kinds come first) or one shift, and assumes no
// order of JointKind.
// Not installed.
#pragma once

#include <cmath>

#include "../model/joint_dispatch.hpp"
#include "mechdyn/math/sine_cosine.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// The kinds whose written-out steps take cos q₀ and sin q₀ from the caller.
inline constexpr unsigned kCallerCosineSineKinds =
    joint_kind_mask([](auto kind) { return decltype(kind)::caller_cosine_sine; });

/// Whether `kind` is in Mask (a joint_kind_mask of kinds that take cos, sin): one comparison
/// when those kinds come first in JointKind (the revolute kinds do; the same instruction as
/// the former `kind <= Revolute`), else a shift.
template <unsigned Mask>
constexpr bool takes_caller_cosine_sine(JointKind kind) {
  if constexpr ((Mask & (Mask + 1)) == 0) {  // bits 0 … m − 1
    int count = 0;
    for (unsigned m = Mask; m != 0; m >>= 1) ++count;
    return static_cast<int>(kind) < count;
  } else {
    return joint_kind_in(Mask, kind);
  }
}

/// cos φ and sin φ of body l's joint angle φ = q[q_index] when its kind is in Mask (default:
/// every kind with caller_cosine_sine; a caller whose steps read them for fewer kinds passes
/// a smaller mask, so that no angle is taken for nothing), else 1 and 0 (unread).
template <unsigned Mask = kCallerCosineSineKinds>
inline void joint_cosine_sine(const Model& model, int l, const double* q, double& cosine, double& sine) {
  static_assert((Mask & ~kCallerCosineSineKinds) == 0, "only kinds with caller_cosine_sine take cos, sin");
  cosine = 1.0;
  sine = 0.0;
  const Joint& joint = model.joints[static_cast<std::size_t>(l)];
  if (!takes_caller_cosine_sine<Mask>(joint.kind)) return;
  const double angle = q[joint.q_index];
  sine_cosine(angle, sine, cosine);
}

}  // namespace mechdyn
