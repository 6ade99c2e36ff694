// Screw algebra of mechdyn (docs/parallel-manipulators.md, "Screws"): every header of
// include/mechdyn/screw/ in one include.
//   twist_wrench.hpp     Twist (ω; v), Wrench (f; m), conversions to mechdyn's spatial
//                        vectors, reciprocal product
//   screw_transform.hpp  change of reference point and of frame (adjoint action)
//   lie_bracket.hpp      Lie bracket of twists and its dual on wrenches
//   screw_axis.hpp       pitch, axis and magnitude
//   screw_system.hpp     rank, span and reciprocal system of a set of screws
//   screw_description.hpp  a screw in words (reports)
#pragma once

#include "mechdyn/screw/lie_bracket.hpp"
#include "mechdyn/screw/screw_axis.hpp"
#include "mechdyn/screw/screw_description.hpp"
#include "mechdyn/screw/screw_system.hpp"
#include "mechdyn/screw/screw_transform.hpp"
#include "mechdyn/screw/twist_wrench.hpp"
