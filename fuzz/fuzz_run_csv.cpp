// Fuzz target: the run CSV reader of `mechdyn view` (apps/mechdyn/run_csv.cpp) and its
// match against a model (the five-axis tree, built in code: nq = 5).
// Contract: either a table whose every row has as many finite numbers as the header has
// columns, t_s first and non-decreasing, and — when it matches the model — one column per
// coordinate; or UsageError (status 2). Never a crash, a hang or another exception.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "common.hpp"
#include "mechdyn/model/model.hpp"
#include "run_csv.hpp"

namespace {

mechdyn::Model five_joint_chain() {
  mechdyn::Model model;
  model.name = "chain";
  for (int i = 0; i < 5; ++i) {
    mechdyn::Body body;
    body.name = "L" + std::to_string(i + 1);
    body.parent = i - 1;
    body.mass = 1.0;
    body.inertia = mechdyn::Mat3::Identity() * 0.01;
    mechdyn::Joint joint;
    joint.name = "J" + std::to_string(i + 1);
    joint.type = mechdyn::JointType::Revolute;
    joint.origin = mechdyn::Vec3(0.1, 0.0, 0.0);
    model.bodies.push_back(body);
    model.joints.push_back(joint);
  }
  mechdyn::finalize_model(model, "fuzz");
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mechdyn::Model model = five_joint_chain();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const mechdyn::cli::RunTable run = mechdyn::cli::read_run_csv(in, "fuzz.csv");
    if (run.rows == 0 || run.columns.empty() || run.columns[0] != "t_s") std::abort();
    if (run.values.size() != run.rows * run.columns.size()) std::abort();
    for (std::size_t r = 0; r < run.rows; ++r) {
      if (r > 0 && run.at(r, 0) < run.at(r - 1, 0)) std::abort();
      for (std::size_t c = 0; c < run.columns.size(); ++c)
        if (!std::isfinite(run.at(r, c))) std::abort();
    }
    const auto columns = mechdyn::cli::configuration_columns(model, run, "fuzz.csv", "chain");
    if (static_cast<int>(columns.size()) != model.nq) std::abort();
    for (std::size_t c : columns)
      if (c >= run.columns.size()) std::abort();
  } catch (const mechdyn::cli::UsageError&) {
  }
  return 0;
}
