#!/usr/bin/env bash
# tests/sweep_ranks/run.sh SENSIM MPIEXEC SOURCE_DIR WORK_DIR
#
# `sensim sweep` alone, under 1 MPI rank and under 3 (more ranks than this
# machine's cores: Open MPI is told to oversubscribe) writes the same bytes
# apart from timing.csv, for three sweeps: examples/sweep.json (a scenario
# over seeds and model variants), a VEPD sweep (the experiment's table and
# histograms reduced from every rank's runs) and one whose failing runs are
# recorded while the others go on, and a camera-stage ablation. Then reruns: a complete sweep under 2
# ranks runs nothing and leaves the files as they were; the failing sweep's
# rerun redoes its failed runs alone.
set -u
sensim=$1 mpiexec=$2 src=$3 work=$4
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rm -rf "$work"
mkdir -p "$work"
# Open MPI refuses root without these (CI runs as root) and more ranks
# than cores without --oversubscribe. Its libraries keep allocations to
# exit, so LeakSanitizer is off for the ranks (on for the run alone).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
extra=()
if "$mpiexec" --version 2>&1 | grep -qiE "Open MPI|OpenRTE|open-mpi"; then extra=(--oversubscribe); fi
mpi_env=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")

# run NAME WANT_RC -- COMMAND...: run it, log to $work/NAME.log, check the exit code.
run() {
  local name=$1 want=$2
  shift 3
  "$@" >"$work/$name.log" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit code $rc, expected $want"
    sed 's/^/    /' "$work/$name.log" | tail -n 20
  fi
}

# same A B: the two trees hold the same files with the same bytes, timing.csv aside.
same() {
  if ! diff -r -q -x timing.csv "$1" "$2" >"$work/diff.log" 2>&1; then
    fail "$1 and $2 differ:"
    head -n 20 "$work/diff.log" | sed 's/^/    /'
  fi
}

# ranks_in DIR N: timing.csv says N ranks and names no rank outside 0..N-1.
ranks_in() {
  local t=$1/timing.csv n=$2
  grep -q "^# ranks $n," "$t" || fail "$t: header does not say $n ranks"
  awk -F, -v n="$n" 'NR > 2 && $2 == "ran" && ($3 < 0 || $3 >= n) { bad = 1 } END { exit bad }' "$t" ||
    fail "$t: a run on a rank outside 0..$((n - 1))"
}

for sweep in example vepd ablation failing; do
  case $sweep in
    example) file=$src/examples/sweep.json want=0 ;;
    vepd) file=$src/tests/sweep_ranks/vepd.json want=0 ;;
    ablation) file=$src/tests/sweep_ranks/ablation.json want=0 ;;
    failing) file=$src/tests/sweep_ranks/failing.json want=1 ;;
  esac
  d=$work/$sweep
  run "$sweep-alone" "$want" -- "$sensim" sweep "$file" --out "$d.alone"
  run "$sweep-1" "$want" -- "${mpi_env[@]}" "$mpiexec" -n 1 "${extra[@]}" "$sensim" sweep "$file" --out "$d.1"
  run "$sweep-3" "$want" -- "${mpi_env[@]}" "$mpiexec" -n 3 "${extra[@]}" "$sensim" sweep "$file" --out "$d.3"
  [ -s "$d.alone/summary.csv" ] || fail "$sweep: no summary.csv"
  same "$d.alone" "$d.1"
  same "$d.alone" "$d.3"
  ranks_in "$d.alone" 1
  ranks_in "$d.1" 1
  ranks_in "$d.3" 3
done

# The example's runs differ where their seeds and variants say they should:
# the GNSS files by seed and GNSS model alone (4 distinct), the IMU files by
# seed and IMU grade alone (4 distinct), so that each run is its own.
distinct() { md5sum "$work"/example.alone/run_000?/"$1" | cut -d' ' -f1 | sort -u | wc -l; }
[ "$(distinct gnss/gnss.csv)" -eq 4 ] && [ "$(distinct imu/imu.csv)" -eq 4 ] &&
  [ "$(for r in "$work"/example.alone/run_000?; do cat "$r/gnss/gnss.csv" "$r/imu/imu.csv" | md5sum; done |
       sort -u | wc -l)" -eq 8 ] ||
  fail "example: the runs' GNSS and IMU files do not vary with their seeds and variants alone"
# The VEPD sweep reduced the experiment's table and histograms.
[ -s "$work/vepd.3/vepd_table.csv" ] && [ -s "$work/vepd.3/hist_rmse_straight_0000.png" ] ||
  fail "vepd: no table or histograms"
# The ablation's runs rendered images that differ with their variant and seed.
[ "$(md5sum "$work"/ablation.alone/run_000[0-5]/*/*.png 2>/dev/null | cut -d' ' -f1 | sort -u | wc -l)" -eq 6 ] ||
  fail "ablation: its 6 runs did not render 6 different images"
# The failing sweep recorded 3 failed runs with the filter's message.
[ "$(grep -c ',failed,' "$work/failing.3/summary.csv")" -eq 3 ] || fail "failing: expected 3 failed rows"
grep -q 'sigma\[0\] = -1' "$work/failing.3/run_0001/manifest.json" || fail "failing: run_0001's error not recorded"

# Reruns: nothing to do for a complete sweep; the files stay the same bytes.
run example-rerun 0 -- "${mpi_env[@]}" "$mpiexec" -n 2 "${extra[@]}" "$sensim" sweep "$src/examples/sweep.json" \
  --out "$work/example.3"
grep -q "8 complete from before, 0 to run" "$work/example-rerun.log" || fail "example rerun ran runs again"
same "$work/example.alone" "$work/example.3"
# The failing sweep's rerun redoes the 3 failed runs and keeps the rest.
run failing-rerun 1 -- "${mpi_env[@]}" "$mpiexec" -n 2 "${extra[@]}" "$sensim" sweep \
  "$src/tests/sweep_ranks/failing.json" --out "$work/failing.3"
grep -q "3 complete from before, 3 to run" "$work/failing-rerun.log" || fail "failing rerun did not redo 3 runs"
same "$work/failing.alone" "$work/failing.3"
# Another sweep's folder is refused, under MPI too, and left alone.
run refuse 1 -- "${mpi_env[@]}" "$mpiexec" -n 2 "${extra[@]}" "$sensim" sweep "$src/tests/sweep_ranks/failing.json" \
  --out "$work/example.alone"
grep -q "sweep" "$work/refuse.log" || fail "refusal without a message"
same "$work/example.alone" "$work/example.1"

# A sweep file that does not load fails on every rank before anything is
# made, with rank 0's message once.
run missing 1 -- "${mpi_env[@]}" "$mpiexec" -n 2 "${extra[@]}" "$sensim" sweep "$work/missing.json" --out "$work/m"
[ "$(grep -c 'missing.json' "$work/missing.log")" -eq 1 ] || fail "missing sweep file: not one message naming it"
[ ! -e "$work/m" ] || fail "missing sweep file: the output folder was made"

if [ "$fails" -eq 0 ]; then echo "sweep_ranks: every check passed"; else echo "sweep_ranks: $fails checks failed"; fi
[ "$fails" -eq 0 ]
