// The input checks every public function runs first (HOUSE-STYLE "Errors"): the Data was
// made for this Model, the vectors have the model's sizes and are finite, and a form that
// reads the kinematics stage finds it filled. Each throws InvalidArgument naming the
// function and the problem; each is O(1) or one pass over a vector, and allocates nothing
// on success.
#pragma once

#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Throws InvalidArgument unless `data` was made for a model of `model`'s shape (bodies,
/// nq, nv, loops, closure rows): a Data built from another Model would index out of range.
void check_data(const Model& model, const Data& data, const char* function);

/// Throws InvalidArgument unless q, v (and a) have the model's sizes and are finite.
/// `a_name` names the third vector in the message ("a", "tau").
void check_state(const Model& model, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>* v = nullptr,
                 const Eigen::Ref<const VecX>* a = nullptr, const char* a_name = "a");

/// Throws InvalidArgument unless `x` has `size` numbers, all finite; `name` names it.
void check_vector(const Eigen::Ref<const VecX>& x, Eigen::Index size, const char* name);

/// Throws InvalidArgument unless `data` holds the dense workspace `groups` (model/data.hpp,
/// DenseWorkspace) that `function` reads, a result of `run_first` (a Data made without the
/// group never held it): "<function>: data holds no <what> (run <run_first> first)".
/// A model with nv = 0 needs no dense workspace and always passes.
void check_holds(const Model& model, const Data& data, DenseWorkspace groups, const char* function, const char* what,
                 const char* run_first);

/// Throws InvalidArgument unless the kinematics stage in `data` reaches `level`
/// (Data::kinematics_level: 0 poses, 1 and velocities, 2 and accelerations).
void check_kinematics(const Data& data, int level, const char* function);

}  // namespace mechdyn
