#!/usr/bin/env python3
"""Frame milliseconds per set of flags, camera and crowd size from the files lavapipe.sh
writes: the median and the worst round of each, and its median over the first set's."""
import json
import re
import statistics
import sys
from collections import defaultdict

times = defaultdict(list)
order = []
for path in sys.argv[1:]:
    with open(path) as f:
        parts = re.split(r"^## (.*)$", f.read(), flags=re.M)
    for i in range(1, len(parts), 2):
        flags, camera, _ = parts[i].split()
        try:
            rows = json.loads(parts[i + 1])
        except json.JSONDecodeError:
            continue  # a run still going (or cut short)
        if flags not in order:
            order.append(flags)
        for row in rows:
            times[(camera, row["instances"], flags)].append(row["frame_ms"])

for camera, size in sorted({(c, s) for c, s, _ in times}):
    base = times.get((camera, size, order[0]))
    for flags in order:
        t = times.get((camera, size, flags))
        if not t or not base:
            continue
        ratio = statistics.median(t) / statistics.median(base)
        print(
            f"{camera:9s} {size:>9,} {flags.replace('_', ' '):45s} median {statistics.median(t):8.1f} ms "
            f"worst {max(t):8.1f} ({len(t)} rounds): {ratio:.2f} of the first"
        )
