// Python bindings: closed chains and mobility (constraints/*.hpp, mobility/mobility_analysis.hpp,
// docs/closed-chains.md, docs/parallel-manipulators.md).
#include "common.hpp"
#include "mechdyn/constraints/assembly.hpp"
#include "mechdyn/constraints/assembly_recovery.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics.hpp"
#include "mechdyn/constraints/closed_chain_inverse_dynamics_derivatives.hpp"
#include "mechdyn/constraints/constrained_forward_dynamics.hpp"
#include "mechdyn/constraints/constraint_rank.hpp"
#include "mechdyn/constraints/cut_joint_forces.hpp"
#include "mechdyn/constraints/drift_control.hpp"
#include "mechdyn/constraints/initial_state.hpp"
#include "mechdyn/constraints/loop_acceleration.hpp"
#include "mechdyn/constraints/loop_closure.hpp"
#include "mechdyn/mobility/mobility_analysis.hpp"

namespace mechdyn::python {

void bind_closed_chains(py::module_& m) {
  m.def("loop_closure", [](const Model& model, py::object data_object, py::handle q) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq");
    without_gil([&] { loop_closure(model, data, qv.map()); return 0; });
    return py::make_tuple(vector_view(data.loop_residual, data_object), matrix_view(data.loop_jacobian, data_object));
  }, py::arg("model"), py::arg("data"), py::arg("q"),
     "(Φ(q), J(q)): closure residual and constraint Jacobian (EC eq. 24); views of data.loop_residual, "
     "data.loop_jacobian");
  m.def("loop_bias_acceleration", [](const Model& model, py::object data_object, py::handle q, py::handle v) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv");
    const VecX& r = without_gil([&]() -> const VecX& { return loop_bias_acceleration(model, data, qv.map(), vv.map()); });
    return view_of(r, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), "J̇ v; view of data.loop_bias");

  m.def("constraint_rank", [](const Model& model, PyData& pd, py::handle q, double tolerance) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq");
    ConstraintRank r = without_gil([&] { return constraint_rank(model, data, qv.map(), tolerance); });
    py::dict d;
    d["rows"] = r.rows;
    d["rank"] = r.rank;
    d["mobility"] = r.mobility;
    d["redundant_rows"] = r.redundant_rows;
    d["singular_values"] = copy_vector(r.singular_values);
    return d;
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("tolerance") = 1e-9);

