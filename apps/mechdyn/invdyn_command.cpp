// mechdyn invdyn: inverse kinematics and inverse dynamics along a prescribed motion of one
// body (../shared/spec/parallel-manipulators.md; docs/parallel-manipulators.md; the
// library: parallel/motion_inverse_dynamics.hpp).
//
//   mechdyn invdyn MODEL --motion BODY=FILE.csv | --motion-expr BODY=EXPRESSIONS
//       [--wrench BODY=fx,fy,fz,mx,my,mz[@x,y,z]]... [--method auto|momentum-screw|newton-euler|closed-chain]
//       [--start T0 --duration D --step H] [--q0 Q] [--joint-kinematics] [--joint-wrenches]
//       [--body-kinematics] [--internal-forces] [--output OUT.csv]
//
// Columns (SI units in the suffix of every name): t_s; per actuated coordinate in
// coordinate order q_<c>_<unit>, v_<c>_<unit>_per_s, a_<c>_<unit>_per_s2,
// effort_<c>_<N|N_m> (<c>: the coordinate's name as in `simulate`: the joint name, with
// _1/_2 for a universal joint); closure_residual; power_residual_W;
// internal_force_dimension; then the optional blocks. Numbers are written with
// std::to_chars (the shortest text that reads back to the same double).
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "csv_output.hpp"
#include "common.hpp"
#include "mechdyn/io/body_motion_csv.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"
#include "motion_expressions.hpp"
#include "progress.hpp"

namespace mechdyn::cli {

namespace {

struct InvdynOptions {
  std::string model_path, motion, motion_expression, method = "auto", output, q0;
  std::vector<std::string> wrenches;
  double start = 0.0, duration = 1.0, step = 1e-3;
  bool joint_kinematics = false, joint_wrenches = false, body_kinematics = false, internal_forces = false;
  bool has_q0 = false, has_timing = false;
};

// BODY=rest → (body index, rest); the model's bodies listed when BODY is unknown.
std::pair<int, std::string> body_and_value(const Model& model, const std::string& text, const std::string& option) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw UsageError(option + " '" + text + "': expected BODY=...");
  const std::string name = text.substr(0, equals);
  const std::optional<int> body = model.body_index(name);
  if (!body) {
    std::string names;
    for (const Body& b : model.bodies) names += (names.empty() ? "" : ", ") + b.name;
    throw UsageError(option + ": no body named '" + name + "' in model '" + model.name + "' (bodies: " + names + ")");
  }
  return {*body, text.substr(equals + 1)};
}

ExternalWrench parse_wrench(const Model& model, const std::string& text) {
  const auto [body, rest] = body_and_value(model, text, "--wrench");
  const std::string element = "--wrench " + model.bodies[body].name;
  const auto at = rest.find('@');
  const VecX numbers = parse_number_list(rest.substr(0, at), element, 6, "fx, fy, fz, mx, my, mz");
  ExternalWrench w;
  w.body = body;
  w.force = numbers.head<3>();
  w.moment = numbers.tail<3>();
  if (at != std::string::npos) w.point = parse_number_list(rest.substr(at + 1), element + " @", 3, "x, y, z");
  return w;
}

// Fast number formatting: shortest round-trip text (std::to_chars, no locale, no allocation).
void append_number(std::string& row, double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  row.append(buffer, result.ptr);
}

std::string effort_unit(const CoordinateLabel& label) { return label.unit == "rad" ? "N_m" : "N"; }

std::vector<std::string> header(const Model& model, const std::vector<int>& actuated, const InvdynOptions& o) {
  std::vector<std::string> columns{"t_s"};
  const auto ql = configuration_labels(model);
  const auto vl = velocity_labels(model);
  for (int k : actuated) {
    const CoordinateLabel& l = vl[k];
    columns.push_back("q_" + l.name + "_" + l.unit);
    columns.push_back("v_" + l.name + "_" + l.unit + "_per_s");
    columns.push_back("a_" + l.name + "_" + l.unit + "_per_s2");
    columns.push_back("effort_" + l.name + "_" + effort_unit(l));
  }
  columns.push_back("closure_residual");
  columns.push_back("power_residual_W");
  columns.push_back("internal_force_dimension");
  if (o.joint_kinematics) {  // every other coordinate
    for (const Joint& joint : model.joints) {
      if (joint.actuated) continue;
      for (int i = joint.q_index; i < joint.q_index + joint.nq; ++i)
        columns.push_back("q_" + ql[i].name + (ql[i].unit.empty() ? "" : "_" + ql[i].unit));
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
        columns.push_back("v_" + vl[k].name + "_" + vl[k].unit + "_per_s");
        columns.push_back("a_" + vl[k].name + "_" + vl[k].unit + "_per_s2");
      }
    }
  }
  auto wrench_columns = [&](const std::string& name) {
    for (const char* c : {"fx", "fy", "fz"}) columns.push_back("wrench_" + name + "_" + c + "_N");
    for (const char* c : {"mx", "my", "mz"}) columns.push_back("wrench_" + name + "_" + c + "_N_m");
  };
  if (o.joint_wrenches) {
    for (const Joint& joint : model.joints) wrench_columns(joint.name);
    for (const Loop& loop : model.loops) wrench_columns(loop.name);
  }
  if (o.body_kinematics) {
    for (const Body& body : model.bodies) {
      for (const char* c : {"wx", "wy", "wz"}) columns.push_back("body_" + body.name + "_" + c + "_rad_per_s");
      for (const char* c : {"alx", "aly", "alz"}) columns.push_back("body_" + body.name + "_" + c + "_rad_per_s2");
      for (const char* c : {"com_ax", "com_ay", "com_az"}) columns.push_back("body_" + body.name + "_" + c + "_m_per_s2");
    }
  }
  if (o.internal_forces) {
    for (std::size_t p = 0; p < actuated.size(); ++p)
      for (int k : actuated)
        columns.push_back("internal_force_" + std::to_string(p + 1) + "_" + vl[k].name + "_" + effort_unit(vl[k]));
  }
  return columns;
}

