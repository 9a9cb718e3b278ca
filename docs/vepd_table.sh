#!/bin/sh
# docs/vepd_table.sh: regenerate the results tables of docs/vepd.md from
# `sensim vepd-experiment`, so the page cannot drift from what the program
# prints. Each table sits between a begin and an end marker line:
#   <!-- vepd-table: ARGS -->   (ARGS: the vepd-experiment options)
#   ...the command's output, in a code block...
#   <!-- vepd-table: end -->
#
# usage: sh docs/vepd_table.sh SENSIM [--check]
#   SENSIM   the sensim program (e.g. build/sensim)
#   --check  do not write: exit 1 if a table differs from a fresh run
# Run from anywhere; the page is found next to this script.
set -eu
if [ $# -lt 1 ]; then
  echo "usage: sh docs/vepd_table.sh SENSIM [--check]" >&2
  exit 2
fi
sensim=$1
check=${2:-}
doc=$(dirname "$0")/vepd.md
[ -x "$sensim" ] || { echo "vepd_table.sh: $sensim is not an executable" >&2; exit 2; }
[ -f "$doc" ] || { echo "vepd_table.sh: no $doc" >&2; exit 2; }
tmp=$(mktemp)
out=$(mktemp)
trap 'rm -f "$tmp" "$out"' EXIT
# Copy the page, replacing each marked block by a fresh run of its command.
inblock=0
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    "<!-- vepd-table: end -->")
      inblock=0
      printf '%s\n' "$line" >>"$tmp"
      ;;
    "<!-- vepd-table: "*" -->")
      args=${line#"<!-- vepd-table: "}
      args=${args%" -->"}
      printf '%s\n' "$line" >>"$tmp"
      printf '```\n$ sensim vepd-experiment %s\n' "$args" >>"$tmp"
      # shellcheck disable=SC2086  # ARGS are words on purpose
      if ! "$sensim" vepd-experiment $args >"$out" 2>&1; then
        echo "vepd_table.sh: sensim vepd-experiment $args failed:" >&2
        cat "$out" >&2
        exit 1
      fi
      cat "$out" >>"$tmp"
      printf '```\n' >>"$tmp"
      inblock=1
      ;;
    *)
      [ "$inblock" -eq 1 ] || printf '%s\n' "$line" >>"$tmp"
      ;;
  esac
done <"$doc"
if [ "$inblock" -eq 1 ]; then
  echo "vepd_table.sh: $doc: a table has no end marker" >&2
  exit 1
fi
if [ "$check" = "--check" ]; then
  if ! cmp -s "$tmp" "$doc"; then
    echo "vepd_table.sh: $doc differs from a fresh run; regenerate with: sh docs/vepd_table.sh $sensim" >&2
    diff "$doc" "$tmp" >&2 || true
    exit 1
  fi
  exit 0
fi
cp "$tmp" "$doc"
