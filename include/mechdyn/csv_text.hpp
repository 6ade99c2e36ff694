// One CSV field as RFC 4180 writes it: the CLI's CSV output and the library's sweep rows
// share it (a field that holds a comma, a double quote, CR or LF, or begins or ends with a
// space is quoted, its double quotes doubled). Any layer may include it.
#pragma once

#include <string>

namespace mechdyn {

std::string csv_field(const std::string& text);

}  // namespace mechdyn
