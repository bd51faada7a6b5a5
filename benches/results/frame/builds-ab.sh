#!/bin/bash
# Two builds of throng against each other in alternating rounds (which goes first alternates
# too): GPU and frame milliseconds of `bench frame`, overview and street, one line per run,
# then the median and worst after/before ratio per camera. ARGS are passed to both (for
# example ARGS="--msaa 4 --ground compute"), BEFORE_ARGS and AFTER_ARGS to one each (one
# build against itself: BEFORE=X AFTER=X BEFORE_ARGS="--skin vertex" AFTER_ARGS="--skin
# compute"). Builds from before the shadow map's side followed the frame's size drew 2048
# texels at any size (the default now gives 1024 at 640x360): to compare the rest like with
# like, pass ARGS="--shadow-size 2048".
#   BEFORE=path/to/old/throng AFTER=target/release/throng N=10000 ROUNDS=3 \
#     benches/results/frame/builds-ab.sh
set -euo pipefail
BEFORE=${BEFORE:?the build to compare against}
AFTER=${AFTER:-target/release/throng}
N=${N:-10000}
ROUNDS=${ROUNDS:-3}
W=${W:-640}
H=${H:-360}
read -r -a args <<< "${ARGS:-}"
read -r -a before_args <<< "${BEFORE_ARGS:-}"
read -r -a after_args <<< "${AFTER_ARGS:-}"
out=$(mktemp)
for round in $(seq 1 "$ROUNDS"); do
  order="before after"
  [ $((round % 2)) -eq 0 ] && order="after before"
  for cam in overview street; do
    for which in $order; do
      bin=$BEFORE
      own=("${before_args[@]}")
      if [ "$which" = after ]; then bin=$AFTER; own=("${after_args[@]}"); fi
      "$bin" bench frame --instances "$N" --width "$W" --height "$H" --frames 5 --warmup 2 \
        --camera "$cam" "${args[@]}" "${own[@]}" --json 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)[0]
print('$round $cam $which %.2f %.2f' % (d['gpu_ms'], d['frame_ms']))" | tee -a "$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print('# round camera gpu_ms(before) gpu_ms(after) after/before')
for cam in ('overview', 'street'):
    ratios = []
    for r in sorted({row[0] for row in rows}):
        get = lambda w: next(float(x[3]) for x in rows if x[0] == r and x[1] == cam and x[2] == w)
        b, a = get('before'), get('after')
        ratios.append(a / b)
        print(r, cam, b, a, '%.3f' % (a / b))
    print('# %s: median after/before %.3f, worst %.3f' % (cam, statistics.median(ratios), max(ratios)))
PY
rm -f "$out"
