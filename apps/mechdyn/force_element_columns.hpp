// The CSV columns of force elements and couplings in `mechdyn simulate` (force-elements.md
// "What other programs read"): one per element with its scalar, force_<name>_ + unit
// (a spring-damper's tension N, a joint element's effort N_m or N, a bushing's or an
// applied load's force magnitude N), one per coupling with its effort λ,
// coupling_<name>_ + unit (of joint b's coordinate).
#pragma once

#include <string>
#include <vector>

#include "mechdyn/model/data.hpp"

namespace mechdyn::cli {

/// Appends the column names (elements in model order, then couplings).
void append_force_element_columns(const Model& model, std::vector<std::string>& columns);

/// Appends the values from a Data on which force_elements ran at the row's state (and,
/// with couplings, the constrained dynamics left λ in data.loop_multiplier) via `add`.
template <class Add>
void add_force_element_values(const Model& model, const Data& data, Add&& add) {
  for (Eigen::Index e = 0; e < static_cast<Eigen::Index>(model.forces.size()); ++e) add(data.element_value[e]);
  for (std::size_t c = 0; c < model.couplings.size(); ++c)
    add(data.loop_multiplier[model.coupling_row_index + static_cast<Eigen::Index>(c)]);
}

}  // namespace mechdyn::cli
