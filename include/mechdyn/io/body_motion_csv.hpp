// Reader of the prescribed-motion CSV of ../shared/spec/parallel-manipulators.md:
//   t,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,ax,ay,az,alx,aly,alz
// one row per time, times strictly increasing; world coordinates, SI units. The header must
// name all twenty columns (any order; further columns are ignored, a column named twice is
// refused). Every problem throws InvalidArgument with one line naming the source, the
// line (and time) and the problem: a missing column, a row with the wrong number of
// cells, a cell that is not a number or not finite, a quaternion whose norm differs from
// 1 by more than 1e-6, times not strictly increasing, no data row.
// Numbers are read with std::from_chars (exact round trip of any decimal).
#pragma once

#include <string>
#include <vector>

#include "mechdyn/parallel/body_motion.hpp"

namespace mechdyn {

/// The columns of the contract, in the contract's order.
const std::vector<std::string>& body_motion_csv_columns();

/// Parses CSV text; `source` (e.g. the file name) begins every message.
std::vector<BodyMotionSample> parse_body_motion_csv(const std::string& text, const std::string& source);

/// Reads a file (InvalidArgument when it cannot be opened).
std::vector<BodyMotionSample> read_body_motion_csv(const std::string& path);

/// Writes samples in the contract's form (17 significant digits), for tests and scripts.
std::string write_body_motion_csv(const std::vector<BodyMotionSample>& samples);

}  // namespace mechdyn
