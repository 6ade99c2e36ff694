// Exception types of mechdyn. Every message names the element and the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace mechdyn {

/// Base of all mechdyn errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A model (file or built in code) that is malformed or physically invalid.
class ModelError : public Error {
 public:
  using Error::Error;
};

/// An argument of an algorithm that does not fit the model (wrong size, non-finite, ...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A numerical method that failed (singular matrix, integrator step-size underflow, ...).
class SolverError : public Error {
 public:
  using Error::Error;
};

}  // namespace mechdyn
