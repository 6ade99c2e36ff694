// Broken robot files: every reader (URDF, SDFormat, MJCF) refuses what cannot be meant
// with one ModelError line "<file>: <element>: <problem>", and `mechdyn convert` prints it
// as "mechdyn: <file>: <element>: <problem>" with exit status 2 and writes no output.
// Catches: a crash or a NaN model from a broken file, a message that names no element,
// a multi-line message (libraries' own error dumps), a half-written output file.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "cli_runner.hpp"
#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/sdf.hpp"
#include "mechdyn/io/urdf.hpp"

namespace mechdyn {
namespace {

struct BrokenFile {
  const char* what;      // the case, for failure messages
  std::string text;      // the file
  std::string element;   // expected in the message
  std::string problem;   // expected in the message
};

const std::string kInertial =
    R"(<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)";

std::vector<BrokenFile> broken_urdf() {
  const std::string head = R"(<robot name="r"><link name="base">)" + kInertial + "</link>";
  return {
      {"malformed XML", head + R"(<link name="arm"></robot>)", "document", "broken XML"},
      {"missing inertial on a moving leaf", head + R"(<link name="arm"/><joint name="j" type="revolute">
         <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)",
       "link 'arm'", "has no mass (no inertial)"},
      {"unknown joint type", head + R"(<link name="arm">)" + kInertial + R"(</link><joint name="j" type="hinge">
         <parent link="base"/><child link="arm"/></joint></robot>)",
       "joint 'j'", "unknown joint type 'hinge'"},
      {"dangling parent", head + R"(<link name="arm">)" + kInertial + R"(</link><joint name="j" type="fixed">
         <parent link="nowhere"/><child link="arm"/></joint></robot>)",
       "joint 'j'", "parent link 'nowhere' is not defined"},
      {"cycle", R"(<robot name="r"><link name="a">)" + kInertial + R"(</link><link name="b">)" + kInertial +
                    R"(</link><joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
         <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint></robot>)",
       "document", "the joints form a cycle"},
      {"a link with two parents (a loop URDF cannot state)",
       head + R"(<link name="a">)" + kInertial + R"(</link><link name="b">)" + kInertial +
           R"(</link><joint name="j1" type="fixed"><parent link="base"/><child link="a"/></joint>
         <joint name="j2" type="fixed"><parent link="base"/><child link="b"/></joint>
         <joint name="j3" type="fixed"><parent link="a"/><child link="b"/></joint></robot>)",
       "link 'b'", "is the child of two joints"},
      {"negative mass", head + R"(<link name="arm"><inertial><mass value="-2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
         <joint name="j" type="fixed"><parent link="base"/><child link="arm"/></joint></robot>)",
       "link 'arm'", "negative"},
      {"mimic of a joint the file does not have", head + R"(<link name="arm">)" + kInertial + R"(</link><link name="tip">)" + kInertial +
                          R"(</link><joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
         <joint name="k" type="continuous"><parent link="arm"/><child link="tip"/><mimic joint="z" multiplier="2"/></joint></robot>)",
       "joint 'k'", "<mimic joint='z'>: the file has no joint 'z'"},
      {"non-finite number", head + R"(<link name="arm"><inertial><mass value="nan"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
         <joint name="j" type="fixed"><parent link="base"/><child link="arm"/></joint></robot>)",
       "link 'arm'", ""},
  };
}

std::string sdf_link(const std::string& name, const std::string& mass = "1") {
  return "<link name='" + name + "'><inertial><mass>" + mass +
         "</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>";
}

std::vector<BrokenFile> broken_sdf() {
  const std::string head = "<sdf version='1.9'><model name='m'>";
  return {
      {"malformed XML", head + sdf_link("a") + "<link name='b'></model></sdf>", "document", "broken XML"},
      {"unknown joint type", head + sdf_link("a") + "<joint name='j' type='hinge'><parent>world</parent><child>a</child></joint></model></sdf>",
       "joint 'j'", "unknown joint type 'hinge'"},
      {"dangling parent",
       head + sdf_link("a") + "<joint name='j' type='fixed'><parent>nowhere</parent><child>a</child></joint></model></sdf>",
       "joint 'j'", "parent frame with name[nowhere]"},
      {"cycle hanging from nothing",
       head + sdf_link("a") + sdf_link("b") +
           "<joint name='ab' type='revolute'><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>"
           "<joint name='ba' type='revolute'><parent>b</parent><child>a</child><axis><xyz>0 0 1</xyz></axis></joint></model></sdf>",
       "link 'a'", "form a cycle that hangs from nothing"},
      {"negative mass", head + sdf_link("a", "-3") + "</model></sdf>", "link 'a'", "mass -3 is negative"},
      {"screw joint", head + sdf_link("a") + "<joint name='j' type='screw'><parent>world</parent><child>a</child>"
                             "<axis><xyz>0 0 1</xyz></axis></joint></model></sdf>",
       "joint 'j'", "'screw' is not supported"},
      {"not SDFormat", "<robot name='r'/>", "document", "an SDFormat file has <sdf>"},
  };
}

