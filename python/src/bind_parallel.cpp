// Python bindings: inverse dynamics along a prescribed body motion (parallel manipulators;
// parallel/motion_inverse_dynamics.hpp, docs/parallel-manipulators.md) — the library
// form of `mechdyn invdyn --motion BODY=FILE.csv`.
#include "common.hpp"
#include "mechdyn/io/body_motion_csv.hpp"
#include "mechdyn/parallel/motion_inverse_dynamics.hpp"

namespace mechdyn::python {

void bind_parallel(py::module_& m) {
  m.def("motion_inverse_dynamics", [](const Model& model, py::handle body, py::handle motion, const std::string& method,
                                      py::handle q0) {
    const int b = body_argument(model, body);
    py::array_t<double, py::array::c_style | py::array::forcecast> rows;
    {
      py::array a = py::module_::import("numpy").attr("asarray")(motion);
      const char kind = a.dtype().kind();
      if ((kind != 'f' && kind != 'i' && kind != 'u') || a.ndim() != 2 || a.shape(1) != 20)
        throw InvalidArgument("motion must be an (N, 20) array of real numbers with the columns " +
                              std::string("t,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,ax,ay,az,alx,aly,alz"));
      rows = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    }
    const auto r = rows.unchecked<2>();
    const py::ssize_t n = rows.shape(0);
    if (n == 0) throw InvalidArgument("motion has no rows");
    std::vector<BodyMotionSample> samples(static_cast<std::size_t>(n));
    for (py::ssize_t k = 0; k < n; ++k) {
      BodyMotionSample& s = samples[static_cast<std::size_t>(k)];
      s.time = r(k, 0);
      s.position = Vec3(r(k, 1), r(k, 2), r(k, 3));
      s.orientation = Quat(r(k, 4), r(k, 5), r(k, 6), r(k, 7));
      s.velocity = Vec3(r(k, 8), r(k, 9), r(k, 10));
      s.angular_velocity = Vec3(r(k, 11), r(k, 12), r(k, 13));
      s.acceleration = Vec3(r(k, 14), r(k, 15), r(k, 16));
      s.angular_acceleration = Vec3(r(k, 17), r(k, 18), r(k, 19));
      check_body_motion_sample(s, "motion row " + std::to_string(k));
      if (k > 0 && !(s.time > samples[static_cast<std::size_t>(k - 1)].time))
        throw InvalidArgument("motion row " + std::to_string(k) + ": times must increase strictly");
    }
    VecX start;
    if (!q0.is_none()) start = owned_vector(q0, model.nq, "q0", "nq");
    MotionInverseDynamicsModel problem = make_motion_inverse_dynamics(model, b);
    MotionInverseDynamicsOptions options;
    if (method == "auto") {
      options.method = problem.parallel ? InverseDynamicsMethod::MomentumScrew : InverseDynamicsMethod::ClosedChain;
    } else {
      const auto chosen = inverse_dynamics_method_from_name(method);
      if (!chosen) throw InvalidArgument("method '" + method + "' must be auto, momentum-screw, newton-euler or closed-chain");
      options.method = *chosen;
    }
    if (options.method == InverseDynamicsMethod::MomentumScrew && !problem.parallel)
      throw InvalidArgument("method momentum-screw: " + problem.parallel_problem);
    const std::vector<int>& actuated = problem.actuated_dofs;
    const Eigen::Index na = static_cast<Eigen::Index>(actuated.size());
    MatX q(n, model.nq), v(n, model.nv), a(n, model.nv), effort(n, na);
    VecX closure(n), power(n);
    without_gil([&] {
      MotionInverseDynamicsData work(model, problem);
      if (start.size() > 0) work.q = start;
      else if (model.initial_configuration.size() > 0) work.q = model.initial_configuration;
      for (py::ssize_t k = 0; k < n; ++k) {
        motion_inverse_dynamics(model, problem, work, samples[static_cast<std::size_t>(k)], options);
        q.row(k) = work.q.transpose();
        v.row(k) = work.v.transpose();
        a.row(k) = work.a.transpose();
        for (Eigen::Index c = 0; c < na; ++c) effort(k, c) = work.effort[actuated[static_cast<std::size_t>(c)]];
        closure[k] = work.closure_residual;
        power[k] = work.power_residual;
      }
      return 0;
    });
    py::dict d;
    d["method"] = std::string(inverse_dynamics_method_name(options.method));
    d["actuated"] = actuated;
    d["q"] = copy_matrix(q);
    d["v"] = copy_matrix(v);
    d["a"] = copy_matrix(a);
    d["effort"] = copy_matrix(effort);
    d["closure_residual"] = copy_vector(closure);
    d["power_residual"] = copy_vector(power);
    return d;
  }, py::arg("model"), py::arg("body"), py::arg("motion"), py::arg("method") = "auto", py::arg("q0") = py::none(),
     "Inverse dynamics along a prescribed motion of one body of a closed chain (`mechdyn invdyn --motion`): "
     "motion is an (N, 20) array with the columns of the body-motion CSV contract "
     "(t,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,ax,ay,az,alx,aly,alz). method: auto, momentum-screw, "
     "newton-euler, closed-chain. Returns {'q', 'v', 'a' (N × nq / nv), 'effort' (N × actuated), 'actuated' "
     "(their velocity indices), 'closure_residual', 'power_residual' (N), 'method'}; new arrays.");
}

}  // namespace mechdyn::python
