#!/usr/bin/env python3
"""Frame milliseconds per way of drawing cards, camera and crowd size from the files
lavapipe.sh writes: the median and the worst round of each, and compute over graphics."""
import json
import re
import statistics
import sys
from collections import defaultdict

times = defaultdict(list)
for path in sys.argv[1:]:
    with open(path) as f:
        parts = re.split(r"^## (.*)$", f.read(), flags=re.M)
    for i in range(1, len(parts), 2):
        raster, camera, _ = parts[i].split()
        try:
            rows = json.loads(parts[i + 1])
        except json.JSONDecodeError:
            continue  # a run still going (or cut short)
        for row in rows:
            times[(camera, row["instances"], raster)].append(row["frame_ms"])

for camera, size in sorted({(c, s) for c, s, _ in times}):
    c = times[(camera, size, "compute")]
    g = times[(camera, size, "graphics")]
    if not c or not g:
        continue
    ratio = statistics.median(c) / statistics.median(g)
    print(
        f"{camera:9s} {size:>9,}: compute median {statistics.median(c):8.1f} ms "
        f"(worst {max(c):8.1f}), graphics median {statistics.median(g):8.1f} ms "
        f"(worst {max(g):8.1f}): compute / graphics {ratio:.2f}"
    )
