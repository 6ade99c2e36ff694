// SDFormat in (docs/robot-files.md "SDFormat"), with Debian's libsdformat (version 12).
//
// sdformat resolves every pose (the `relative_to` frame graph) to the model frame; from
// there the natural-frame mapping is the common one (robot_files.hpp). SDFormat states
// what is fixed: a link jointed to "world" hangs from ground, a link of a non-static model
// that no joint holds is free (a free joint), a static model is welded to ground.
// A joint whose child link already hangs from an earlier joint CLOSES A LOOP: it becomes a
// mechdyn cut joint (revolute, prismatic, universal, ball → spherical, fixed) at the
// joint's position, so closed chains load as they are written (Drake's SDFormat parser
// refuses them, drake#18803).
#pragma once

#include <string>
#include <vector>

#include "mechdyn/io/robot_files.hpp"
#include "mechdyn/model/model.hpp"

namespace mechdyn {

/// Reads SDFormat text (<sdf> with one <model>, or a <world> with one <model>).
/// `base_directory` resolves relative <include> URIs; empty: includes are refused.
Model read_sdf(const std::string& text, const std::string& source, const std::string& base_directory = "",
               const ImportOptions& options = {}, std::vector<std::string>* warnings = nullptr);

/// Reads the SDFormat file at `path` (whatever its extension); includes resolve against
/// its directory. Throws ModelError "<path>: <element>: <problem> (line N)".
Model load_sdf(const std::string& path, const ImportOptions& options = {},
               std::vector<std::string>* warnings = nullptr);

}  // namespace mechdyn
