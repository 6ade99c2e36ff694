// Fixed-size types used throughout mechdyn.
//
// 3-vectors and 3x3 blocks are fixed-size Eigen types; spatial (6D) vectors are
// stored [angular; linear] for motions and [moment; force] for forces, both
// expressed in world (inertial, "i|") coordinates and referred to the world
// origin, as in Featherstone, "Rigid Body Dynamics Algorithms" (2008), §2.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

namespace mechdyn {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Quat = Eigen::Quaterniond;

/// A joint's motion axes: one spatial column per velocity coordinate, at most 6.
/// Fixed maximum size, so it never allocates.
using MotionAxes = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

template <typename T>
using AlignedVector = std::vector<T, Eigen::aligned_allocator<T>>;

}  // namespace mechdyn
