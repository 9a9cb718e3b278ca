#!/usr/bin/env bash
# bench/record_overhead.sh: what recording to MCAP adds to a run's wall time
# (issue 16: at most 10 % on the 10 s demo).
#
#   bench/record_overhead.sh [-n RUNS] [-b SENSIM] [-d DURATION] [-t THREADS]
#
# Runs `SENSIM demo --out DIR --force` (plain) and the same with `--mcap FILE`
# (recorded) RUNS times each (default 5), alternating plain and recorded so
# that a drift of the machine's speed (other load, frequency scaling) falls
# on both alike, and prints each run's wall and CPU time, their medians,
# the ratios recorded / plain of the medians and the median of each run's. Outputs go to a scratch folder that is removed at
# the end. The demo writes its frames (PNG, PCD, CSV) in both variants; the
# difference is the recorder alone. Exit status 1 when the overhead is above
# 10 %.
set -euo pipefail

runs=5
sensim=build/sensim
duration=
threads=
while getopts "n:b:d:t:h" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    b) sensim=$OPTARG ;;
    d) duration=$OPTARG ;;
    t) threads=$OPTARG ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done
if [ ! -x "$sensim" ]; then
  echo "record_overhead: no $sensim (build first, or give -b SENSIM)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extra=()
if [ -n "$duration" ]; then extra+=(--duration "$duration"); fi
if [ -n "$threads" ]; then extra+=(--threads "$threads"); fi

# "wall cpu" of one command, s: elapsed, and user + system time of the
# process and its threads (bash's time keyword). The CPU time is what to
# look at on a machine that other work shares: it does not grow with the
# load, the wall time does.
wall() {
  local TIMEFORMAT='%3R %3U %3S' out
  out=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  echo "$out" | tail -n 1 | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
}

median() { sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

plain_cmd=("$sensim" demo --out "$work/plain" --force "${extra[@]}")
rec_cmd=("$sensim" demo --out "$work/rec" --force --mcap "$work/rec.mcap" "${extra[@]}")
echo "plain:    ${plain_cmd[*]}"
echo "recorded: ${rec_cmd[*]}"
echo "machine:  $(nproc) CPUs, $(uname -srm)"

load0=$(cut -d' ' -f1-3 /proc/loadavg)
# One warm-up run of each (page cache, first-touch of the output folders).
wall "${plain_cmd[@]}" >/dev/null
wall "${rec_cmd[@]}" >/dev/null

plain=(); rec=(); plain_cpu=(); rec_cpu=(); pairs=()
for ((i = 1; i <= runs; i++)); do
  # Alternate which goes first, so neither always follows the other.
  if ((i % 2)); then
    read -r p pc < <(wall "${plain_cmd[@]}"); read -r r rc < <(wall "${rec_cmd[@]}")
  else
    read -r r rc < <(wall "${rec_cmd[@]}"); read -r p pc < <(wall "${plain_cmd[@]}")
  fi
  plain+=("$p"); rec+=("$r"); plain_cpu+=("$pc"); rec_cpu+=("$rc")
  pairs+=("$(awk -v a="$r" -v b="$p" 'BEGIN {printf "%.3f", a / b}')")
  printf 'run %2d: plain %7.3f s (cpu %7.3f s)   recorded %7.3f s (cpu %7.3f s)   ratio %s\n' \
         "$i" "$p" "$pc" "$r" "$rc" "${pairs[-1]}"
done

pct() { awk -v r="$1" 'BEGIN {printf "%+.1f", (r - 1) * 100}'; }
mp=$(printf '%s\n' "${plain[@]}" | median)
mr=$(printf '%s\n' "${rec[@]}" | median)
mpc=$(printf '%s\n' "${plain_cpu[@]}" | median)
mrc=$(printf '%s\n' "${rec_cpu[@]}" | median)
size=$(stat -c %s "$work/rec.mcap")
ratio=$(awk -v a="$mr" -v b="$mp" 'BEGIN {printf "%.3f", a / b}')
cratio=$(awk -v a="$mrc" -v b="$mpc" 'BEGIN {printf "%.3f", a / b}')
echo "median wall time: plain $mp s, recorded $mr s; recorded / plain = $ratio ($(pct "$ratio") %)"
echo "median cpu time:  plain $mpc s, recorded $mrc s; recorded / plain = $cratio ($(pct "$cratio") %)"
echo "median of the runs' wall ratios: $(printf '%s\n' "${pairs[@]}" | median)"
echo "recording: $((size / 1024 / 1024)) MiB; load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v r="$ratio" 'BEGIN {exit !(r <= 1.10)}' || { echo "record_overhead: above 10 %" >&2; exit 1; }
