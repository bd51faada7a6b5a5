#!/usr/bin/env bash
# The GPU table: whole frames of the built-in character at 1920x1080 with the device's default
# multisampling, shadows and ambient occlusion on, for 1,000 to 1,000,000 characters, from the
# overview and from the street (`throng bench frame`), as markdown headed by the device's name
# and the date: the frame times, then the GPU's milliseconds pass by pass. Printed and written
# to benches/results/gpu/DATE-table.md (TABLE=path for another file). Runs from a release
# binary on any machine with a Vulkan device; it needs nothing but the binary, bash and
# python3 (no Rust toolchain: copy the binary over).
#
#   scripts/gpu-bench.sh                       # the table docs/benchmarks.md keeps
#   SIZES="1000 10000" FRAMES=5 scripts/gpu-bench.sh
#   THRONG=./throng WIDTH=640 HEIGHT=360 TABLE=/tmp/table.md scripts/gpu-bench.sh
#   FLAGS="--card-raster graphics" scripts/gpu-bench.sh
#
# Columns of the first table: wall-clock milliseconds per frame from each camera (frames in
# flight overlap the CPU's and the GPU's work, so this is what a user sees), the GPU's
# milliseconds (timestamps), the calling thread's processor milliseconds per frame
# (`cpu_thread_ms`, with the default worker threads), and the triangles per camera pass in
# the overview. The second: each pass's GPU milliseconds per camera and crowd size, the
# passes that cost most first.
set -euo pipefail
cd "$(dirname "$0")/.."
throng=${THRONG:-target/release/throng}
sizes=${SIZES:-"1000 10000 100000 1000000"}
width=${WIDTH:-1920}
height=${HEIGHT:-1080}
frames=${FRAMES:-10}
warmup=${WARMUP:-3}
table=${TABLE:-benches/results/gpu/$(date -u +%Y-%m-%d)-table.md}
if [[ ! -x "$throng" ]]; then
  echo "gpu-bench: no throng binary at $throng (cargo build --release, or THRONG=path)" >&2
  exit 1
fi
read -r -a flags <<<"${FLAGS:-}"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for camera in overview street; do
  # shellcheck disable=SC2086
  "$throng" bench frame builtin --instances "$(echo $sizes | tr ' ' ',')" --camera "$camera" \
    --width "$width" --height "$height" --frames "$frames" --warmup "$warmup" --json \
    "${flags[@]}" >"$dir/$camera.json"
done

python3 - "$dir" "$width" "$height" "${FLAGS:-}" <<'PY' | tee "$table"
import datetime
import json
import sys

folder, width, height, flags = sys.argv[1:5]
runs = {c: {r["instances"]: r for r in json.load(open(f"{folder}/{c}.json"))}
        for c in ("overview", "street")}
sizes = sorted(runs["overview"])
device = runs["overview"][sizes[0]]["device"]
day = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
print(f"### {device}, {width}x{height}, {day}" + (f", `{flags}`" if flags else ""))
print()
print("| characters | overview ms | street ms | overview GPU ms | street GPU ms "
      "| CPU thread ms (overview) | triangles per camera pass (overview) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for n in sizes:
    o, s = runs["overview"][n], runs["street"][n]
    print(f"| {n:,} | {o['frame_ms']:.1f} | {s['frame_ms']:.1f} | {o['gpu_ms']:.2f} "
          f"| {s['gpu_ms']:.2f} | {o['cpu_thread_ms']:.2f} "
          f"| {o['drawn']['forward']['triangles'] / 1e6:.1f} M |")
print()
columns = [(c, n) for c in ("overview", "street") for n in sizes]
total = {}
for c, n in columns:
    for name, ms in runs[c][n]["passes"].items():
        total[name] = total.get(name, 0.0) + ms
print("GPU milliseconds per pass:")
print()
print("| pass | " + " | ".join(f"{n:,} {c}" for c, n in columns) + " |")
print("| --- |" + " ---: |" * len(columns))
for name in sorted(total, key=lambda k: -total[k]):
    if total[name] < 0.005:
        continue
    cells = [runs[c][n]["passes"].get(name, 0.0) for c, n in columns]
    print(f"| {name} | " + " | ".join(f"{ms:.2f}" for ms in cells) + " |")
PY
