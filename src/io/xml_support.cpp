// XML helpers of the robot-description readers (xml_support.hpp).
#include "xml_support.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "mechdyn/errors.hpp"
#include "robot_graph.hpp"

namespace mechdyn::io {

std::string printable(const std::string& text, std::size_t longest) {
  std::string out;
  for (char c : text.substr(0, longest)) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
    else out += c;
  }
  if (text.size() > longest) out += "...";
  return out;
}

namespace {

// What went wrong, in words, for tinyxml2's error codes.
std::string describe(tinyxml2::XMLError error) {
  using namespace tinyxml2;
  switch (error) {
    case XML_ERROR_EMPTY_DOCUMENT: return "the file is empty";
    case XML_ERROR_MISMATCHED_ELEMENT: return "an element is closed by the wrong end tag, or not closed";
    case XML_ERROR_PARSING_ELEMENT: return "an element is not written correctly (unclosed tag?)";
    case XML_ERROR_PARSING_ATTRIBUTE: return "an attribute is not written correctly (name=\"value\")";
    case XML_ERROR_PARSING_TEXT: return "text is not written correctly";
    case XML_ERROR_PARSING_CDATA: return "a CDATA section is not written correctly";
    case XML_ERROR_PARSING_COMMENT: return "a comment is not closed";
    case XML_ERROR_PARSING_DECLARATION: return "the <?xml ...?> declaration is not written correctly";
    case XML_ERROR_PARSING_UNKNOWN: return "unknown markup";
    case XML_ERROR_PARSING: return "the document does not parse";
    case XML_ELEMENT_DEPTH_EXCEEDED: return "elements are nested too deeply";
    default: return std::string("tinyxml2 error ") + XMLDocument::ErrorIDToName(error);
  }
}

}  // namespace

std::unique_ptr<tinyxml2::XMLDocument> parse_xml(const std::string& text, const std::string& source) {
  auto document = std::make_unique<tinyxml2::XMLDocument>(true, tinyxml2::COLLAPSE_WHITESPACE);
  const tinyxml2::XMLError error = document->Parse(text.data(), text.size());
  if (error != tinyxml2::XML_SUCCESS) fail_at(source, "document", "broken XML: " + describe(error), document->ErrorLineNum());
  if (document->RootElement() == nullptr) fail_at(source, "document", "broken XML: the file has no element");
  return document;
}

std::string xml_root_name(const std::string& text, const std::string& source) {
  return parse_xml(text, source)->RootElement()->Name();
}

std::optional<std::vector<double>> parse_numbers(const std::string& text) {
  std::vector<double> values;
  std::istringstream in(text);
  std::string token;
  while (in >> token) {
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
    values.push_back(value);
  }
  return values;
}

std::optional<std::string> XmlAttributes::text(const char* attribute) const {
  const char* value = element_->Attribute(attribute);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

void XmlAttributes::fail(const std::string& problem) const { fail_at(source_, name_, problem, line()); }

std::optional<std::vector<double>> XmlAttributes::numbers(const char* attribute) const {
  const std::optional<std::string> value = text(attribute);
  if (!value) return std::nullopt;
  const std::optional<std::vector<double>> parsed = parse_numbers(*value);
  if (!parsed)
    fail(std::string(attribute) + "=\"" + printable(*value) + "\" is not a list of finite numbers");
  return parsed;
}

std::optional<std::vector<double>> XmlAttributes::numbers(const char* attribute, std::size_t count) const {
  const std::optional<std::vector<double>> values = numbers(attribute);
  if (values && values->size() != count)
    fail(std::string(attribute) + "=\"" + printable(*text(attribute)) + "\" has " + std::to_string(values->size()) +
         (values->size() == 1 ? " number" : " numbers") + ", expected " + std::to_string(count));
  return values;
}

std::optional<double> XmlAttributes::number(const char* attribute) const {
  const std::optional<std::vector<double>> values = numbers(attribute, 1);
  if (!values) return std::nullopt;
  return (*values)[0];
}

std::optional<Vec3> XmlAttributes::vec3(const char* attribute) const {
  const std::optional<std::vector<double>> values = numbers(attribute, 3);
  if (!values) return std::nullopt;
  return Vec3((*values)[0], (*values)[1], (*values)[2]);
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace mechdyn::io
