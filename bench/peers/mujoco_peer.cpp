// MuJoCo peer loader (see mujoco_peer.hpp).
#include "mujoco_peer.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "mechdyn/io/mjcf.hpp"

namespace mechdyn::bench {

MujocoPeer::~MujocoPeer() {
  if (data != nullptr) mj_deleteData(data);
  if (model != nullptr) mj_deleteModel(model);
}

std::unique_ptr<MujocoPeer> load_mujoco(const Model& model) {
  MjcfOptions options;
  options.loops_set_by_caller = true;  // both anchors are copied into eq_data below
  const std::string xml = write_mjcf(model, options);
  char path[] = "/tmp/mechdyn_peer_XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary MJCF file");
  close(fd);
  std::ofstream(path) << xml;
  auto peer = std::make_unique<MujocoPeer>();
  char error[1000] = "";
  peer->model = mj_loadXML(path, nullptr, error, sizeof error);
  std::remove(path);
  if (peer->model == nullptr) throw std::runtime_error("MuJoCo rejects the MJCF of '" + model.name + "': " + error);
  peer->data = mj_makeData(peer->model);
  if (peer->model->nv != model.nv || peer->model->nq != model.nq)
    throw std::runtime_error("MuJoCo's coordinate counts differ from mechdyn's for '" + model.name + "'");
  for (int i = 0; i < model.nv; ++i) {
    const int l = model.dof_body[static_cast<std::size_t>(i)];
    const int body = mj_name2id(peer->model, mjOBJ_BODY, model.bodies[static_cast<std::size_t>(l)].name.c_str());
    peer->dof.push_back(peer->model->body_dofadr[body] + (i - model.joints[static_cast<std::size_t>(l)].v_index));
  }
  // Both anchors of every connect, in the body frames (mechdyn/io/mjcf.hpp): the compiler derived
  // the second one from qpos0, where the loop need not be closed.
  for (const MjcfConnect& connect : mjcf_connects(model)) {
    const int id = mj_name2id(peer->model, mjOBJ_EQUALITY, connect.name.c_str());
    if (id < 0 || peer->model->eq_type[id] != mjEQ_CONNECT)
      throw std::runtime_error("MuJoCo's model of '" + model.name + "' lacks the connect '" + connect.name + "'");
    mjtNum* eq_data = peer->model->eq_data + static_cast<std::ptrdiff_t>(id) * mjNEQDATA;
    for (int c = 0; c < 3; ++c) {
      eq_data[c] = connect.anchor1[c];
      eq_data[3 + c] = connect.anchor2[c];
    }
  }
  return peer;
}

VecX to_mujoco(const VecX& x, const std::vector<int>& dof) {
  VecX out(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) out[dof[static_cast<std::size_t>(i)]] = x[i];
  return out;
}

VecX from_mujoco(const mjtNum* x, const std::vector<int>& dof) {
  VecX out(static_cast<Eigen::Index>(dof.size()));
  for (std::size_t i = 0; i < dof.size(); ++i) out[static_cast<Eigen::Index>(i)] = x[dof[i]];
  return out;
}

}  // namespace mechdyn::bench
