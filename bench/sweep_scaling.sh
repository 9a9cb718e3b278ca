#!/usr/bin/env bash
# bench/sweep_scaling.sh: `sensim sweep` alone against the same sweep under
# 1, 2 and 3 MPI ranks on this machine, side by side in one run (issue 18),
# and the figures a projection to many nodes needs: work per run, bytes
# sent per run, dispatch cost per run.
#
#   bench/sweep_scaling.sh [-n REPS] [-b SENSIM] [-m MPIEXEC] [-r RUNS]
#
# Two sweeps, both written to a scratch folder that is removed at the end:
#   work      RUNS (default 24) seeds of examples/cart.json (3 s of a 16-beam
#             lidar written as ASCII PCD, GNSS, IMU): about 0.2 s per run;
#   overhead  400 runs of a 0.05 s scenario with one GNSS receiver: about
#             a millisecond of work each, so the time is the sweep's own
#             cost per run (planning, manifest, hand-out, records to rank 0).
# Each configuration runs REPS times (default 3), alternating the
# configurations within a repetition so that a drift of the machine falls
# on all alike; the table gives the median wall time (process start to
# exit, mpirun's start-up included), the median of the sweep's own time
# (timing.csv's header: from when the runs start to the tables written),
# and the speed-up of each against `alone, --threads 0`. Every
# configuration's files are compared with the first's (timing.csv aside):
# the bench fails if they differ.
set -euo pipefail

reps=3
sensim=build/sensim
mpiexec=$(command -v mpiexec || true)
runs=24
while getopts "n:b:m:r:h" opt; do
  case $opt in
    n) reps=$OPTARG ;;
    b) sensim=$OPTARG ;;
    m) mpiexec=$OPTARG ;;
    r) runs=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -x "$sensim" ]; then
  echo "sweep_scaling: no $sensim (build first, or give -b SENSIM)" >&2
  exit 2
fi
if [ -z "$mpiexec" ]; then
  echo "sweep_scaling: no mpiexec (apt-get install openmpi-bin, or give -m MPIEXEC)" >&2
  exit 2
fi
sensim=$(cd "$(dirname "$sensim")" && pwd)/$(basename "$sensim")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
over=()
if "$mpiexec" --version 2>&1 | grep -qiE "Open MPI|OpenRTE|open-mpi"; then over=(--oversubscribe); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/work.json" <<EOF
{"name": "work", "scenario": "$src/examples/cart.json",
 "axes": [{"seeds": {"first": 1, "count": $runs}}]}
EOF
cat >"$work/overhead.json" <<'EOF'
{"name": "overhead",
 "scenario": {"world": {"seed": 1}, "duration": 0.05,
   "bodies": [{"name": "cart", "motion": {"type": "line", "start": [0, 0, 0], "velocity": [1, 0, 0]}}],
   "sensors": [{"name": "gnss", "type": "gnss", "body": "cart", "rate": 100,
                "filters": [{"name": "gnss_noise"}], "output": {"format": "csv"}}]},
 "axes": [{"seeds": {"first": 1, "count": 400}}]}
EOF

configs=("alone -t0" "alone -t2" "mpi 1" "mpi 2" "mpi 3")
# run SWEEP CONFIG DIR: one invocation; prints "wall sweep" seconds.
run() {
  local sweep=$1 cfg=$2 dir=$3 t0 t1
  rm -rf "$dir"
  t0=$(date +%s.%N)
  case $cfg in
    "alone -t0") "$sensim" sweep "$work/$sweep.json" --out "$dir" --threads 0 >/dev/null ;;
    "alone -t2") "$sensim" sweep "$work/$sweep.json" --out "$dir" --threads 2 >/dev/null ;;
    mpi*) "$mpiexec" -n "${cfg#mpi }" "${over[@]}" "$sensim" sweep "$work/$sweep.json" --out "$dir" \
            --threads 0 >/dev/null ;;
  esac
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc -l) $(sed -n 's/^# ranks [0-9]*, wall time \([0-9.]*\) s$/\1/p' "$dir/timing.csv")"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for sweep in work overhead; do
  declare -A walls=() own=()
  for ((r = 0; r < reps; r++)); do
    for cfg in "${configs[@]}"; do
      read -r w s < <(run "$sweep" "$cfg" "$work/out")
      walls[$cfg]+="$w "
      own[$cfg]+="$s "
      if [ "$cfg" = "alone -t0" ] && [ "$r" -eq 0 ]; then
        rm -rf "$work/ref"
        cp -r "$work/out" "$work/ref"
      elif ! diff -r -q -x timing.csv "$work/ref" "$work/out" >/dev/null; then
        echo "sweep_scaling: $sweep under '$cfg' wrote other files than alone" >&2
        exit 1
      fi
    done
  done
  n=$(grep -c ',ran,' "$work/ref/timing.csv")
  per_run=$(awk -F, 'NR > 2 && $2 == "ran" { s += $6; n++ } END { printf "%.4f", s / n }' "$work/ref/timing.csv")
  rec=$(cat "$work"/ref/run_*/manifest.json | wc -c)
  bytes=$(du -sb "$work/ref" | cut -f1)
  echo
  echo "### $sweep: $n runs, $per_run s of work per run (alone), manifest $((rec / n)) bytes per run, $((bytes / n)) bytes of files per run"
  echo
  echo "| configuration | wall s (median of $reps) | sweep s (median) | speed-up, wall | speed-up, sweep | runs/s (sweep) |"
  echo "|---|---|---|---|---|---|"
  base_w=$(echo "${walls["alone -t0"]}" | tr ' ' '\n' | grep . | median)
  base_s=$(echo "${own["alone -t0"]}" | tr ' ' '\n' | grep . | median)
  for cfg in "${configs[@]}"; do
    w=$(echo "${walls[$cfg]}" | tr ' ' '\n' | grep . | median)
    s=$(echo "${own[$cfg]}" | tr ' ' '\n' | grep . | median)
    label=$cfg
    case $cfg in
      "alone -t0") label="alone, --threads 0" ;;
      "alone -t2") label="alone, --threads 2" ;;
      mpi*) label="mpiexec -n ${cfg#mpi }, --threads 0" ;;
    esac
    printf "| %s | %.3f | %.3f | %.2f | %.2f | %.0f |\n" "$label" "$w" "$s" "$(echo "$base_w / $w" | bc -l)" \
      "$(echo "$base_s / $s" | bc -l)" "$(echo "$n / $s" | bc -l)"
  done
  unset walls own
done
