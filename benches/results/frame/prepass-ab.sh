#!/bin/bash
# The depth prepass on against off (the default), in alternating rounds: GPU and frame
# milliseconds and the passes over a millisecond, overview and street, one line per run.
#   B=path/to/throng N=10000 ROUNDS=3 W=640 H=360 benches/results/frame/prepass-ab.sh
set -euo pipefail
B=${B:-target/release/throng}
N=${N:-10000}
ROUNDS=${ROUNDS:-3}
W=${W:-640}
H=${H:-360}
for round in $(seq 1 "$ROUNDS"); do
  for cam in street overview; do
    for v in on off; do
      "$B" bench frame --instances "$N" --width "$W" --height "$H" --frames 3 --warmup 2 \
        --camera "$cam" --prepass "$v" --json 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)[0]
passes = {k: round(v, 1) for k, v in d['passes'].items() if v > 1}
print('$round $cam prepass=$v gpu %.0f frame %.0f' % (d['gpu_ms'], d['frame_ms']), passes)"
    done
  done
done
