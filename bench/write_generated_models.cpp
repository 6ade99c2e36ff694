// Writes the code `mechdyn codegen` generates for the peer benchmark's models
// (bench_models.hpp) at benchmark build time: `mechdyn_bench_write_generated DIR NAME...`
// writes DIR/NAME/NAME.{c,h} (with the library's write_generated_code, the same call as
// the CLI) for each named model, prefix = the model's name. bench/CMakeLists.txt
// compiles the C into mechdyn_bench_peers (bench/generated_models.cpp binds it).
// The models are built in code, so they have no file the CLI could read; that is why
// this is a program and not a `mechdyn codegen` call.
#include <cstdio>
#include <exception>
#include <string>

#include "bench_models.hpp"
#include "mechdyn/codegen/codegen.hpp"

int main(int argc, char** argv) {
  using namespace mechdyn;
  if (argc < 3) {
    std::fprintf(stderr, "usage: mechdyn_bench_write_generated DIR MODEL...\n");
    return 2;
  }
  try {
    for (int k = 2; k < argc; ++k) {
      const std::string name = argv[k];
      const Model model = bench::model_by_name(name);
      CodegenOptions options;
      options.prefix = name;
      options.model_source = "bench/bench_models.cpp (" + name + ")";
      write_generated_code(generate_code(model, options), std::string(argv[1]) + "/" + name);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mechdyn_bench_write_generated: %s\n", error.what());
    return 1;
  }
  return 0;
}
