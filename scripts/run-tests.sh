#!/usr/bin/env bash
# Builds every test target and runs the test binaries a few at a time, then the documentation
# tests: what `cargo test` does, but `cargo test` runs its binaries one after another, and
# several of throng's keep a single core busy for a minute (a long session of small frames,
# an example stepped and counted frame by frame) while the other cores idle.
#
#   scripts/run-tests.sh [cargo test arguments]     e.g. --locked --features assimp
#
# TEST_JOBS says how many binaries run at once (default: the number of cores). Each binary's
# output is printed whole when it finishes, so two binaries never interleave. One test or one
# file is still `cargo test NAME` or `cargo test --test FILE`.
set -euo pipefail

cargo=${CARGO:-cargo}
jobs=${TEST_JOBS:-$(nproc)}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "run-tests.sh: TEST_JOBS must be a positive number, not '$jobs'" >&2
  exit 2
fi

# Started first, slowest first (as measured on lavapipe), so that no long binary is left to
# run alone at the end. This only orders them: every test binary runs either way.
slow_first=(
  gpu_mesh_raster gpu_compute_picture gpu_soak example_steering_crowd gpu_no_alloc gpu_skin
  gpu_impostor_picture gpu_play gpu_crowd_state gpu_culling gpu_window gpu_variety
)

# The build, with cargo's own messages (a compile error reads as it always does).
"$cargo" test "$@" --no-run

work=$(mktemp -d "${TMPDIR:-/tmp}/throng-tests.XXXXXX")
cleanup() {
  local pids
  pids=$(jobs -p)
  [[ -z $pids ]] || kill $pids 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# What was built, from cargo's machine-readable list (a second call, which builds nothing):
# every artifact compiled as a test harness with an executable.
"$cargo" test "$@" --no-run --message-format=json >"$work/artifacts.json"
names=()
shown=()
exes=()
while IFS= read -r line; do
  [[ $line == *'"reason":"compiler-artifact"'* ]] || continue
  [[ $line =~ \"profile\":\{[^}]*\"test\":true ]] || continue
  [[ $line =~ \"executable\":\"([^\"]+)\" ]] || continue
  exe=${BASH_REMATCH[1]}
  [[ $line =~ \"target\":\{[^}]*\"name\":\"([^\"]+)\" ]] || continue
  name=${BASH_REMATCH[1]}
  [[ $line =~ \"src_path\":\"([^\"]+)\" ]] || continue
  src=${BASH_REMATCH[1]#"$PWD/"}
  [[ $line =~ \"kind\":\[\"test\"\] ]] || src="unittests $src"
  names+=("$name")
  shown+=("$src")
  exes+=("$exe")
done <"$work/artifacts.json"
if ((${#exes[@]} == 0)); then
  echo "run-tests.sh: cargo listed no test binaries" >&2
  exit 1
fi

# The order: the known slow ones first, then the rest as cargo listed them.
order=()
for slow in "${slow_first[@]}"; do
  for i in "${!names[@]}"; do
    [[ ${names[i]} == "$slow" ]] && order+=("$i")
  done
done
for i in "${!names[@]}"; do
  [[ " ${slow_first[*]} " == *" ${names[i]} "* ]] || order+=("$i")
done

start() {
  local i=$1
  (
    began=$EPOCHREALTIME
    set +e
    "${exes[i]}" </dev/null >"$work/$i.log" 2>&1
    rc=$?
    echo "$rc $began $EPOCHREALTIME" >"$work/$i.done"
  ) &
}

failed=()
report() {
  local i=$1 rc began ended
  read -r rc began ended <"$work/$i.done"
  printf '     Running %s (%s), %s s\n' "${shown[i]}" "${exes[i]#"$PWD/"}" \
    "$(awk -v a="$began" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')"
  cat "$work/$i.log"
  if ((rc != 0)); then
    failed+=("${shown[i]} (exit status $rc)")
  fi
}

echo "run-tests.sh: ${#exes[@]} test binaries, $jobs at a time"
suite_began=$EPOCHREALTIME
running=()
next=0
while ((next < ${#order[@]} || ${#running[@]} > 0)); do
  while ((${#running[@]} < jobs && next < ${#order[@]})); do
    start "${order[next]}"
    running+=("${order[next]}")
    next=$((next + 1))
  done
  wait -n || true
  still=()
  for i in "${running[@]}"; do
    if [[ -e $work/$i.done ]]; then
      report "$i"
    else
      still+=("$i")
    fi
  done
  running=("${still[@]}")
done
wait
binaries_s=$(awk -v a="$suite_began" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
echo "run-tests.sh: the test binaries took ${binaries_s} s"

# The examples in the documentation.
"$cargo" test "$@" --doc || failed+=("the documentation tests")

if ((${#failed[@]} > 0)); then
  echo "run-tests.sh: ${#failed[@]} failed:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "run-tests.sh: all ${#exes[@]} test binaries and the documentation tests passed"
