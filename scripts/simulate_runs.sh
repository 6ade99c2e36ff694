# Sourced by the case-study scripts (benchmark_problems.sh, force_element_problems.sh):
# checks the mechdyn binary, installs matplotlib, prepares the output directory and
# defines run NAME ARGS... (one `mechdyn simulate` run; its CPU time, user + system from
# bash's `time`, appended to $out/cpu_times.txt; the tool's messages to $out/NAME.log).
# Before sourcing set: script (the caller's name, for messages), build, out.
mechdyn="$build/apps/mechdyn/mechdyn"
if [ ! -x "$mechdyn" ]; then
  echo "$script: no mechdyn at '$mechdyn' (build: cmake --build $build --target mechdyn_cli)" >&2
  exit 2
fi
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
mkdir -p "$out"
: > "$out/cpu_times.txt"

run() {
  local name=$1; shift
  local TIMEFORMAT='%U %S'
  { time "$mechdyn" simulate "$@" > "$out/$name.log" 2>&1; } 2> "$out/$name.time" || {
    echo "$script: mechdyn simulate $* failed:" >&2; cat "$out/$name.log" >&2; exit 3; }
  echo "$name $(awk '{ printf "%.3f", $1 + $2 }' "$out/$name.time")" >> "$out/cpu_times.txt"
  rm -f "$out/$name.time"
}