std::vector<BrokenFile> broken_mjcf() {
  const std::string head = "<mujoco><compiler inertiafromgeom='false'/><worldbody>";
  const std::string body = "<body name='a'><joint name='j' type='hinge'/><inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/>";
  return {
      {"malformed XML", head + "<body name='a'></worldbody></mujoco>", "document", "broken XML"},
      {"missing inertial", head + "<body name='a'><joint name='j' type='hinge'/></body></worldbody></mujoco>",
       "body 'a'", "has no mass (no inertial)"},
      {"unknown joint type", head + "<body name='a'><joint name='j' type='hinge2'/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>",
       "joint 'j'", "unknown joint type 'hinge2'"},
      {"dangling body reference", head + body + "</body></worldbody><equality><connect body1='a' body2='nowhere' anchor='0 0 0'/></equality></mujoco>",
       "equality 'connect0'", "body2 'nowhere' is not a body"},
      {"negative mass", head + "<body name='a'><joint name='j'/><inertial mass='-1' diaginertia='1 1 1'/></body></worldbody></mujoco>",
       "body 'a' <inertial>", "mass -1 is negative"},
      {"joint lock (a joint equality without joint2)", head + body + "</body></worldbody><equality><joint joint1='j'/></equality></mujoco>", "equality 'joint0'",
       "has no joint2"},
      {"tendon equality", head + body + "</body></worldbody><equality><tendon tendon1='t'/></equality></mujoco>", "equality 'tendon0'",
       "not supported"},
      {"bad number", head + "<body name='a' pos='0 0 x'><joint/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>",
       "body 'a'", "pos=\"0 0 x\" is not a list of finite numbers"},
      {"unknown class", head + "<body name='a'><joint class='nope'/><inertial mass='1' diaginertia='1 1 1'/></body></worldbody></mujoco>",
       "<joint>", "class 'nope' is not defined"},
  };
}

void expect_refused(const std::vector<BrokenFile>& cases, const char* source,
                    const std::function<void(const std::string&)>& read) {
  for (const BrokenFile& c : cases) {
    try {
      read(c.text);
      ADD_FAILURE() << source << ": " << c.what << ": was accepted";
    } catch (const ModelError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(std::string(source) + ": " + c.element + ": ", 0), 0u) << c.what << ": " << message;
      EXPECT_NE(message.find(c.problem), std::string::npos) << c.what << ": " << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << c.what << ": " << message;
    }
  }
}

TEST(RobotFileErrors, UrdfReaderRefusesBrokenFilesNamingTheElement) {
  expect_refused(broken_urdf(), "r.urdf", [](const std::string& text) { read_urdf(text, "r.urdf"); });
}

TEST(RobotFileErrors, SdfReaderRefusesBrokenFilesNamingTheElement) {
  expect_refused(broken_sdf(), "m.sdf", [](const std::string& text) { read_sdf(text, "m.sdf"); });
}

TEST(RobotFileErrors, MjcfReaderRefusesBrokenFilesNamingTheElement) {
  expect_refused(broken_mjcf(), "m.xml", [](const std::string& text) { read_mjcf(text, "m.xml"); });
}

TEST(RobotFileErrors, SdfLinkWithoutInertialTakesTheFormatsDefaultWithAWarning) {
  // SDFormat defines a default inertial (1 kg, unit inertia): not an error, never silent.
  std::vector<std::string> warnings;
  const Model model = read_sdf("<sdf version='1.9'><model name='m'><link name='a'/></model></sdf>", "m.sdf", "", {}, &warnings);
  EXPECT_EQ(model.bodies[0].mass, 1.0);
  bool announced = false;
  for (const std::string& w : warnings) announced |= w.find("link 'a': has no <inertial>") != std::string::npos;
  EXPECT_TRUE(announced);
}

TEST(RobotFileErrors, ConvertPrintsOneLineExitsTwoAndWritesNothing) {
  using testing::run_cli;
  const struct {
    const char* name;
    std::string text, element;
  } files[] = {{"bad.urdf", broken_urdf()[2].text, "joint 'j'"},
               {"bad.sdf", broken_sdf()[3].text, "link 'a'"},
               {"bad.xml", broken_mjcf()[1].text, "body 'a'"}};
  for (const auto& f : files) {
    const std::string input = testing::write_temporary_file(f.name, f.text);
    const std::string output = testing::temporary_path("out.yaml");
    const testing::CliResult r = run_cli("convert " + input + " -o " + output);
    EXPECT_EQ(r.status, 2) << f.name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind("mechdyn: " + input + ": " + f.element + ": ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::ifstream(output).good()) << "output written for " << f.name;
  }
  // A model the output format cannot express: loops to URDF.
  const std::string urdf = testing::temporary_path("four_bar.urdf");
  const testing::CliResult r = run_cli("convert " + testing::source_path("examples/models/four_bar.yaml") + " -o " + urdf);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("loop 'coupler_rocker': URDF describes trees only"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(urdf).good());
  // Unknown output extension and a missing input file.
  EXPECT_EQ(run_cli("convert " + testing::source_path("examples/models/four_bar.yaml") + " -o x.txt").status, 2);
  EXPECT_EQ(run_cli("convert /nonexistent/robot.urdf -o x.yaml").status, 2);
}

}  // namespace
}  // namespace mechdyn
