// The checks every batch function runs before any state is evaluated (evaluation/batch.hpp):
// the workspace fits the model, inputs and outputs have their shapes, inputs are finite.
// Each throws InvalidArgument with one line naming the function, the argument and, for a
// non-finite number, the state. No allocation on success.
#pragma once

#include "mechdyn/evaluation/batch.hpp"

namespace mechdyn::batch_detail {

/// The workspace was made for a model of `model`'s shape (its Data and DerivativeData).
void check_workspace(const Model& model, BatchWorkspace& workspace, const char* function);

/// `matrix` is rows × states and finite; `name` names it ("q", "v", "tau", …).
void check_input(const Eigen::Ref<const MatX>& matrix, Eigen::Index rows, Eigen::Index states, const char* name,
                 const char* function);

/// `matrix` (an output) is rows × columns.
void check_output(const Eigen::Ref<const MatX>& matrix, Eigen::Index rows, Eigen::Index columns, const char* name,
                  const char* function);

}  // namespace mechdyn::batch_detail
