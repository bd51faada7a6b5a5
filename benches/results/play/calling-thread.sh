#!/usr/bin/env bash
# The calling thread's playback work per frame with the pedestrians placed on the GPU, at
# 10,000 and 100,000, in alternating rounds: the first step (a seek: everyone present read
# in) and the mean of the rest (the chunks read ahead on the reader's thread, taken when due).
# The files as for speed.sh. Usage: benches/results/play/calling-thread.sh THRONG DIR [ROUNDS]
set -euo pipefail
T=${1:?the throng binary}
D=${2:?the folder holding crowd10k.sqlite and crowd100k.sqlite}
ROUNDS=${3:-5}
for round in $(seq 1 "$ROUNDS"); do
  for n in 10 100; do
    echo "== round $round, ${n}k"
    "$T" play "$D/crowd${n}k.sqlite" --headless --quiet --frames 40 --fps 10 \
      --width 320 --height 180 --crowd-state gpu | grep -E "^rendered"
  done
done
