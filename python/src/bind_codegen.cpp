// Python binding of generated code (docs/codegen.md, docs/python.md):
//   mechdyn.codegen(model_or_path, out_dir, language="c", prefix=None, forward_dynamics="cheaper") -> dict
// calls the library's generate_code and write_generated_code, as `mechdyn codegen` does
// (apps/mechdyn/codegen_command.cpp): a path is read as the CLI reads it (the mechdyn YAML
// reader, load_model_file); a Model from any loader is generated as it is. Errors are the
// binding's exception types (ModelError for what codegen cannot express, InvalidArgument
// for a bad prefix, language, forward-dynamics form or an unwritable or foreign out_dir; nothing is half-written);
// the generator's notes (e.g. M singular at every q) become mechdyn.ModelWarning.
#include <string>

#include "common.hpp"
#include "mechdyn/codegen/codegen.hpp"
#include "mechdyn/io/model_file.hpp"

namespace mechdyn::python {

namespace {

CodegenLanguage language_named(const std::string& name) {
  if (name == "c") return CodegenLanguage::C;
  if (name == "cpp") return CodegenLanguage::Cpp;
  throw InvalidArgument("codegen: language '" + name + "': expected \"c\" or \"cpp\"");
}

/// The form of the generated forward dynamics, named as `mechdyn codegen --forward-dynamics`.
CodegenForwardDynamics form_named(const std::string& name) {
  if (name == "cheaper") return CodegenForwardDynamics::Cheaper;
  if (name == "factor") return CodegenForwardDynamics::Factor;
  if (name == "articulated") return CodegenForwardDynamics::Articulated;
  throw InvalidArgument("codegen: forward_dynamics '" + name + "': expected \"cheaper\", \"factor\" or \"articulated\"");
}

py::dict counts_dict(const GeneratedFunction& f) {
  py::dict d;
  d["name"] = f.name;
  d["multiplications"] = f.counts.multiplications;
  d["divisions"] = f.counts.divisions;
  d["additions"] = f.counts.additions;
  d["negations"] = f.counts.negations;
  d["sines"] = f.counts.sines;
  d["cosines"] = f.counts.cosines;
  d["square_roots"] = f.counts.square_roots;
  d["exponentials"] = f.counts.exponentials;
  d["hyperbolic_tangents"] = f.counts.hyperbolic_tangents;
  d["absolute_values"] = f.counts.absolute_values;
  d["selections"] = f.counts.selections;
  d["locals"] = f.counts.locals;
  return d;
}

}  // namespace

void bind_codegen(py::module_& m) {
  m.def("codegen", [](py::object model_or_path, py::object out_dir, const std::string& language, py::object prefix,
                      const std::string& forward_dynamics) {
    CodegenOptions options;
    options.language = language_named(language);
    options.forward_dynamics = form_named(forward_dynamics);
    if (!prefix.is_none()) options.prefix = py::cast<std::string>(prefix);
    const std::string directory = py::str(py::module_::import("os").attr("fspath")(out_dir));
    std::vector<std::string> warnings;
    GeneratedCode code;
    if (py::isinstance<py::str>(model_or_path) || py::hasattr(model_or_path, "__fspath__")) {
      const std::string path = py::str(py::module_::import("os").attr("fspath")(model_or_path));
      options.model_source = path;
      py::gil_scoped_release release;
      const Model model = load_model_file(path, &warnings);
      code = generate_code(model, options);
      write_generated_code(code, directory);
    } else {
      const Model& model = py::cast<const Model&>(model_or_path);
      py::gil_scoped_release release;
      code = generate_code(model, options);
      write_generated_code(code, directory);
    }
    py::object warn = py::module_::import("warnings").attr("warn");
    py::object category = py::module_::import("mechdyn._mechdyn").attr("ModelWarning");
    for (const std::string& w : warnings) warn(w, category, 2);
    for (const std::string& note : code.notes) warn(note, category, 2);
    py::dict result;
    result["directory"] = directory;
    result["prefix"] = code.prefix;
    py::list files, functions;
    for (const GeneratedFile& file : code.files) files.append(file.name);
    for (const GeneratedFunction& f : code.functions) functions.append(counts_dict(f));
    result["files"] = files;
    result["functions"] = functions;
    return result;
  }, py::arg("model"), py::arg("out_dir"), py::arg("language") = "c", py::arg("prefix") = py::none(),
     py::arg("forward_dynamics") = "cheaper",
     "Writes dependency-free C (language=\"c\") or C++ (\"cpp\") for one mechanism into out_dir, as "
     "`mechdyn codegen MODEL -o DIR` does: M(q), h(q, v), inverse and forward dynamics, joint reactions "
     "and, for a model with joint friction, inverse_dynamics_with_friction, "
     "the model's constants folded in (docs/codegen.md). forward_dynamics: \"cheaper\" (the form that prints "
     "fewer operations), \"factor\" (M, h, branch-sparse LtDL) or \"articulated\" (the articulated-body "
     "algorithm; joints of at most one coordinate). `model` is a Model or the path of a mechdyn YAML "
     "file. Returns {directory, prefix, files, functions: [{name, multiplications, additions, ...}]}.");
}

}  // namespace mechdyn::python
