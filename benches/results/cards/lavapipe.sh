#!/usr/bin/env bash
# Cards rasterized in compute against cards drawn as quads on this machine's device (lavapipe
# here), alternating rounds: per round, each way from the overview and from the street at
# 640x360, every crowd size in one process. Prints a "## RASTER CAMERA rROUND" line before
# each run's `bench frame --json` output (benches/results/gpu/summarize.py reads the same
# layout; summary.py beside this script prints frame times per way, camera and size).
#
#   benches/results/cards/lavapipe.sh > results.txt
#   ROUNDS=3 SIZES=10000 benches/results/cards/lavapipe.sh > results.txt
set -euo pipefail
cd "$(dirname "$0")/../../.."
throng=${THRONG:-target/release/throng}
rounds=${ROUNDS:-3}
sizes=${SIZES:-10000,100000}
for round in $(seq 1 "$rounds"); do
  for raster in compute graphics; do
    for camera in overview street; do
      echo "## $raster $camera r$round"
      "$throng" bench frame builtin --camera "$camera" --width 640 --height 360 \
        --frames 5 --warmup 2 --instances "$sizes" --card-raster "$raster" --json
    done
  done
done
