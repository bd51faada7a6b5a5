#!/usr/bin/env python3
"""Checks a playback outside throng, from the CSV `throng play --export` writes.

    scripts/playback-check.py feet EXPORT.csv
        Stance-foot sliding: per pedestrian and frame, outside cross-fades, the lowest foot
        joint (its height above the lowest that joint stands in the same clip anywhere in the
        export: a joint is not the sole) when within 3 cm of it in both this frame and the next, and how fast it
        moves horizontally between them. Prints the median and 95th percentile in m/s.

    scripts/playback-check.py sway EXPORT.csv
        The root's sideways speed across its direction of travel over two seconds (RMS, m/s):
        what smoothing is to take out of tracked heads.

    scripts/playback-check.py fidelity EXPORT.csv --petrack FILE --fps 16 --units cm
        Exported root positions against a PeTrack / Jülich text file (`id frame x y ...`),
        linearly interpolated at each exported time: the share within 10 cm, the largest
        distance, and the distances at the file's own sample times.

Uses only Python's standard library.
"""

import argparse
import bisect
import csv
import math
import sys
from collections import defaultdict


def read_export(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no rows")
    feet = sorted({k[:-2] for k in rows[0] if k.startswith("foot") and k.endswith("_x")})
    return rows, feet


def percentile(values, q):
    values = sorted(values)
    return values[int((len(values) - 1) * q)] if values else float("nan")


def feet(args):
    rows, names = read_export(args.export)
    frames = defaultdict(list)  # id -> [(t, fading, [(joint, x, y, z)])]
    planted = {}
    for r in rows:
        pts = []
        for n in names:
            if r[n + "_x"] == "":
                continue
            p = (r[n + "_joint"], float(r[n + "_x"]), float(r[n + "_y"]), float(r[n + "_z"]))
            pts.append(p)
            key = (r["id"], p[0], r["clip"])
            planted[key] = min(planted.get(key, math.inf), p[3])
        frames[r["id"]].append((float(r["time"]), r["fade_weight"] != "", pts, r["clip"]))
    speeds = []
    by_clip = defaultdict(list)
    for pid, seq in frames.items():
        seq.sort(key=lambda f: f[0])
        for (t0, f0, p0, c0), (t1, f1, p1, c1) in zip(seq, seq[1:]):
            if f0 or f1 or t1 <= t0 or c0 != c1:
                continue
            rel = [(p[3] - planted[(pid, p[0], c0)], i) for i, p in enumerate(p0)]
            if not rel:
                continue
            h0, i = min(rel)
            h1 = p1[i][3] - planted[(pid, p1[i][0], c0)]
            if h0 <= 0.03 and h1 <= 0.03:
                d = math.hypot(p1[i][1] - p0[i][1], p1[i][2] - p0[i][2])
                speeds.append(d / (t1 - t0))
                by_clip[c0].append(d / (t1 - t0))
    print(f"stance frames {len(speeds)}: median {percentile(speeds, 0.5):.4f} m/s, "
          f"95th percentile {percentile(speeds, 0.95):.4f} m/s")
    for clip, v in sorted(by_clip.items()):
        print(f"  {clip}: {len(v)} frames, median {percentile(v, 0.5):.4f} m/s, "
              f"95th percentile {percentile(v, 0.95):.4f} m/s")


def sway(args):
    """RMS of the root's sideways speed: its velocity across its own direction of travel over
    two seconds (the head's step-by-step sway of tracked data shows here; a walker on a smooth
    path has next to none)."""
    rows, _ = read_export(args.export)
    tracks = defaultdict(list)
    for r in rows:
        tracks[r["id"]].append((float(r["time"]), float(r["x"]), float(r["y"])))
    squares = []
    for seq in tracks.values():
        seq.sort()
        for k in range(1, len(seq) - 1):
            t, x, y = seq[k]
            lo = bisect.bisect_left(seq, (t - 1.0,))
            hi = bisect.bisect_right(seq, (t + 1.0, math.inf, math.inf)) - 1
            if seq[hi][0] - seq[lo][0] < 1.9:
                continue
            dx, dy = seq[hi][1] - seq[lo][1], seq[hi][2] - seq[lo][2]
            n = math.hypot(dx, dy)
            if n < 0.5:  # standing: no direction of travel
                continue
            (t0, x0, y0), (t1, x1, y1) = seq[k - 1], seq[k + 1]
            vx, vy = (x1 - x0) / (t1 - t0), (y1 - y0) / (t1 - t0)
            squares.append(((-vx * dy + vy * dx) / n) ** 2)
    rms = math.sqrt(sum(squares) / max(len(squares), 1))
    print(f"sideways speed over {len(squares)} walking frames: RMS {rms:.4f} m/s")


def fidelity(args):
    rows, _ = read_export(args.export)
    scale = {"m": 1.0, "cm": 0.01, "mm": 0.001}[args.units]
    tracks = defaultdict(list)
    with open(args.petrack) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            c = line.split()
            tracks[c[0]].append((float(c[1]) / args.fps, float(c[2]) * scale, float(c[3]) * scale))
    for t in tracks.values():
        t.sort()
    dists, at_samples = [], []
    for r in rows:
        track = tracks.get(r["id"])
        if not track:
            continue
        t, x, y = float(r["time"]), float(r["x"]), float(r["y"])
        times = [s[0] for s in track]
        k = bisect.bisect_left(times, t)
        if k < len(track) and abs(times[k] - t) < 1e-6:
            fx, fy = track[k][1], track[k][2]
            at_samples.append(math.hypot(x - fx, y - fy))
        elif 0 < k < len(track):
            (t0, x0, y0), (t1, x1, y1) = track[k - 1], track[k]
            u = (t - t0) / (t1 - t0)
            fx, fy = x0 + (x1 - x0) * u, y0 + (y1 - y0) * u
        else:
            continue
        dists.append(math.hypot(x - fx, y - fy))
    within = sum(d <= 0.10 for d in dists) / max(len(dists), 1)
    print(f"positions {len(dists)}: {100 * within:.2f}% within 10 cm, 95th percentile "
          f"{percentile(dists, 0.95) * 100:.2f} cm, largest {max(dists) * 100:.2f} cm")
    if at_samples:
        print(f"at the file's sample times ({len(at_samples)}): largest "
              f"{max(at_samples) * 1000:.3f} mm")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    f = sub.add_parser("feet")
    f.add_argument("export")
    w = sub.add_parser("sway")
    w.add_argument("export")
    g = sub.add_parser("fidelity")
    g.add_argument("export")
    g.add_argument("--petrack", required=True)
    g.add_argument("--fps", type=float, required=True)
    g.add_argument("--units", choices=["m", "cm", "mm"], required=True)
    a = p.parse_args()
    {"feet": feet, "sway": sway, "fidelity": fidelity}[a.what](a)


if __name__ == "__main__":
    main()
