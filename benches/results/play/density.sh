#!/usr/bin/env bash
# Colouring by density with the pedestrians placed on the GPU (the neighbours counted there),
# against the same on the CPU (counted there) and against colouring by speed on the GPU (what
# the counting passes cost), in alternating rounds (the order turns each round): GPU ms a
# frame and the calling thread's playback ms a frame (the first step, which reads everyone
# in, apart from the rest). The files as for speed.sh (scripts/jupedsim-crowd.py).
# Usage: benches/results/play/density.sh THRONG DIR_WITH_THE_FILES [ROUNDS]
set -euo pipefail
T=${1:?the throng binary}
D=${2:?the folder holding crowd10k.sqlite and crowd100k.sqlite}
ROUNDS=${3:-3}
configs=("density gpu" "density cpu" "speed gpu")
for round in $(seq 1 "$ROUNDS"); do
  for n in 10 100; do
    for k in 0 1 2; do
      read -r by state <<<"${configs[$(((k + round) % 3))]}"
      echo "== round $round, ${n}k: play --color-by $by --crowd-state $state"
      "$T" play "$D/crowd${n}k.sqlite" --headless --quiet --frames 20 --fps 5 \
        --width 640 --height 360 --color-by "$by" --crowd-state "$state" | grep -E "^rendered"
    done
  done
done
