// CSV columns of force elements and couplings. See the header.
#include "force_element_columns.hpp"

namespace mechdyn::cli {

namespace {

std::string effort_unit(const Joint& joint) { return joint.type == JointType::Prismatic ? "N" : "N_m"; }

}  // namespace

void append_force_element_columns(const Model& model, std::vector<std::string>& columns) {
  for (const ForceElement& e : model.forces) {
    const std::string unit =
        is_joint_element(e.type) ? effort_unit(model.joints[static_cast<std::size_t>(e.joint)]) : std::string("N");
    columns.push_back("force_" + e.name + "_" + unit);
  }
  for (const Coupling& c : model.couplings)
    columns.push_back("coupling_" + c.name + "_" + effort_unit(model.joints[static_cast<std::size_t>(c.b)]));
}

}  // namespace mechdyn::cli
