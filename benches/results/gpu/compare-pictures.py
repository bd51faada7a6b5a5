#!/usr/bin/env python3
"""The picture goal between the frames compute-frame.sh wrote: for each scene and size, the mean
absolute difference per channel between the frame in compute (cards, ground, skinning and the
coarser mesh levels) and the frame the graphics pipelines draw, and the share of pixels within
8 levels in every channel (goal: at most 1.0 and at least 98%)."""
import pathlib
import sys

import numpy as np
from PIL import Image

out = pathlib.Path(sys.argv[1])
for compute in sorted(out.glob("*-compute.png")):
    graphics = compute.with_name(compute.name.replace("-compute", "-graphics"))
    a = np.asarray(Image.open(compute).convert("RGB"), dtype=np.int32)
    b = np.asarray(Image.open(graphics).convert("RGB"), dtype=np.int32)
    d = np.abs(a - b)
    mean = d.mean()
    close = (d.max(axis=2) <= 8).mean()
    met = "met" if mean <= 1.0 and close >= 0.98 else "MISSED"
    name = compute.name.replace("-compute.png", "")
    print(f"{name:28s} {mean:6.3f} levels per channel, {100 * close:6.2f}% within 8: {met}")
