// The checks every batch function runs before any state is evaluated (evaluation/batch.hpp):
// the workspace fits the model, inputs and outputs have their shapes, inputs are finite.
// Each throws InvalidArgument with one line naming the function, the argument and, for a
// non-finite number, the state. No allocation on success. And the copy of one state's
// matrix into its block of an output.
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

/// Copies the n × n matrix `value` into block k (columns k n … k n + n − 1) of `out`: one
/// linear copy when the columns are contiguous (a block of a Ref with a run-time outer
/// stride is copied column by column, measured ~230 instructions more per 7 × 7 block).
inline void store_block(Eigen::Ref<MatX>& out, Eigen::Index k, const MatX& value) {
  const Eigen::Index n = value.rows();
  if (out.outerStride() == n)
    Eigen::Map<VecX>(out.data() + k * n * n, n * n) = Eigen::Map<const VecX>(value.data(), n * n);
  else
    out.middleCols(k * n, n) = value;
}

}  // namespace mechdyn::batch_detail