  m.def("assemble", [](const Model& model, PyData& pd, py::handle q, double tolerance, int max_iterations,
                       bool recovery) {
    Data& data = data_for(model, pd);
    VecX qq = owned_vector(q, model.nq, "q", "nq");
    AssemblyOptions options;
    options.tolerance = tolerance;
    options.max_iterations = max_iterations;
    py::dict d;
    if (recovery) {
      RecoveredAssembly r = without_gil([&] { return assemble_with_recovery(model, data, qq, options); });
      d["iterations"] = r.result.iterations;
      d["residual"] = r.result.residual;
      d["method"] = r.method;
      d["attempts"] = r.attempts;
    } else {
      AssemblyResult r = without_gil([&] { return assemble(model, data, qq, options); });
      d["iterations"] = r.iterations;
      d["residual"] = r.residual;
      d["method"] = "newton";
      d["attempts"] = 1;
    }
    d["q"] = copy_vector(qq);
    return d;
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("tolerance") = 1e-12, py::arg("max_iterations") = 100,
     py::arg("recovery") = true,
     "Closes the loops by moving the passive coordinates (Newton; with recovery also Levenberg–Marquardt "
     "and restarts). Returns a dict with the assembled 'q' (a new array), 'iterations', 'residual', 'method'.");

  // constraints/initial_state.hpp (docs/closed-chains.md, "Initial conditions").
  m.def("consistent_initial_state", [](const Model& model, PyData& pd, py::handle q, py::handle v,
                                       std::optional<std::vector<int>> kept_positions,
                                       std::optional<std::vector<int>> kept_velocities, bool allow_velocity_adjustment) {
    Data& data = data_for(model, pd);
    VecX qq = owned_vector(q, model.nq, "q", "nq"), vv = owned_vector(v, model.nv, "v", "nv");
    InitialStateOptions options;
    options.kept_positions = std::move(kept_positions);
    options.kept_velocities = std::move(kept_velocities);
    options.allow_velocity_adjustment = allow_velocity_adjustment;
    const InitialStateResult r = without_gil([&] { return consistent_initial_state(model, data, qq, vv, options); });
    py::list adjustments;
    for (const InitialStateAdjustment& a : r.adjustments) {
      py::dict entry;
      entry["coordinate"] = a.coordinate;
      entry["name"] = a.name;
      entry["unit"] = a.unit;
      entry["given"] = a.given;
      entry["used"] = a.used;
      entry["difference"] = a.difference();
      adjustments.append(entry);
    }
    py::dict d;
    d["q"] = copy_vector(qq);
    d["v"] = copy_vector(vv);
    d["adjustments"] = adjustments;
    d["kept_positions"] = r.kept_positions;
    d["kept_velocities"] = r.kept_velocities;
    d["assembly_method"] = r.assembly_method;
    d["closure_residual"] = r.closure_residual;
    d["velocity_residual"] = r.velocity_residual;
    return d;
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("kept_positions") = py::none(),
     py::arg("kept_velocities") = py::none(), py::arg("allow_velocity_adjustment") = true,
     "A start consistent with the loops keeping the stated coordinates: the positions of kept_positions and the "
     "rates of kept_velocities (velocity indices; default the actuated ones) stay as given in q, v, the others "
     "are solved (assembly; J_F v_F = -J_K v_K). Kept rates the loops do not allow are moved by the least "
     "change and listed. Returns {'q', 'v' (new arrays), 'adjustments': [{'coordinate', 'name', 'unit', "
     "'given', 'used', 'difference'}], 'kept_positions', 'kept_velocities', 'assembly_method', "
     "'closure_residual', 'velocity_residual'}. Raises mechdyn.SolverError (unassemblable start, singular "
     "start naming the undetermined coordinates, impossible velocity with allow_velocity_adjustment=False), "
     "mechdyn.InvalidArgument (sizes, a kept index out of range or repeated).");

  m.def("closed_chain_inverse_dynamics", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                            py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    VecX qq = owned_vector(q, model.nq, "q", "nq"), vv = owned_vector(v, model.nv, "v", "nv"),
         aa = owned_vector(a, model.nv, "a", "nv");
    without_gil([&] { closed_chain_inverse_dynamics(model, data, qq, vv, aa); return 0; });
    py::dict d;
    d["tau"] = vector_view(data.tau, data_object);
    d["multiplier"] = vector_view(data.loop_multiplier, data_object);
    d["q"] = copy_vector(qq);
    d["v"] = copy_vector(vv);
    d["a"] = copy_vector(aa);
    return d;
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "Closed-chain inverse dynamics (EC eqs. 23–27): the actuated coordinates of q, v, a are given, the "
     "passive ones are solved. Returns {'tau': view of data.tau (actuated efforts, 0 on passive), "
     "'multiplier': λ, 'q', 'v', 'a': the completed state (new arrays)}; cut forces in data.cut_force.");

  // docs/derivatives.md, "Closed-chain inverse dynamics": the workspace is made per call
  // (O(nv²)), the results are new arrays.
  m.def("closed_chain_inverse_dynamics_derivatives", [](const Model& model, py::object data_object, py::handle q,
                                                        py::handle v, py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    VecX qq = owned_vector(q, model.nq, "q", "nq"), vv = owned_vector(v, model.nv, "v", "nv"),
         aa = owned_vector(a, model.nv, "a", "nv");
    ClosedChainDerivativeData work(model);
    without_gil([&] { closed_chain_inverse_dynamics_derivatives(model, data, work, qq, vv, aa); return 0; });
    py::dict d;
    d["coordinates"] = work.coordinates;
    d["tau"] = copy_vector(work.tau);
    d["dtau_dq"] = py::cast(MatX(work.dtau_dq));
    d["dtau_dv"] = py::cast(MatX(work.dtau_dv));
    d["dtau_da"] = py::cast(MatX(work.dtau_da));
    d["coordinate_map"] = py::cast(MatX(work.coordinate_map));
    d["q"] = copy_vector(qq);
    d["v"] = copy_vector(vv);
    d["a"] = copy_vector(aa);
    return d;
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "Total derivatives of closed-chain inverse dynamics' actuated efforts τ_a with respect to the actuated "
     "coordinates (passive q, v, a follow the closure; ∂/∂q_a in the tangent space). Returns {'coordinates': "
     "velocity indices of the actuated coordinates, 'tau': τ_a, 'dtau_dq', 'dtau_dv', 'dtau_da' (na × na, "
     "row i the derivative of τ_a[i]), 'coordinate_map': G = ∂q/∂q_a (nv × na), 'q', 'v', 'a': the "
     "completed state}. Raises mechdyn.SolverError (assembly, singular configuration), "
     "mechdyn.InvalidArgument (no passive joint, redundant actuation).");

  m.def("constrained_forward_dynamics", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                           py::handle tau, double baumgarte_alpha, double baumgarte_beta) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), tv(tau, model.nv, "tau", "nv");
    ConstrainedDynamicsOptions options;
    options.baumgarte_alpha = baumgarte_alpha;
    options.baumgarte_beta = baumgarte_beta;
    const VecX& r = without_gil([&]() -> const VecX& {
      return constrained_forward_dynamics(model, data, qv.map(), vv.map(), tv.map(), options);
    });
    return view_of(r, data_object);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("baumgarte_alpha") = 0.0,
     py::arg("baumgarte_beta") = 0.0,
     "q̈ of a closed chain (M a + h = τ + Jᵀ λ, J a = −J̇ v − Baumgarte terms); view of data.ddq; λ in "
     "data.loop_multiplier.");

  m.def("closed_chain_joint_reactions", [](const Model& model, py::object data_object, py::handle q, py::handle v,
                                           py::handle a) {
    Data& data = data_for(model, data_object.cast<PyData&>());
    InputVector qv(q, model.nq, "q", "nq"), vv(v, model.nv, "v", "nv"), av(a, model.nv, "a", "nv");
    without_gil([&] { closed_chain_joint_reactions(model, data, qv.map(), vv.map(), av.map()); return 0; });
    return py::make_tuple(vec3_list_view(data.reaction_force, data_object),
                          vec3_list_view(data.reaction_torque, data_object));
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
     "Tree-joint reactions with the cut-joint wrenches of data.loop_multiplier (after constrained_forward_dynamics "
     "or closed_chain_inverse_dynamics at the same state).");

  m.def("project_positions", [](const Model& model, PyData& pd, py::handle q) {
    Data& data = data_for(model, pd);
    VecX qq = owned_vector(q, model.nq, "q", "nq");
    without_gil([&] { return project_positions(model, data, qq); });
    return copy_vector(qq);
  }, py::arg("model"), py::arg("data"), py::arg("q"), "q projected onto Φ = 0 (a new array)");
  m.def("project_velocities", [](const Model& model, PyData& pd, py::handle q, py::handle v) {
    Data& data = data_for(model, pd);
    InputVector qv(q, model.nq, "q", "nq");
    VecX vv = owned_vector(v, model.nv, "v", "nv");
    without_gil([&] { return project_velocities(model, data, qv.map(), vv); });
    return copy_vector(vv);
  }, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), "v projected onto J v = 0 (a new array)");

  m.def("analyze_mobility", [](const Model& model, py::handle q, py::handle body, bool assemble_first) {
    InputVector qv(q, model.nq, "q", "nq");
    MobilityOptions options;
    options.assemble = assemble_first;
    if (!body.is_none()) options.body = body_argument(model, body);
    MobilityReport r = without_gil([&] { return analyze_mobility(model, qv.map(), options); });
    py::dict d;
    d["q"] = copy_vector(r.q);
    d["closure_residual"] = r.closure_residual;
    d["dof"] = r.dof;
    d["rank"] = r.rank;
    d["constraint_rows"] = r.constraint_rows;
    d["redundant_constraints"] = r.redundant_constraints;
    d["gruebler_kutzbach"] = r.gruebler_kutzbach;
    d["idle_freedoms"] = r.idle_freedoms;
    d["actuated"] = r.actuated;
    d["redundant_actuation"] = r.redundant_actuation;
    d["singular_actuation"] = r.singular_actuation;
    d["locked_mobility"] = r.locked_mobility;
    d["motion_basis"] = copy_matrix(r.motion_basis);
    d["singular_values"] = copy_vector(r.singular_values);
    std::vector<int> rows;
    for (const auto& c : r.redundant_rows) rows.push_back(c.row);
    d["redundant_rows"] = rows;
    return d;
  }, py::arg("model"), py::arg("q"), py::arg("body") = py::none(), py::arg("assemble") = true,
     "Mobility and constraint analysis (`mechdyn mobility`): dof, redundant constraints, Grübler–Kutzbach, "
     "actuation; a dict.");
}

}  // namespace mechdyn::python
