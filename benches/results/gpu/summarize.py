#!/usr/bin/env python3
"""One line per run of the `## LABEL` + `bench frame --json` files beside this script (ab.sh
writes them): crowd size, frame and GPU milliseconds, the calling thread's processor
milliseconds, the GPU milliseconds of the mesh passes (the skin pass with its late half,
shadow with the sun's mesh raster, prepass with its late half, forward with its late half,
the camera's mesh raster with its shading) and of the card passes (shadow with the shadow
depths' clear and copy, depth or visibility, lit: as quads or in compute), millions of
triangles per camera pass and in the shadow map, the cards drawn from the camera and the
meshes the compute raster drew (the camera's, the sun's)."""
import json
import re
import sys


def runs(text):
    parts = re.split(r"^## (.*)$", text, flags=re.M)
    for i in range(1, len(parts), 2):
        for row in json.loads(parts[i + 1]):
            yield parts[i], row


def line(label, r):
    p = r["passes"].get
    mesh = (
        p("skin", 0) + p("skin_late", 0),
        p("shadow", 0) + p("mesh_shadow", 0),
        p("depth_normal", 0) + p("depth_normal_late", 0),
        p("forward", 0) + p("forward_late", 0),
        p("mesh_raster", 0) + p("mesh_shade", 0),
    )
    # Cards as quads (impostor_*) or in compute (card_*): into the shadow map (with the
    # shadow depths' clear and copy, named card_shadow_* by builds before the sun's mesh
    # raster shared them), into depth (and the visibility buffer), lit.
    cards = (
        p("impostor_shadow", 0) + p("card_shadow", 0)
        + sum(p(f"{who}_{step}", 0) for who in ("card_shadow", "shadow_splat")
              for step in ("clear", "copy")),
        p("impostor_depth_normal", 0) + p("card_visibility_clear", 0) + p("card_raster", 0),
        p("impostor_forward", 0) + p("card_shade", 0) + p("card_depth", 0),
    )
    drawn = r["drawn"]
    return (
        f"{label:34s} {r['instances']:>9,} frame {r['frame_ms']:6.1f} gpu {r['gpu_ms']:6.1f} "
        f"cpu {r['cpu_thread_ms']:5.2f} | meshes skin/shadow/prepass/forward/compute "
        f"{mesh[0]:5.1f} {mesh[1]:5.1f} {mesh[2]:5.1f} {mesh[3]:5.1f} {mesh[4]:5.1f} | cards {cards[0]:5.1f} {cards[1]:5.1f} "
        f"{cards[2]:5.1f} | {drawn['forward']['triangles'] / 1e6:5.1f} M tris "
        f"(shadow {drawn['shadow']['triangles'] / 1e6:4.1f} M), "
        f"{drawn['forward']['cards']:,} cards, "
        f"{drawn['forward'].get('rasterized', 0):,} meshes in compute "
        f"(shadow {drawn['shadow'].get('rasterized', 0):,})"
    )


for path in sys.argv[1:]:
    with open(path) as f:
        for label, row in runs(f.read()):
            print(line(label, row))
