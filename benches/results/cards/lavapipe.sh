#!/usr/bin/env bash
# The frame in compute against the frame rasterized on this machine's device (lavapipe
# here), alternating rounds: per round, each set of flags from the overview and from the
# street at 640x360, every crowd size in one process. Prints a "## FLAGS CAMERA rROUND" line
# (spaces in the flags as underscores) before each run's `bench frame --json` output;
# summary.py beside this script prints each set against the first.
#
#   benches/results/cards/lavapipe.sh > results.txt
#   ROUNDS=2 SIZES=10000 benches/results/cards/lavapipe.sh "--ground graphics" "--ground compute"
set -euo pipefail
cd "$(dirname "$0")/../../.."
throng=${THRONG:-target/release/throng}
rounds=${ROUNDS:-3}
sizes=${SIZES:-10000,100000}
if [[ $# -eq 0 ]]; then
  set -- "--card-raster graphics --ground graphics" \
    "--card-raster compute --ground graphics" \
    "--card-raster graphics --ground compute" \
    "--card-raster compute --ground compute"
fi
for round in $(seq 1 "$rounds"); do
  for flags in "$@"; do
    read -r -a words <<<"$flags"
    for camera in overview street; do
      echo "## ${flags// /_} $camera r$round"
      "$throng" bench frame builtin --camera "$camera" --width 640 --height 360 \
        --frames 5 --warmup 2 --instances "$sizes" "${words[@]}" --json
    done
  done
done
