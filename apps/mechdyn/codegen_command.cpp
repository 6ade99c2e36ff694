// mechdyn codegen MODEL -o DIR [--language c|cpp] [--prefix NAME]
//                [--forward-dynamics cheaper|factor|articulated]: writes dependency-free
// C99 (or C++) for one mechanism — M, h, inverse and forward dynamics, joint reactions,
// and for a model with joint friction the inverse dynamics with friction — with its
// constants folded in (docs/codegen.md; the library's codegen/codegen.hpp).
// Everything is generated in memory and checked first, then written into DIR.partial-PID
// and renamed onto DIR: a model it cannot express or an unwritable DIR gives one line,
// exit status 2, and nothing written.
#include <iostream>
#include <memory>
#include <ostream>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "mechdyn/codegen/codegen.hpp"

namespace mechdyn::cli {

namespace {

struct CodegenFlags {
  std::string model_path, output, language = "c", prefix, forward_dynamics = "cheaper";
};

void run_codegen(const CodegenFlags& flags, std::ostream& out) {
  const Model model = load_model(flags.model_path);
  CodegenOptions options;
  if (flags.language == "c")
    options.language = CodegenLanguage::C;
  else if (flags.language == "cpp")
    options.language = CodegenLanguage::Cpp;
  else
    throw UsageError("--language '" + flags.language + "': expected c or cpp");
  if (flags.forward_dynamics == "cheaper")
    options.forward_dynamics = CodegenForwardDynamics::Cheaper;
  else if (flags.forward_dynamics == "factor")
    options.forward_dynamics = CodegenForwardDynamics::Factor;
  else if (flags.forward_dynamics == "articulated")
    options.forward_dynamics = CodegenForwardDynamics::Articulated;
  else
    throw UsageError("--forward-dynamics '" + flags.forward_dynamics + "': expected cheaper, factor or articulated");
  options.prefix = flags.prefix;
  options.model_source = flags.model_path;
  const GeneratedCode code = generate_code(model, options);
  write_generated_code(code, flags.output);
  for (const std::string& note : code.notes) std::cerr << "mechdyn: warning: " << flags.model_path << ": " << note << "\n";
  out << "wrote " << flags.output << ":";
  for (const GeneratedFile& file : code.files) out << " " << file.name;
  out << "\n";
  for (const GeneratedFunction& f : code.functions)
    out << "  " << f.name << ": " << f.counts.multiplications << " mul, " << f.counts.divisions << " div, "
        << f.counts.additions << " add, " << f.counts.sines << " sin, " << f.counts.cosines << " cos"
        << (f.counts.square_roots ? ", " + std::to_string(f.counts.square_roots) + " sqrt" : "")
        << (f.counts.exponentials ? ", " + std::to_string(f.counts.exponentials) + " exp" : "")
        << (f.counts.hyperbolic_tangents ? ", " + std::to_string(f.counts.hyperbolic_tangents) + " tanh" : "") << "\n";
}

}  // namespace

void add_codegen_command(CLI::App& app, CommandRunner& selected) {
  auto f = std::make_shared<CodegenFlags>();
  CLI::App* sub = app.add_subcommand(
      "codegen", "Write C (or C++) for one mechanism: M, h, inverse/forward dynamics, reactions; inverse dynamics with the "
      "model's joint friction (docs/codegen.md).");
  sub->add_option("MODEL", f->model_path, "model file (or URDF, SDFormat, MJCF); a tree of rigid bodies")->required();
  sub->add_option("-o,--output", f->output, "the directory to write (header, source, CMakeLists.txt, README.md)")
      ->required();
  sub->add_option("--language", f->language, "c (C99, default) or cpp (C++11)");
  sub->add_option("--prefix", f->prefix, "C identifier for file and function names (default: the model's name)");
  sub->add_option("--forward-dynamics", f->forward_dynamics,
                  "form of the generated forward dynamics: cheaper (default: whichever prints fewer operations), "
                  "factor (M, h, branch-sparse LtDL; any joint) or articulated (the articulated-body algorithm; "
                  "joints of at most one coordinate)");
  sub->footer(
      "Examples:\n"
      "  mechdyn codegen examples/models/five_axis_tree.yaml -o five_axis_code\n"
      "  mechdyn codegen examples/models/panda_7dof.yaml -o panda_code --language cpp --prefix panda\n"
      "  mechdyn codegen examples/models/panda_7dof.yaml -o panda_aba --forward-dynamics articulated\n"
      "Format 3: armature, spring-damper and joint-spring-damper elements are generated; refused with exit status 2\n"
      "and nothing written: flexible bodies, loops, couplings, joint-stop, joint-servo, bushing and applied elements,\n"
      "an unwritable DIR.");
  sub->callback([f, &selected] { selected = [f](std::ostream& out) { run_codegen(*f, out); }; });
}

}  // namespace mechdyn::cli