void append_row(const Model& model, const std::vector<int>& actuated, const InvdynOptions& o, double t,
                const MotionInverseDynamicsData& w, std::string& row) {
  row.clear();
  append_number(row, t);
  auto add = [&](double x) {
    if (!std::isfinite(x)) throw SolverError("a result became non-finite at t = " + format_number(t) + " s");
    row += ',';
    append_number(row, x);
  };
  for (int k : actuated) {
    const Joint& joint = model.joints[model.dof_body[k]];
    add(joint.nq == joint.nv ? w.q[joint.q_index + (k - joint.v_index)] : 0.0);
    add(w.v[k]);
    add(w.a[k]);
    add(w.effort[k]);
  }
  add(w.closure_residual);
  add(w.power_residual);
  add(static_cast<double>(w.internal_force_dimension));
  if (o.joint_kinematics) {
    for (const Joint& joint : model.joints) {
      if (joint.actuated) continue;
      for (int i = joint.q_index; i < joint.q_index + joint.nq; ++i) add(w.q[i]);
      for (int k = joint.v_index; k < joint.v_index + joint.nv; ++k) {
        add(w.v[k]);
        add(w.a[k]);
      }
    }
  }
  const int n = model.num_bodies();
  auto add_wrench = [&](const Vec6& spatial, const Vec3& centre) {
    const Vec3 force = spatial.tail<3>(), moment = spatial.head<3>() - centre.cross(force);  // about the centre
    for (int c = 0; c < 3; ++c) add(force[c]);
    for (int c = 0; c < 3; ++c) add(moment[c]);
  };
  if (o.joint_wrenches) {
    for (int b = 0; b < n; ++b) add_wrench(w.joint_wrench[b], w.data.position[b]);
    for (std::size_t i = 0; i < model.loops.size(); ++i) {
      const Loop& loop = model.loops[i];
      const Vec3 centre = (loop.a.body == kGround ? Vec3::Zero() : w.data.position[loop.a.body]) +
                          (loop.a.body == kGround ? Mat3::Identity() : w.data.rotation[loop.a.body]) * loop.a.point;
      add_wrench(w.joint_wrench[static_cast<std::size_t>(n) + i], centre);
    }
  }
  if (o.body_kinematics) {
    for (int b = 0; b < n; ++b) {
      const Vec6& velocity = w.body_velocity[b];
      const Vec6& acceleration = w.body_acceleration[b];
      const Vec3 omega = velocity.head<3>(), alpha = acceleration.head<3>(), c = w.data.com_position[b];
      const Vec3 vc = velocity.tail<3>() + omega.cross(c);
      const Vec3 ac = acceleration.tail<3>() + alpha.cross(c) + omega.cross(vc);
      for (int k = 0; k < 3; ++k) add(omega[k]);
      for (int k = 0; k < 3; ++k) add(alpha[k]);
      for (int k = 0; k < 3; ++k) add(ac[k]);
    }
  }
  if (o.internal_forces) {
    const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
    for (Eigen::Index p = 0; p < na; ++p)
      for (Eigen::Index k = 0; k < na; ++k) add(p < w.internal_force_dimension ? w.internal_force_basis(k, p) : 0.0);
  }
  row += '\n';
}

