// XML helpers shared by the URDF, SDFormat and MJCF readers (tinyxml2, Debian's
// libtinyxml2-dev): parsing with a one-line message carrying the line number, and
// numeric attributes read strictly (every token a finite decimal number, the count
// exact), so that "nan", "1e999" or "0.1 0.2" where three numbers belong is an error
// naming the element, the attribute and the line.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "mechdyn/math/types.hpp"

namespace mechdyn::io {

/// Parses XML text; throws ModelError "<source>: document: broken XML: <what> (line N)".
std::unique_ptr<tinyxml2::XMLDocument> parse_xml(const std::string& text, const std::string& source);

/// Name of the root element of XML text ("robot", "sdf", "mujoco"); throws like parse_xml.
std::string xml_root_name(const std::string& text, const std::string& source);

/// Reads numeric attributes of one element, naming it in messages ("joint 'j1'").
class XmlAttributes {
 public:
  XmlAttributes(const tinyxml2::XMLElement* element, std::string source, std::string name)
      : element_(element), source_(std::move(source)), name_(std::move(name)) {}

  bool has(const char* attribute) const { return element_->Attribute(attribute) != nullptr; }
  std::optional<std::string> text(const char* attribute) const;
  /// All whitespace-separated numbers of the attribute (finite), std::nullopt when absent.
  std::optional<std::vector<double>> numbers(const char* attribute) const;
  /// Exactly `count` numbers, or an error.
  std::optional<std::vector<double>> numbers(const char* attribute, std::size_t count) const;
  std::optional<double> number(const char* attribute) const;
  std::optional<Vec3> vec3(const char* attribute) const;

  [[noreturn]] void fail(const std::string& problem) const;
  int line() const { return element_->GetLineNum(); }
  const std::string& name() const { return name_; }
  const std::string& source() const { return source_; }

 private:
  const tinyxml2::XMLElement* element_;
  std::string source_;
  std::string name_;
};

/// Parses whitespace-separated finite numbers; std::nullopt at the first bad token.
std::optional<std::vector<double>> parse_numbers(const std::string& text);

/// A user string fit for a one-line message (control characters escaped, long text cut).
std::string printable(const std::string& text, std::size_t longest = 80);

/// Text fit for an XML attribute value (& < > " as entities): the MJCF and URDF writers.
std::string xml_escaped(const std::string& text);

}  // namespace mechdyn::io
