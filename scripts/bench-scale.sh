#!/usr/bin/env bash
# Measures what culling, mesh levels, baked animation and impostor cards buy: `throng bench
# frame` for each crowd size and camera, with everything on, with cards off, with levels (and
# cards) off, and as the renderer drew before all of them (levels, culling and cards off,
# every palette exact), with the crowd in place (--layout grid,
# as they were measured), in alternating rounds so that a machine
# whose speed drifts treats each setting alike. One JSON line per run in OUT (default
# benches/results/scale/runs.jsonl); docs/crowds-at-scale.md tabulates them.
#
#   scripts/bench-scale.sh [MODEL] [SIZES] [CAMERAS] [ROUNDS]
#   e.g. scripts/bench-scale.sh builtin 10000 "overview street" 2
#   SETTINGS="on lod-off" FRAMES=1 scripts/bench-scale.sh builtin 100000 "overview street" 1
#   SETTINGS="on cards-off" WIDTH=640 HEIGHT=360 scripts/bench-scale.sh builtin 10000 overview 2
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-builtin}
sizes=${2:-10000}
cameras=${3:-"overview street"}
rounds=${4:-2}
out=${OUT:-benches/results/scale/runs.jsonl}
width=${WIDTH:-1280}
height=${HEIGHT:-720}
frames=${FRAMES:-2}
throng=${THRONG:-target/release/throng}
# One sample per pixel unless MSAA says otherwise: the published figures were taken so.
mkdir -p "$(dirname "$out")"
declare -A settings=(
  [on]=""
  [cards-off]="--impostors off"
  [lod-off]="--lod off --impostors off"
  [before]="--lod off --cull off --animation exact --impostors off"
)
for round in $(seq 1 "$rounds"); do
  for size in $sizes; do
    for camera in $cameras; do
      for name in ${SETTINGS:-on cards-off lod-off before}; do
        # shellcheck disable=SC2086
        if line=$("$throng" bench frame "$model" --instances "$size" --camera "$camera" --layout grid \
          --width "$width" --height "$height" --frames "$frames" --warmup 1 --json --msaa "${MSAA:-1}" \
          ${settings[$name]} | tr -d '\n'); then
          echo "{\"round\": $round, \"setting\": \"$name\", \"report\": $line}" >> "$out"
          echo "round $round $size $camera $name done" >&2
        else
          echo "round $round $size $camera $name FAILED" >&2
        fi
      done
    done
  done
done
