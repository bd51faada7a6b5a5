#!/bin/sh
# Alternating rounds: the calling thread's CPU ms per frame at 10k and 1M, state on the GPU and on the CPU.
B=${1:-target/release/throng}
for round in 1 2 3; do
  for s in gpu cpu; do
    echo "round $round crowd-state $s"
    $B bench frame --instances 10000,1000000 --threads 1 --width 320 --height 180 --frames 5 --warmup 2 --crowd-state $s 2>&1 | grep -E "^ +[0-9]" | cut -c1-120
  done
done
