// Prescribed-motion CSV (parallel-manipulators.md contract). See the header.
#include "mechdyn/io/body_motion_csv.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "mechdyn/errors.hpp"

namespace mechdyn {

namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (char c : line) {
    if (c == ',') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(trim(cell));
  return cells;
}

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

}  // namespace

const std::vector<std::string>& body_motion_csv_columns() {
  static const std::vector<std::string> columns = {"t",  "px", "py", "pz", "qw", "qx",  "qy",  "qz",  "vx", "vy",
                                                   "vz", "wx", "wy", "wz", "ax", "ay", "az", "alx", "aly", "alz"};
  return columns;
}

std::vector<BodyMotionSample> parse_body_motion_csv(const std::string& text, const std::string& source) {
  const auto& names = body_motion_csv_columns();
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  // header: the first non-blank line
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    ++line_number;
    if (!trim(line).empty()) {
      header = split_cells(line);
      break;
    }
  }
  if (header.empty()) throw InvalidArgument(source + ": empty file (expected a header " + "t,px,py,pz,qw,... )");
  std::vector<int> where(names.size(), -1);
  for (std::size_t c = 0; c < header.size(); ++c) {
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (header[c] != names[k]) continue;
      if (where[k] >= 0)
        throw InvalidArgument(source + ": line " + std::to_string(line_number) + ": column '" + names[k] +
                              "' appears twice in the header");
      where[k] = static_cast<int>(c);
    }
  }
  std::string missing;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (where[k] < 0) missing += (missing.empty() ? "" : ", ") + names[k];
  if (!missing.empty())
    throw InvalidArgument(source + ": line " + std::to_string(line_number) + ": the header lacks the column" +
                          (missing.find(',') != std::string::npos ? "s " : " ") + missing +
                          " (the contract's columns: t,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,ax,ay,az,alx,aly,alz)");
  std::vector<BodyMotionSample> samples;
  double values[20];
  while (std::getline(in, line)) {
    ++line_number;
    if (trim(line).empty()) continue;
    const std::vector<std::string> cells = split_cells(line);
    const std::string at = source + ": line " + std::to_string(line_number);
    if (cells.size() != header.size())
      throw InvalidArgument(at + ": " + std::to_string(cells.size()) + " cells, the header has " +
                            std::to_string(header.size()));
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::string& cell = cells[static_cast<std::size_t>(where[k])];
      double value = 0.0;
      const auto result = std::from_chars(cell.data(), cell.data() + cell.size(), value);
      if (cell.empty() || result.ec == std::errc::invalid_argument || result.ptr != cell.data() + cell.size())
        throw InvalidArgument(at + ": column '" + names[k] + "': '" + cell + "' is not a number");
      if (result.ec == std::errc::result_out_of_range || !std::isfinite(value))
        throw InvalidArgument(at + ": column '" + names[k] + "': '" + cell + "' is not finite");
      values[k] = value;
    }
    BodyMotionSample s;
    s.time = values[0];
    s.position = Vec3(values[1], values[2], values[3]);
    s.orientation = Quat(values[4], values[5], values[6], values[7]);
    s.velocity = Vec3(values[8], values[9], values[10]);
    s.angular_velocity = Vec3(values[11], values[12], values[13]);
    s.acceleration = Vec3(values[14], values[15], values[16]);
    s.angular_acceleration = Vec3(values[17], values[18], values[19]);
    check_body_motion_sample(s, at);
    if (!samples.empty() && !(s.time > samples.back().time))
      throw InvalidArgument(at + " (t = " + number_text(s.time) + " s): times must increase strictly (the row before has t = " +
                            number_text(samples.back().time) + " s)");
    samples.push_back(s);
  }
  if (samples.empty()) throw InvalidArgument(source + ": no data row after the header");
  return samples;
}

std::vector<BodyMotionSample> read_body_motion_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(path + ": cannot open the motion file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_body_motion_csv(text.str(), path);
}

std::string write_body_motion_csv(const std::vector<BodyMotionSample>& samples) {
  std::string out;
  const auto& names = body_motion_csv_columns();
  for (std::size_t k = 0; k < names.size(); ++k) out += (k ? "," : "") + names[k];
  out += '\n';
  for (const BodyMotionSample& s : samples) {
    const double v[20] = {s.time,
                          s.position.x(), s.position.y(), s.position.z(),
                          s.orientation.w(), s.orientation.x(), s.orientation.y(), s.orientation.z(),
                          s.velocity.x(), s.velocity.y(), s.velocity.z(),
                          s.angular_velocity.x(), s.angular_velocity.y(), s.angular_velocity.z(),
                          s.acceleration.x(), s.acceleration.y(), s.acceleration.z(),
                          s.angular_acceleration.x(), s.angular_acceleration.y(), s.angular_acceleration.z()};
    for (int k = 0; k < 20; ++k) {
      if (k) out += ',';
      out += number_text(v[k]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace mechdyn
