#!/bin/sh
# The near set's cost: 10,000 built-in characters from the street (thousands of exact palettes),
# state on the GPU against the CPU, alternating rounds, one thread and two.
B=${1:-target/release/throng}
for round in 1 2 3; do
  for threads in 1 2; do
    for s in gpu cpu; do
      echo "round $round threads $threads crowd-state $s"
      $B bench frame --instances 10000 --camera street --threads $threads --width 320 --height 180 --frames 5 --warmup 3 --crowd-state $s 2>&1 | grep -E "^ +[0-9]" | cut -c1-125
    done
  done
done
