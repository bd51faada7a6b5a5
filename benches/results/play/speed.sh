#!/usr/bin/env bash
# Playback against `throng run` on the same device, size and crowd count, in alternating
# rounds: GPU ms a frame, the playback's CPU ms a frame on the calling thread, peak resident
# memory. The crowds come from scripts/jupedsim-crowd.py (pedestrians crossing a square):
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
    echo "== round $round, $n: play"
    "$T" play "$file" --headless --quiet --frames 8 --fps 5 "${SIZE[@]}" | grep -E "rendered|at most"
    echo "== round $round, $n: run"
    "$T" run --headless --instances "$n" --frames 8 "${SIZE[@]}" --crowd-state cpu \
      | grep -E "^overall"
  done
done
