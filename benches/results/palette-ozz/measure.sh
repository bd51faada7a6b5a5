#!/usr/bin/env bash
# Palette throughput against ozz-animation 0.16 and across joint counts, in one script with
# alternating rounds (issue 12). Rerun on a quiet machine to refresh the README's tables:
#   benches/results/palette-ozz/measure.sh OZZ_GIT_DIR [ROUNDS] [CLOCK]
# OZZ_GIT_DIR: a git directory of github.com/guillaumeblanc/ozz-animation (the project's
# ../shared/tools/ozz-side/README.md says how to get one). CLOCK: cpu (default: processor
# time, robust to other programs on the machine) or wall. Writes *.txt beside this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
git_dir=$1; rounds=${2:-7}; clock=${3:-cpu}
side=$repo/../shared/tools/ozz-side
ozz=$("$side/build.sh" "$git_dir" "${OZZ_OUT:-/tmp/throng-ozz}" | tail -1)
(cd "$repo" && cargo build --release --locked)
throng=$repo/target/release/throng
robot=$repo/../shared/assets/gltf/robot.glb
cd "$side"   # ozz_side reads its .ozz files from here

# 1. Robot_Running, one thread, per character against ozz, alternating round by round.
for n in 1000 10000 100000; do
  "$throng" bench sweep "$robot" --clip Robot_Running --threads 1 --instances $n \
    --seconds 2 --repeat "$rounds" --clock "$clock" \
    --versus "$ozz robot_skeleton.ozz robot_running.ozz $n 3x4 2.0"
done 2>&1 | tee "$here/robot-vs-ozz-$clock.txt"

# 2. Joint counts 8..128 (generated tree, evenly keyed), one thread, 10,000 instances: the
#    crowd's stores (direct from the lanes, streaming) against staged ones copied out lane
#    after lane (the suspected write-combining slow mode would show as dips in the first).
joints=$(seq -s, 8 1 128)
for stores in auto staged-streaming; do
  echo "== stores $stores"
  "$throng" bench sweep --joints "$joints" --threads 1 --instances 10000 --seconds 0.3 \
    --repeat 3 --clock "$clock" --stores $stores --svg "$here/joints-$stores.svg"
done 2>&1 | tee "$here/joints-$clock.txt"

# 3. The issue's case: 24 joints around the streaming threshold, each store kind, both
#    clocks (wall: joints_per_s, processor: joints_per_cpu_s), alternating.
for round in $(seq "$rounds"); do
  for n in 7000 7500 10000; do
    for stores in cached streaming staged-cached staged-streaming; do
      echo "$round $n $stores $("$throng" bench palette --synthetic-joints 24 --instances $n \
        --threads 1 --seconds 0.5 --stores $stores --json | tr -d '\n ')"
    done
  done
done 2>&1 | tee "$here/stores-24-joints.txt"

# 4. Two threads against one, wall clock (processor time cannot show a speed-up).
"$throng" bench sweep "$robot" --clip Robot_Running --threads 1,2 --instances 10000,100000 \
  --seconds 2 --repeat "$rounds" --clock wall 2>&1 | tee "$here/threads-wall.txt"
