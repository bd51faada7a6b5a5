#!/usr/bin/env bash
# The frame in compute on a GPU, in one call: the pictures the picture goal compares (the
# overview of 1,000 and the street among 4,000 at 640x360 and 1920x1080, each with cards,
# ground, skinning and the coarser mesh levels in compute and with all four in the graphics
# pipelines) into OUT_DIR, then alternating rounds of whole frames of the build before (OLD)
# against this one as it draws by default, with the ground rasterized, with cards and ground
# rasterized, with the meshes skinned in the vertex shaders, with every mesh level drawn
# by the lit passes, and without the near shadow square (which the street among 100,000 and
# more draws by default, and builds before it did not: ab.sh's layout, into
# OUT_DIR/frames.txt),
# summarized by summarize.py. Needs nothing but the two release binaries (stripped), bash and python3;
# compare-pictures.py reads the pictures back on a machine with Pillow and NumPy.
#
#   benches/results/gpu/compute-frame.sh OLD/throng NEW/throng OUT_DIR
#   benches/results/gpu/compare-pictures.py OUT_DIR
set -euo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 OLD_THRONG NEW_THRONG OUT_DIR" >&2
  exit 1
fi
old=$1
new=$2
out=$3
here=$(dirname "$0")
mkdir -p "$out"
for raster in compute graphics; do
  skin=compute
  [[ $raster == graphics ]] && skin=vertex
  for size in 640x360 1920x1080; do
    w=${size%x*}
    h=${size#*x}
    for scene in "overview 1000" "street 4000"; do
      read -r camera instances <<<"$scene"
      "$new" run --headless --frames 3 --width "$w" --height "$h" --camera "$camera" \
        --instances "$instances" --card-raster "$raster" --ground "$raster" --skin "$skin" \
        --mesh-raster "$raster" --screenshot "$out/$camera-$instances-$size-$raster.png" >/dev/null
    done
  done
done
ROUNDS=${ROUNDS:-2} "$here/ab.sh" "$old" "$new" "$new --ground graphics" \
  "$new --card-raster graphics --ground graphics" "$new --skin vertex" \
  "$new --mesh-raster graphics" "$new --shadow-cascade off" >"$out/frames.txt"
python3 "$here/summarize.py" "$out/frames.txt"
