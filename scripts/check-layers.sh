#!/usr/bin/env bash
# The library's layers include only downward (docs/dynamics.md, "Layers"): a file of
# layer L (include/mechdyn/L/, src/L/) may include headers of L and of the layers below it,
# never of a layer above. Prints every include that runs up and exits 1 if there is one.
# The top-level headers (mechdyn/errors.hpp, mechdyn/staged_directory.hpp) sit below every
# layer: any file may include them, and they include no layer.
#
#   bash scripts/check-layers.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Bottom first. Layers on one line are independent of each other (none includes another).
order=(math screw model kinematics dynamics simulation friction constraints "mobility parallel flexible evaluation codegen" analysis io)
declare -A rank
for i in "${!order[@]}"; do for layer in ${order[$i]}; do rank[$layer]=$i; done; done
# The one declared exception: model.hpp holds Body::flexible, whose description type lives
# in flexible/flexible_beam.hpp (it includes only math; its checks run in finalize_model).
allowed="model:flexible/flexible_beam.hpp"
status=0
for layer in "${!rank[@]}"; do
  for dir in "$root/include/mechdyn/$layer" "$root/src/$layer"; do
    [ -d "$dir" ] || continue
    while IFS= read -r line; do
      file=${line%%:*}
      target=$(sed -E 's/.*#include "(mechdyn\/|\.\.\/)([a-z_]+\/[a-z_]+\.hpp)".*/\2/' <<<"$line")
      other=${target%%/*}
      [ -n "${rank[$other]+x}" ] || continue
      if [ "${rank[$other]}" -gt "${rank[$layer]}" ] && [ "$layer:$target" != "$allowed" ]; then
        echo "${file#$root/}: layer '$layer' includes '$target' (layer '$other' is above it)"
        status=1
      fi
    done < <(grep -rHE '#include "(mechdyn/|\.\./)[a-z_]+/' "$dir" || true)
  done
done
exit $status
