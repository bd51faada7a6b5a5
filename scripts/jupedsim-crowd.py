#!/usr/bin/env python3
"""Writes a large crowd in JuPedSim's SQLite trajectory schema (version 2), for benchmarks.

Pedestrians cross a square from one side to the opposite one in straight lines with a
little sideways weave, each entering at its own time, so that about --pedestrians are present
at once once the square has filled. The walkable area is the square (WKT in `geometry`), as
JuPedSim's SqliteTrajectoryWriter records it. Deterministic: the same arguments write the same
file. Uses only Python's standard library.

    scripts/jupedsim-crowd.py --pedestrians 100000 --seconds 600 --fps 10 out.sqlite

Real simulations can be made with JuPedSim itself (`pip install jupedsim`).
"""

import argparse
import math
import random
import sqlite3
import sys


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="the SQLite file to write (replaced)")
    p.add_argument("--pedestrians", type=int, default=10000, help="present at once, about")
    p.add_argument("--seconds", type=float, default=60.0, help="duration of the file")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second")
    p.add_argument("--speed", type=float, default=1.3, help="mean walking speed, m/s")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.pedestrians < 1 or a.seconds <= 0 or a.fps <= 0:
        print("jupedsim-crowd: --pedestrians, --seconds and --fps must be positive", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    # A square big enough for the crowd at about 0.5 persons per m^2.
    side = math.sqrt(a.pedestrians / 0.5)
    half = side / 2
    crossing = side / a.speed
    frames = int(a.seconds * a.fps) + 1
    # Each walker crosses once; new walkers keep entering so about `pedestrians` are present.
    # A walker entered at t0 is present until t0 + crossing time; entering at a steady rate of
    # pedestrians / crossing per second keeps the count steady after the first crossing.
    # To have the crowd present from the start, the first wave starts part-way across.
    db = sqlite3.connect(a.out)
    db.executescript(
        """
        DROP TABLE IF EXISTS trajectory_data; DROP TABLE IF EXISTS metadata;
        DROP TABLE IF EXISTS geometry; DROP TABLE IF EXISTS frame_data;
        CREATE TABLE trajectory_data (frame INTEGER NOT NULL, id INTEGER NOT NULL,
            pos_x REAL NOT NULL, pos_y REAL NOT NULL, ori_x REAL NOT NULL, ori_y REAL NOT NULL);
        CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL);
        CREATE TABLE frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);
        """
    )
    wkt = f"POLYGON (({-half} {-half}, {half} {-half}, {half} {half}, {-half} {half}, {-half} {-half}))"
    db.execute("INSERT INTO geometry VALUES (?, ?)", (1, wkt))
    meta = {"version": "2", "fps": str(a.fps), "xmin": str(-half), "xmax": str(half),
            "ymin": str(-half), "ymax": str(half)}
    db.executemany("INSERT INTO metadata VALUES (?, ?)", meta.items())
    db.executemany("INSERT INTO frame_data VALUES (?, 1)", ((f,) for f in range(frames)))

    # Walkers: (id, start time, start point, direction, speed, weave phase).
    rate = a.pedestrians / crossing
    walkers = []
    total = int(a.pedestrians + rate * a.seconds) + 1
    for i in range(total):
        t0 = -crossing + i / rate  # the first wave is already on its way at t = 0
        angle = rng.uniform(0, 2 * math.pi)
        d = (math.cos(angle), math.sin(angle))
        # Start on the square's edge behind the direction, offset sideways.
        off = rng.uniform(-0.9, 0.9) * half
        start = (-d[0] * half * 0.98 - d[1] * off, -d[1] * half * 0.98 + d[0] * off)
        walkers.append((i + 1, t0, start, d, a.speed * rng.uniform(0.8, 1.2), rng.uniform(0, 6.3)))

    # Past this long after entering, every walker has left the square.
    longest = 1.5 * side / (0.8 * a.speed)

    def rows():
        first = 0
        for f in range(frames):
            t = f / a.fps
            while first < len(walkers) and t - walkers[first][1] > longest:
                first += 1
            for wid, t0, s, d, v, ph in walkers[first:]:
                u = t - t0
                if u < 0:
                    break  # walkers enter in id order
                along = v * u
                x = s[0] + d[0] * along - d[1] * 0.03 * math.sin(ph + 6.0 * u)
                y = s[1] + d[1] * along + d[0] * 0.03 * math.sin(ph + 6.0 * u)
                if abs(x) > half or abs(y) > half:
                    continue
                yield (f, wid, x, y, d[0], d[1])

    db.executemany("INSERT INTO trajectory_data VALUES (?, ?, ?, ?, ?, ?)", rows())
    db.execute("CREATE INDEX frame_id_idx ON trajectory_data(frame, id)")
    db.commit()
    db.close()
    print(f"wrote {a.out}: {total} walkers over {a.seconds} s at {a.fps} fps in a {side:.0f} m square")
    return 0


if __name__ == "__main__":
    sys.exit(main())