void run_invdyn(const InvdynOptions& o, std::ostream& standard_output) {
  const Model model = load_model(o.model_path);
  if (!model.has_constraints())
    throw UsageError(o.model_path + ": model '" + model.name +
                     "' has no loops: invdyn prescribes a body of a closed chain (trees: mechdyn simulate --mode inverse)");
  if (o.motion.empty() == o.motion_expression.empty())
    throw UsageError("invdyn: give the motion by exactly one of --motion BODY=FILE.csv and --motion-expr BODY=EXPRESSIONS");
  const bool from_file = !o.motion.empty();
  const auto [body, source] = body_and_value(model, from_file ? o.motion : o.motion_expression,
                                             from_file ? "--motion" : "--motion-expr");
  std::vector<ExternalWrench> wrenches;
  for (const std::string& text : o.wrenches) wrenches.push_back(parse_wrench(model, text));
  MotionInverseDynamicsModel problem;
  try {
    problem = make_motion_inverse_dynamics(model, body, wrenches);
  } catch (const ModelError& e) {
    throw UsageError(o.model_path + ": " + e.what());
  }
  MotionInverseDynamicsOptions options;
  if (o.method == "auto") {
    options.method = problem.parallel ? InverseDynamicsMethod::MomentumScrew : InverseDynamicsMethod::ClosedChain;
  } else {
    const auto method = inverse_dynamics_method_from_name(o.method);
    if (!method)
      throw UsageError("--method '" + o.method + "' must be auto, momentum-screw, newton-euler or closed-chain");
    options.method = *method;
  }
  if (options.method == InverseDynamicsMethod::MomentumScrew && !problem.parallel)
    throw UsageError(o.model_path + ": --method momentum-screw: " + problem.parallel_problem);

  // The motion: samples of the file, or expressions on a time grid.
  std::vector<BodyMotionSample> samples;
  std::unique_ptr<MotionExpressions> expressions;
  const std::string where = from_file ? source : "--motion-expr " + model.bodies[body].name;
  if (from_file) {
    if (o.has_timing) throw UsageError("--start, --duration and --step are for --motion-expr (the file has its own times)");
    samples = read_body_motion_csv(source);  // InvalidArgument "<file>: line N ...": status 2
  } else {
    expressions = std::make_unique<MotionExpressions>(source, where);
    if (!(o.step > 0.0) || !std::isfinite(o.step)) throw UsageError("--step must be a finite number > 0");
    if (!(o.duration >= 0.0) || !std::isfinite(o.duration)) throw UsageError("--duration must be a finite number >= 0");
    if (!std::isfinite(o.start)) throw UsageError("--start must be finite");
    if (o.duration / o.step > 1e8) throw UsageError("--duration / --step exceeds 1e8 samples");
  }
  const long count = from_file ? static_cast<long>(samples.size())
                               : std::lround(o.duration / o.step) + 1;
  auto time_of = [&](long k) {
    if (from_file) return samples[static_cast<std::size_t>(k)].time;
    return k + 1 == count ? o.start + o.duration : o.start + static_cast<double>(k) * o.step;
  };

  MotionInverseDynamicsData work(model, problem);
  if (o.has_q0) {
    work.q = parse_number_list(o.q0, "--q0", model.nq, "nq");
    check_and_normalize_quaternions(model, work.q, "--q0");
  } else if (model.initial_configuration.size() > 0) {
    work.q = model.initial_configuration;  // the model file's assembled start (docs/model-file.md)
  }
  TwistPrescription prescription;
  const bool twist = expressions && expressions->twist_form();
  if (twist) {
    prescription.components = expressions->components();
    MotionExpressions* e = expressions.get();
    prescription.evaluate = [e](double t, Vec6& values, Vec6& rates) { e->twist(t, values, rates); };
  }

  const std::vector<int>& actuated = problem.actuated_dofs;
  CsvOutput csv(o.output, standard_output);  // rows stream out as they are computed
  std::ostream& out = csv.stream();
  out << csv_header_line(header(model, actuated, o));  // names quoted per RFC 4180 where needed
  std::string row;
  row.reserve(4096);
  ProgressBar progress;
  try {
    if (twist) assemble_for_twist(model, problem, work, options);
    for (long k = 0; k < count; ++k) {
      const double t = time_of(k);
      if (twist) {
        if (k > 0) advance_twist(model, problem, work, prescription, time_of(k - 1), t - time_of(k - 1), options);
        motion_inverse_dynamics(model, problem, work, prescription, t, options);
      } else {
        const BodyMotionSample sample = from_file ? samples[static_cast<std::size_t>(k)] : expressions->sample(t);
        motion_inverse_dynamics(model, problem, work, sample, options);
      }
      append_row(model, actuated, o, t, work, row);
      out << row;
      csv.check();  // a full disk or a closed pipe stops the run here (status 3)
      if (count > 1) progress.update(static_cast<double>(k) / static_cast<double>(count - 1));
    }
  } catch (const SolverError& e) {
    throw SolverError(where + ": " + e.what());
  } catch (const UsageError&) {
    throw;
  } catch (const InvalidArgument& e) {
    throw UsageError(where + ": " + e.what());
  }
  progress.finish();
  csv.commit();
  if (!csv.to_regular_file()) return;  // the summary only beside a file, never into a stream
  standard_output << "wrote " << count << " rows (" << inverse_dynamics_method_name(options.method) << ", body '"
          << model.bodies[body].name << "') to " << o.output << "\n";
}

}  // namespace

