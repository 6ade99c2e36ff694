# Sourced by the profile scripts (profile.sh, profile_codegen.sh, profile_closed_chain.sh):
# a temporary directory removed on exit and `instructions CMD...`, the total instructions
# (callgrind's Ir summary) of one command. Instruction counts do not depend on the load.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

instructions() {  # total Ir of one command under callgrind
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$@" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; return 1; }
  sed -n 's/^summary: *//p' "$tmp/out" | head -1
}
