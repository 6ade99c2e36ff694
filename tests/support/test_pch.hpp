// The precompiled header of the test programs (tests/CMakeLists.txt, MECHDYN_TEST_PCH):
// the headers that most test files include and that cost most to parse (GoogleTest, Eigen,
// the model). Each test file still includes what it uses; with -DMECHDYN_TEST_PCH=OFF the
// suite builds without this file (docs/testing.md, "Build time").
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mechdyn/errors.hpp"
#include "mechdyn/io/model_file.hpp"
#include "mechdyn/kinematics/forward_kinematics.hpp"
#include "mechdyn/model/data.hpp"
#include "mechdyn/model/model.hpp"