void add_invdyn_command(CLI::App& app, CommandRunner& selected) {
  auto o = std::make_shared<InvdynOptions>();
  CLI::App* sub = app.add_subcommand(
      "invdyn",
      "Inverse kinematics and dynamics along a prescribed motion of one body of a model with loops: actuator "
      "efforts, every joint's wrench, internal forces.");
  sub->add_option("MODEL", o->model_path, "model file (YAML, model-format.md)")->required();
  sub->add_option("--motion", o->motion, "BODY=FILE.csv: the contract's CSV t,px,py,pz,qw,qx,qy,qz,vx,...,alz");
  sub->add_option("--motion-expr", o->motion_expression,
                  "BODY=EXPRESSIONS of t: pose 'px=..., py=..., pz=..., rx=..., ry=..., rz=...' (R = Rz Ry Rx) or "
                  "twist components 'wx=..., wy=..., ...' (the rest from the closure)");
  sub->add_option("--wrench", o->wrenches,
                  "BODY=fx,fy,fz,mx,my,mz[@x,y,z]: external wrench ON the body (world directions, N and N·m), force "
                  "through the body point x,y,z (body frame from its origin; default the origin); repeatable");
  sub->add_option("--method", o->method, "auto (default: momentum-screw for a parallel manipulator, else closed-chain), "
                                         "momentum-screw, newton-euler or closed-chain");
  CLI::Option* start = sub->add_option("--start", o->start, "--motion-expr: first time (s), default 0");
  CLI::Option* duration = sub->add_option("--duration", o->duration, "--motion-expr: duration (s), default 1");
  CLI::Option* step = sub->add_option("--step", o->step, "--motion-expr: time step (s), default 0.001");
  CLI::Option* q0 = sub->add_option("--q0", o->q0, "initial configuration guess, nq numbers (default: the model's initial_configuration, else neutral)");
  sub->add_flag("--joint-kinematics", o->joint_kinematics, "also q, v, a of every passive coordinate");
  sub->add_flag("--joint-wrenches", o->joint_wrenches,
                "also every joint's wrench: force and moment about the joint centre, parent on child (cut joints: "
                "body b on body a)");
  sub->add_flag("--body-kinematics", o->body_kinematics,
                "also every body's angular velocity, angular acceleration and centre-of-mass acceleration");
  sub->add_flag("--internal-forces", o->internal_forces,
                "also an orthonormal basis of the internal actuator forces (redundant actuation), zero-padded");
  sub->add_option("--output", o->output, "CSV file (default: standard output)");
  sub->footer(
      "Examples:\n"
      "  mechdyn invdyn examples/models/schoenflies_2ups_2upu.yaml --motion platform=trajectory.csv --output forces.csv\n"
      "  mechdyn invdyn examples/models/schoenflies_2ups_2upu.yaml --motion-expr "
      "'platform=px=0.5*sin(_pi*t), py=0.3*cos(2*_pi*t), pz=0.2*sin(3*_pi*t)+1, rz=0.2*sin(_pi*t)' --duration 6\n"
      "  mechdyn invdyn examples/models/ups_3ups_upu_s.yaml --motion-expr 'platform=wx=0.2*sin(t), wy=0.1*cos(t)' "
      "--duration 10 --wrench platform=0,0,1000,1000,0,0@0,0,0.5196152422706632\n"
      "Exit status: 0 ok, 2 bad input or an infeasible motion (closure violated, singular pose), 3 solver failure.");
  sub->callback([o, start, duration, step, q0, &selected] {
    o->has_timing = start->count() + duration->count() + step->count() > 0;
    o->has_q0 = q0->count() > 0;
    selected = [o](std::ostream& out) { run_invdyn(*o, out); };
  });
}

}  // namespace mechdyn::cli
