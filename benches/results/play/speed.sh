#!/usr/bin/env bash
# Playback against `throng run` on the same device, size and crowd count, in alternating
# rounds: GPU ms a frame, the playback's CPU ms a frame on the calling thread (the first
# step, which reads everyone in, apart from the rest), peak resident memory; the playback with
# its pedestrians placed on the GPU (the default) and on the CPU. The crowds come from
# scripts/jupedsim-crowd.py (pedestrians crossing a square):
#   scripts/jupedsim-crowd.py --pedestrians 10000 --seconds 10 --fps 10 crowd10k.sqlite
#   scripts/jupedsim-crowd.py --pedestrians 100000 --seconds 4 --fps 5 crowd100k.sqlite
# Usage: benches/results/play/speed.sh THRONG DIR_WITH_THE_FILES [ROUNDS]
set -euo pipefail
T=${1:?the throng binary}
D=${2:?the folder holding crowd10k.sqlite and crowd100k.sqlite}
ROUNDS=${3:-3}
SIZE=(--width 640 --height 360)
for round in $(seq 1 "$ROUNDS"); do
  for n in 10000 100000; do
    file="$D/crowd$((n / 1000))k.sqlite"
    for state in gpu cpu; do
      echo "== round $round, $n: play --crowd-state $state"
      "$T" play "$file" --headless --quiet --frames 20 --fps 5 "${SIZE[@]}" \
        --crowd-state "$state" | grep -E "rendered|at most"
    done
    echo "== round $round, $n: run"
    "$T" run --headless --instances "$n" --frames 20 "${SIZE[@]}" --crowd-state cpu \
      | grep -E "^overall"
  done
done
