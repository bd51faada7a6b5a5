#!/usr/bin/env bash
# Everything the frame in compute asks of a GPU, in one device call and within its limits (a
# command of at most 10 minutes; at most 8 files of at most 16 MiB come back from $OUT): the
# Vulkan loader unpacked where the machine has none, compute-frame.sh's pictures and
# alternating rounds of OLD against NEW (in its configurations), their summary, and
# gpu-bench.sh's table of NEW. Each measuring step has a time budget (FRAME_SECONDS,
# TABLE_SECONDS), so what was measured comes back even when one runs long; the pictures come
# back as a tar in parts of 15 MB.
#
#   here:    benches/results/gpu/prepare-device.sh OLD_COMMIT
#   device:  run(command="benches/results/gpu/device-run.sh .dev/old/throng .dev/new/throng
#            $OUT", carry=[".gl", ".dev"], timeout_s=600)
#   here:    cat FILES_AT/pictures.tar.part-* | tar x -C PICS
#            benches/results/gpu/compare-pictures.py PICS
#            benches/results/gpu/summarize.py FILES_AT/frames.txt
set -uo pipefail
old=$1
new=$2
out=$3
here=$(dirname "$0")
if ! ldconfig -p | grep -q 'libvulkan\.so\.1'; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ ! -e /usr/share/vulkan/icd.d/nvidia_icd.json && -e $icd ]]; then
  export VK_DRIVER_FILES=$icd
fi
# The device and the start-up line (what each switch resolved to) in one small frame; a run
# that cannot find the device says so here first.
"$new" run --headless --instances 10 --frames 1 --width 64 --height 36 >"$out/info.txt" 2>&1
pictures=$(mktemp -d)
# timeout ends the whole process group, so no frame is left running on the GPU after it.
timeout "${FRAME_SECONDS:-420}" "$here/compute-frame.sh" "$old" "$new" "$pictures" \
  >/dev/null 2>"$out/errors.txt"
echo "compute-frame.sh: exit $?" >>"$out/errors.txt"
cp "$pictures/frames.txt" "$out/frames.txt" 2>>"$out/errors.txt"
python3 "$here/summarize.py" "$out/frames.txt" >"$out/summary.txt" 2>>"$out/errors.txt"
(cd "$pictures" && tar cf - ./*.png) | split -b 15M - "$out/pictures.tar.part-"
# The same SIZES as the rounds (ab.sh takes them with commas, gpu-bench.sh with spaces).
sizes=${SIZES:-1000,10000,100000,1000000}
SIZES=${sizes//,/ } THRONG=$new TABLE=$out/table.md timeout "${TABLE_SECONDS:-120}" \
  scripts/gpu-bench.sh >/dev/null 2>>"$out/errors.txt"
echo "gpu-bench.sh: exit $?" >>"$out/errors.txt"
ls -la "$out"
