// The time expressions live in the library (issue 25): mechdyn/math/time_expressions.hpp
// (src/math/time_expressions.cpp). This header only forwards to it, for the tool's
// files that include it by this name.
#pragma once

#include "mechdyn/math/time_expressions.hpp"
