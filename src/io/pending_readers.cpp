// Temporary: the SDFormat and MJCF readers land in the next commits.
#include "mechdyn/errors.hpp"
#include "mechdyn/io/mjcf.hpp"
#include "mechdyn/io/sdf.hpp"

namespace mechdyn {
Model read_sdf(const std::string&, const std::string& source, const std::string&, const ImportOptions&,
               std::vector<std::string>*) {
  throw ModelError(source + ": document: reading SDFormat is not implemented yet");
}
Model read_mjcf(const std::string&, const std::string& source, const std::string&, const ImportOptions&,
                std::vector<std::string>*) {
  throw ModelError(source + ": document: reading MJCF is not implemented yet");
}
}  // namespace mechdyn
