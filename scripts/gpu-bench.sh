#!/usr/bin/env bash
# The GPU table: whole frames of the built-in character at 1920x1080 with the device's default
# multisampling, shadows and ambient occlusion on, for 1,000 to 1,000,000 characters, from the
# overview and from the street (`throng bench frame`), printed as a markdown table headed by
# the device's name and the date. Runs from a release binary on any machine with a Vulkan
# device; it needs nothing but the binary and bash (no Rust toolchain: copy the binary over).
#
#   scripts/gpu-bench.sh                       # the table docs/benchmarks.md keeps
#   SIZES="1000 10000" FRAMES=5 scripts/gpu-bench.sh
#   THRONG=./throng WIDTH=640 HEIGHT=360 scripts/gpu-bench.sh
#
# Columns: wall-clock milliseconds per frame from each camera (frames in flight overlap the
# CPU's and the GPU's work, so this is what a user sees), the GPU's milliseconds (timestamps),
# the calling thread's processor milliseconds per frame (`cpu_thread_ms`, with the default
# worker threads), and the triangles per camera pass in the overview.
set -euo pipefail
cd "$(dirname "$0")/.."
throng=${THRONG:-target/release/throng}
sizes=${SIZES:-"1000 10000 100000 1000000"}
width=${WIDTH:-1920}
height=${HEIGHT:-1080}
frames=${FRAMES:-10}
warmup=${WARMUP:-3}
if [[ ! -x "$throng" ]]; then
  echo "gpu-bench: no throng binary at $throng (cargo build --release, or THRONG=path)" >&2
  exit 1
fi

# One row per size for `camera`: instances, frame ms, gpu ms, cpu thread ms, M triangles per
# camera pass; and the device's name on the first line.
measure() {
  local camera=$1
  # shellcheck disable=SC2086
  "$throng" bench frame builtin --instances "$(echo $sizes | tr ' ' ',')" --camera "$camera" \
    --width "$width" --height "$height" --frames "$frames" --warmup "$warmup" --tsv
}

overview=$(measure overview)
street=$(measure street)
device=$(printf '%s\n' "$overview" | sed -n 's/^# device\t//p')

echo "### $device, ${width}x${height}, $(date -u +%Y-%m-%d)"
echo
echo "| characters | overview ms | street ms | overview GPU ms | street GPU ms | CPU thread ms (overview) | triangles per camera pass (overview) |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
join -t $'\t' <(printf '%s\n' "$overview" | grep -v '^#' | sort -k1,1) \
  <(printf '%s\n' "$street" | grep -v '^#' | sort -k1,1) |
  sort -n -k1,1 |
  awk -F '\t' '{ printf "| %\047d | %.1f | %.1f | %s | %s | %s | %.1f M |\n", $1, $2, $6, $3, $7, $4, $5 }'
