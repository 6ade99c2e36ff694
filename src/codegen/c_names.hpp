// C identifiers and literals of `mechdyn codegen`. Not installed.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mechdyn::codegen {

/// `name` as a C identifier: every character outside [A-Za-z0-9_] becomes '_', a leading
/// digit gets a '_' in front; empty → "_".
inline std::string c_identifier(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(out.begin(), '_');
  return out;
}

/// True when `name` is a C identifier (and so usable as a prefix).
inline bool is_c_identifier(const std::string& name) { return !name.empty() && c_identifier(name) == name; }

/// A finite double as a C literal that reads back as the same double: the shortest of
/// %.15g, %.16g, %.17g that round-trips (at most 17 significant digits), with ".0" added
/// to an integer ("2" → "2.0") so it is a double literal.
inline std::string c_literal(double value) {
  char text[40];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  std::string out = text;
  if (out.find_first_of(".eEn") == std::string::npos) out += ".0";
  return out;
}

}  // namespace mechdyn::codegen
