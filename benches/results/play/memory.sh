#!/usr/bin/env bash
# Peak resident memory playing a 10-minute file against its first minute, in alternating
# rounds: the start only (8 frames) and the whole file streamed through (one frame every 2 s
# of file time, so every chunk is read). The files come from scripts/jupedsim-crowd.py
# (about 1,000 pedestrians present, 10 fps):
#   scripts/jupedsim-crowd.py --pedestrians 1000 --seconds 60 --fps 10 c1min.sqlite
#   scripts/jupedsim-crowd.py --pedestrians 1000 --seconds 600 --fps 10 c10min.sqlite
# Usage: benches/results/play/memory.sh THRONG DIR_WITH_THE_FILES [ROUNDS]
set -euo pipefail
T=${1:?the throng binary}
D=${2:?the folder holding c1min.sqlite and c10min.sqlite}
ROUNDS=${3:-3}
SIZE=(--width 320 --height 180)
for round in $(seq 1 "$ROUNDS"); do
  for f in c1min c10min; do
    echo "== round $round, $f: start"
    "$T" play "$D/$f.sqlite" --headless --quiet --frames 8 "${SIZE[@]}" | grep -E "format|rendered"
    echo "== round $round, $f: whole file"
    "$T" play "$D/$f.sqlite" --headless --quiet --fps 0.5 "${SIZE[@]}" | grep -E "rendered"
  done
done
