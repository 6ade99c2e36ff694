// mechdyn sweep: runs every sample of a sweep spec (the library's io/sweep_spec.hpp and
// evaluation/sweep.hpp, docs/cli.md) on the library's thread pool (evaluation/thread_pool.hpp;
// each thread takes the next sample when it finishes one: load balancing) and writes one CSV row per sample in sample order. A failing
// sample is a row with status "error" and its message; the exit status is then still 0
// (the summary on stderr counts them). A broken spec: exit status 2, nothing written.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "csv_output.hpp"
#include "mechdyn/evaluation/sweep.hpp"
#include "mechdyn/evaluation/thread_pool.hpp"
#include "mechdyn/io/sweep_spec.hpp"
#include "progress.hpp"

namespace mechdyn::cli {

namespace {

struct SweepFlags {
  std::string spec_path, output;
  int threads = 0;
};

void run_sweep(const SweepFlags& f, std::ostream& standard_output) {
  // The model reader's warnings, one line each, also when the spec is refused after them.
  std::vector<std::string> warnings;
  auto print_warnings = [&warnings] {
    for (const std::string& w : warnings) std::cerr << "mechdyn: warning: " << w << "\n";
  };
  SweepSpec spec;
  try {
    spec = read_sweep_spec(read_text_file(f.spec_path), f.spec_path, &warnings);
  } catch (...) {
    print_warnings();
    throw;
  }
  print_warnings();
  if (f.threads < 0) throw UsageError("--threads must be ≥ 0 (0: one per core)");
  const int total = static_cast<int>(spec.samples.size());
  int threads = f.threads > 0 ? f.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::max(1, std::min(threads, total));

  std::vector<SweepRow> rows(static_cast<std::size_t>(total));
  std::atomic<int> next{0}, done{0};
  std::mutex progress_mutex;
  ProgressBar progress;
  auto worker = [&] {
    for (int i = next++; i < total; i = next++) {
      rows[static_cast<std::size_t>(i)] = run_sweep_sample(spec, i);
      const int finished = ++done;
      std::lock_guard<std::mutex> lock(progress_mutex);
      progress.update(static_cast<double>(finished) / total);
    }
  };
  // One chunk per thread, each running `worker` (which hands out the samples itself).
  ThreadPool pool(threads);
  pool.parallel_for(threads, [&](std::ptrdiff_t, std::ptrdiff_t, int) { worker(); });
  progress.finish();

  CsvOutput csv(f.output, standard_output);
  std::ostream& out = csv.stream();
  out << csv_header_line(sweep_columns(spec));
  int failed = 0;
  for (const SweepRow& row : rows) {
    out << sweep_csv_row(row);
    failed += row.ok ? 0 : 1;
  }
  csv.check();
  csv.commit();
  std::cerr << "mechdyn: sweep: " << total << " samples on " << threads << " threads, " << failed << " failed"
            << (f.output.empty() ? "" : ", wrote " + f.output) << std::endl;
}

}  // namespace

void add_sweep_command(CLI::App& app, CommandRunner& selected) {
  auto f = std::make_shared<SweepFlags>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Runs the simulations of a sweep spec (parameter sets) on a local thread pool; one CSV row per sample.");
  sub->add_option("SPEC", f->spec_path, "sweep spec YAML (docs/cli.md, docs/python.md)")->required();
  sub->add_option("--output,-o", f->output, "CSV file to write (default: standard output)");
  sub->add_option("--threads", f->threads, "worker threads (default 0: one per core)");
  sub->footer(
      "Example:\n"
      "  mechdyn sweep examples/sweeps/arm_payload.yaml --threads 2 -o sweep.csv\n"
      "CSV columns: sample, status (ok | error), the parameters of each sample (SI units in the names),\n"
      "t_end_s, the final q_* and v_*, kinetic_energy_J, potential_energy_J, error (the message of a failed sample).");
  sub->callback([f, &selected] { selected = [f](std::ostream& out) { run_sweep(*f, out); }; });
}

}  // namespace mechdyn::cli
