// generated_functions (generated_models.hpp): the table of the generated C compiled into
// mechdyn_bench_peers. The list must match PEER_GENERATED_MODELS in bench/CMakeLists.txt.
#include "generated_models.hpp"

#include "branched_tree_30.h"
#include "five_axis_tree.h"
#include "panda_like_arm.h"
#include "serial_chain_10.h"
#include "serial_chain_20.h"
#include "serial_chain_5.h"
#include "serial_chain_50.h"

namespace mechdyn::bench {

const GeneratedFunctions* generated_functions(const std::string& name) {
  static const struct {
    const char* name;
    GeneratedFunctions functions;
  } table[] = {
      {"five_axis_tree", MECHDYN_GENERATED_FUNCTIONS(five_axis_tree)},
      {"panda_like_arm", MECHDYN_GENERATED_FUNCTIONS(panda_like_arm)},
      {"branched_tree_30", MECHDYN_GENERATED_FUNCTIONS(branched_tree_30)},
      {"serial_chain_5", MECHDYN_GENERATED_FUNCTIONS(serial_chain_5)},
      {"serial_chain_10", MECHDYN_GENERATED_FUNCTIONS(serial_chain_10)},
      {"serial_chain_20", MECHDYN_GENERATED_FUNCTIONS(serial_chain_20)},
      {"serial_chain_50", MECHDYN_GENERATED_FUNCTIONS(serial_chain_50)},
  };
  for (const auto& entry : table)
    if (name == entry.name) return &entry.functions;
  return nullptr;
}

}  // namespace mechdyn::bench
