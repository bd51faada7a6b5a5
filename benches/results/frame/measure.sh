#!/usr/bin/env bash
# The frame timings in README ("Frame timings"): `throng bench frame` headless on whatever
# Vulkan device is chosen (lavapipe on a machine without a GPU), one configuration after the
# other, JSON per configuration in this folder and the plots next to it.
# Usage: benches/results/frame/measure.sh [path-to-throng]   (release build recommended)
set -euo pipefail
cd "$(dirname "$0")"
throng=${1:-../../../target/release/throng}
shared=../../../../shared/assets
run() {
  local name=$1
  shift
  echo "== $name: $*"
  "$throng" bench frame "$@" --json >"$name.json"
}
# The spine (issue 7): forward pass only, 1280x720, built-in character and a small glTF.
run builtin-forward --instances 100,1000,10000 --frames 5 --no-shadows --no-ssao \
  --svg builtin-forward.svg
run rigged-forward "$shared/gltf/RiggedFigure.glb" --instances 100,1000,10000 --frames 5 \
  --no-shadows --no-ssao --svg rigged-forward.svg
# Vertex against fragment work: the same frames at a sixteenth of the pixels.
run builtin-forward-small --instances 100,1000 --frames 5 --no-shadows --no-ssao \
  --width 320 --height 180
# The full frame (issue 8): shadows and SSAO on.
run builtin-full --instances 1000,10000 --frames 3 --svg builtin-full.svg
run builtin-full-small --instances 1000 --frames 3 --width 320 --height 180
run rigged-full "$shared/gltf/RiggedFigure.glb" --instances 100,1000,5000 --frames 5 \
  --width 960 --height 540 --svg rigged-full.svg
# Where the time goes: lavapipe bins triangles into 64x64-pixel tiles and rasterizes tiles in
# parallel, so a smaller frame has fewer tiles to share among threads and runs *slower*; the
# split is measured by growing the frame instead (fragment work grows with pixels, vertex
# work does not).
for size in 640x360 1280x720 2560x1440; do
  run "builtin-100-$size" --instances 100 --frames 5 --no-shadows --no-ssao \
    --width "${size%x*}" --height "${size#*x}"
done
