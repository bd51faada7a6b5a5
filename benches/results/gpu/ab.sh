#!/usr/bin/env bash
# Alternating rounds of whole frames on a GPU, one binary against another (or more), the
# way the files beside this script were measured: per round, each binary from the overview
# and from the street at 1920x1080 with the device's default multisampling, every crowd
# size in one process. Prints a "## BINARY CAMERA rROUND" line before each run's
# `bench frame --json` output; summarize.py turns that into one line per run.
#
#   benches/results/gpu/ab.sh OLD/throng NEW/throng > results.txt
#   ROUNDS=3 SIZES=100000,1000000 benches/results/gpu/ab.sh A B C > results.txt
#   benches/results/gpu/ab.sh "throng --prepass on" "throng --prepass off" > results.txt
#   benches/results/gpu/summarize.py results.txt
#
# An argument may carry flags after the binary (one quoted argument): they go to every run
# of that binary and into its label, spaces as underscores.
#
# On a bare NVIDIA machine with a driver but no Vulkan loader, Debian 12's libvulkan1 and
# libglvnd0 (with libegl1 libgl1 libglx0 libopengl0 libgles2) unpacked with `dpkg -x` and
# `VK_DRIVER_FILES` pointed at the driver's nvidia_icd.json were enough (docs/benchmarks.md).
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 THRONG [THRONG ...]" >&2
  exit 1
fi
rounds=${ROUNDS:-2}
sizes=${SIZES:-1000,10000,100000,1000000}
for round in $(seq 1 "$rounds"); do
  for spec in "$@"; do
    read -r -a words <<<"$spec"
    bin=${words[0]}
    flags=("${words[@]:1}")
    label="$(basename "$(dirname "$bin")")/$(basename "$bin")"
    if [[ ${#flags[@]} -gt 0 ]]; then
      label="$label$(printf '_%s' "${flags[@]}")"
    fi
    for camera in overview street; do
      echo "## $label $camera r$round"
      "$bin" bench frame builtin --camera "$camera" --width 1920 --height 1080 \
        --frames 10 --warmup 3 --instances "$sizes" --json "${flags[@]}"
    done
  done
done
