// MJCF element helpers for the MJCF reader (mjcf_reader.cpp): attribute lookup through
// <default> classes, the compiler settings, orientations, and the mass properties MuJoCo
// derives from geoms (mjcf_elements.cpp). MuJoCo 2.2.2's XML reference is the contract.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <tinyxml2.h>

#include "mechdyn/math/types.hpp"

namespace mechdyn::io {

struct RigidPose {
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
  RigidPose operator*(const RigidPose& other) const {
    return {rotation * other.rotation, position + rotation * other.position};
  }
  Vec3 apply(const Vec3& point) const { return position + rotation * point; }
  RigidPose inverse() const { return {rotation.transpose(), -(rotation.transpose() * position)}; }
};

/// <compiler> settings that change what a file means.
struct MjcfCompiler {
  bool degrees = true;                 // angle="degree" (MuJoCo's default)
  std::string euler_sequence = "xyz";  // eulerseq
  std::string inertia_from_geom = "auto";  // inertiafromgeom: false | true | auto
  int inertia_group_low = 0, inertia_group_high = 5;  // inertiagrouprange
  double bound_mass = 0.0, bound_inertia = 0.0;
  bool balance_inertia = false;
  double total_mass = -1.0;  // settotalmass (≤ 0: not set)
  bool auto_limits = true;
};

/// The <default> classes of a file: attribute values by class, element kind and name,
/// each class inheriting from the one it is nested in ("main" at the top).
class MjcfDefaults {
 public:
  /// Reads every <default> below `root` (a <mujoco> element); throws ModelError for a
  /// class defined twice.
  void read(const tinyxml2::XMLElement* root, const std::string& source);
  /// The value of attribute `name` of `element` (kind = its tag): its own, else the
  /// element's class (its class attribute, else `active_class`), else that class's
  /// ancestors. std::nullopt when nowhere. Throws ModelError for an unknown class.
  std::optional<std::string> attribute(const tinyxml2::XMLElement* element, const std::string& active_class,
                                       const char* name, const std::string& source) const;

 private:
  struct Class {
    std::string parent;
    std::map<std::string, std::map<std::string, std::string>> values;  // kind → attribute → value
  };
  void read_class(const tinyxml2::XMLElement* element, const std::string& name, const std::string& parent,
                  const std::string& source);
  std::map<std::string, Class> classes_;
};

/// Reads attributes of one element through the defaults, strictly (finite numbers, exact
/// counts), naming the element in messages ("body 'torso'", "joint 'knee'").
class MjcfElement {
 public:
  MjcfElement(const tinyxml2::XMLElement* element, const MjcfDefaults& defaults, std::string active_class,
              std::string source, std::string name)
      : element_(element),
        defaults_(defaults),
        class_(std::move(active_class)),
        source_(std::move(source)),
        name_(std::move(name)) {}

  std::optional<std::string> text(const char* attribute) const;
  std::optional<std::vector<double>> numbers(const char* attribute) const;
  std::optional<std::vector<double>> numbers(const char* attribute, std::size_t count) const;
  double number(const char* attribute, double fallback) const;
  Vec3 vec3(const char* attribute, const Vec3& fallback) const;
  /// The frame the element's pos and orientation attributes (quat, axisangle, euler,
  /// xyaxes, zaxis: at most one) place it in, relative to its parent.
  RigidPose pose(const MjcfCompiler& compiler) const;
  bool explicitly_has(const char* attribute) const { return element_->Attribute(attribute) != nullptr; }

  [[noreturn]] void fail(const std::string& problem) const;
  int line() const { return element_->GetLineNum(); }
  const std::string& name() const { return name_; }
  const tinyxml2::XMLElement* element() const { return element_; }

 private:
  const tinyxml2::XMLElement* element_;
  const MjcfDefaults& defaults_;
  std::string class_;
  std::string source_;
  std::string name_;
};

/// Rotation taking the z axis onto the direction of `z` by the shortest arc (MuJoCo's
/// zaxis and fromto orientation); π about x when `z` points down −z.
Mat3 rotation_from_z(const Vec3& z);

/// Mass properties of one geom (MuJoCo's inertiafromgeom): mass, centre of mass and
/// inertia about it, both in the body frame. Solids of uniform density: sphere, capsule
/// (a cylinder and two hemispheres), cylinder, ellipsoid, box. Throws ModelError for a
/// mesh, plane or height field (their volume is not read here) and for bad sizes.
struct GeomMass {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};
GeomMass geom_mass(const MjcfElement& geom, const MjcfCompiler& compiler);

}  // namespace mechdyn::io
