// Private to src/dynamics: the cheap input checks shared by the recursive algorithms
// (rnea.cpp, crba.cpp, aba.cpp, energy.cpp). Not installed.
#pragma once

#include <string>

#include "mechdyn/errors.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn::detail {

/// Throws InvalidArgument unless `data` was allocated for a model of `model`'s sizes
/// (a Data built from another Model would index out of range). O(1), no allocation.
inline void check_data_fits(const Model& model, const Data& data, const char* algorithm) {
  const std::size_t bodies = static_cast<std::size_t>(model.num_bodies());
  const Eigen::Index nv = model.nv;
  if (data.rotation.size() != bodies || data.motion_axis.size() != static_cast<std::size_t>(nv) ||
      data.aba_d_inverse.size() != bodies || data.composite_force.size() != static_cast<std::size_t>(nv) ||
      data.tau.size() != nv || data.ddq.size() != nv || data.aba_u.size() != nv)
    throw InvalidArgument(std::string(algorithm) + ": data was not built for model '" + model.name + "' (" +
                          std::to_string(bodies) + " bodies, nv = " + std::to_string(nv) + ")");
}

}  // namespace mechdyn::detail
