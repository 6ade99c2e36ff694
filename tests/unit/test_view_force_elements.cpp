// `mechdyn view` of a model with force elements and couplings (model format 3,
// docs/viewer.md "Force elements"): the page's model description (data.js) lists every
// element with its type, CSV column, body points or joint, and every coupling; with a run,
// data.js holds each element's world force on body a per row (the arrows of applied loads
// and bushings), from the library's force_elements. The drawing itself is checked in a
// real browser (viewer/test/browser_test.mjs, forceCase). Each test names the bug it catches.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using mechdyn::testing::CliResult;
using mechdyn::testing::read_file;
using mechdyn::testing::run_cli;
using mechdyn::testing::source_path;
using mechdyn::testing::temporary_path;

// Every element type and a gear on two links (b1 turns about z at the origin, b2 slides
// along x at 1 m; the browser test draws the same model).
const std::string kEveryElement = source_path("tests/data/viewer_every_element.yaml");

std::string data_js(const std::string& model, const std::string& run = "") {
  const std::string dir = temporary_path("page");
  const CliResult r = run_cli("view " + model + (run.empty() ? "" : " " + run) + " -o " + dir);
  EXPECT_EQ(r.status, 0) << r.err;
  return read_file(dir + "/data.js");
}

std::vector<float> decode_floats(const std::string& text) {
  std::vector<unsigned char> bytes;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char* at = std::strchr(alphabet, c);
    if (c == '=' || at == nullptr) break;
    buffer = (buffer << 6) | static_cast<unsigned>(at - alphabet);
    bits += 6;
    if (bits >= 8) bits -= 8, bytes.push_back(static_cast<unsigned char>((buffer >> bits) & 0xFF));
  }
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// The base64 text of data.js's key "name": "...".
std::string base64_field(const std::string& data, const std::string& name) {
  const std::size_t key = data.find("\"" + name + "\": \"");
  if (key == std::string::npos) return "";
  const std::size_t begin = data.find('"', data.find(':', key)) + 1;
  return data.substr(begin, data.find('"', begin) - begin);
}

// Bug caught: force elements or couplings missing from the page's model, or one with the
// wrong body (index or name), point, joint, type or CSV column — the page would draw a
// spring at the wrong place or colour it from another column.
TEST(ViewForceElements, ModelDescriptionListsEveryElementAndCoupling) {
  const std::string data = data_js(kEveryElement);
  for (const char* expected : {
           R"({"name":"S","type":"spring-damper","column":"force_S_N","a":{"body":0,"body_name":"b1","point":[0.5,0,0]},)"
           R"("b":{"body":-1,"body_name":"ground","point":[0.5,0.75,0]},"stiffness":20,"damping":0.25,"free_length":0.5,"preload":0})",
           R"({"name":"B","type":"bushing","column":"force_B_N","a":{"body":1,"body_name":"b2","point":[0.25,0,0]},)"
           R"("b":{"body":-1,"body_name":"ground","point":[1.25,0,0]}})",
           R"({"name":"K","type":"joint-spring-damper","column":"force_K_N_m","joint":0,"joint_name":"J1","stiffness":2,"damping":0,"rest":0.5})",
           // a one-sided stop: no "upper" (JSON has no infinity)
           R"({"name":"stop","type":"joint-stop","column":"force_stop_N","joint":1,"joint_name":"J2","lower":-0.25,"stiffness":100})",
           R"({"name":"servo","type":"joint-servo","column":"force_servo_N_m","joint":0,"joint_name":"J1"})",
           R"({"name":"load","type":"applied","column":"force_load_N","a":{"body":1,"body_name":"b2","point":[0.5,0,0]}})",
           R"("couplings":[{"name":"gear","type":"gear","column":"coupling_gear_N","a":0,"b":1,"ratio":0.5,"offset":0}])"})
    EXPECT_NE(data.find(expected), std::string::npos) << "missing: " << expected;
}

// Bug caught: a model of format 1 or 2 getting keys the page does not expect (it must
// still say "no elements" as empty lists, not omit them or write null).
TEST(ViewForceElements, ModelWithoutElementsHasEmptyLists) {
  const std::string data = data_js(source_path("examples/models/four_bar.yaml"));
  EXPECT_NE(data.find(R"("forces":[],"couplings":[])"), std::string::npos);
}

// The example's state at t = 0 (examples/models/spring_pendulum.yaml: at rest, q = 0): the
// spring from the arm's [0.6, 0, 0] to the ground's [0.6, 0.8, 0] is L = 0.8 m long, so it
// pulls the arm with T = k (L − L0) = 60 × 0.3 = 18 N along u = +y; the damper at rest
// exerts nothing; the stop (|q| < 0.5) nothing; the push is 4 N along +y for t < 1.5 s.
// Bug caught: element_forces missing, in another order (elements × rows), the force on b
// instead of a (the sign), the moment instead of the force (the wrench's first half).
TEST(ViewForceElements, RunHoldsEachElementsWorldForcePerRow) {
  const std::string model = source_path("examples/models/spring_pendulum.yaml");
  const std::string run = temporary_path("spring_pendulum.csv");
  const CliResult r = run_cli("simulate " + model + " --duration 0.01 --step 0.005 --output " + run);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<float> forces = decode_floats(base64_field(data_js(model, run), "element_forces"));
  const std::size_t rows = 3, elements = 4;
  ASSERT_EQ(forces.size(), rows * elements * 3);
  const float expected[elements][3] = {{0, 18, 0}, {0, 0, 0}, {0, 0, 0}, {0, 4, 0}};  // spring, damper, stop, push
  for (std::size_t e = 0; e < elements; ++e)
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(forces[e * 3 + k], expected[e][k], 1e-5) << "element " << e << " component " << k;
  // later rows: the push is unchanged (t < 1.5 s); the spring still pulls, about 18 N, mostly +y
  for (std::size_t row = 1; row < rows; ++row) {
    EXPECT_NEAR(forces[(row * elements + 3) * 3 + 1], 4.0f, 1e-6);
    EXPECT_NEAR(forces[(row * elements + 0) * 3 + 1], 18.0f, 0.5);
  }
}

}  // namespace
