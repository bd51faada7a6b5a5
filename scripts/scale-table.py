#!/usr/bin/env python3
"""Tabulates scripts/bench-scale.sh's runs (one JSON line each) as Markdown, and plots them.

    scripts/scale-table.py [RUNS.jsonl] [--svg FILE]

One row per model, crowd size and camera: each setting's frame milliseconds (the median of
its rounds, and the range when there are several), CPU milliseconds (animation on all threads,
and the calling thread's processor time), triangles per geometry pass, and how much faster
"on" is than each other setting, as the range over rounds of the ratio within a round (the
settings of one round ran back to back, so a drifting machine treats them alike).
"""

import json
import statistics
import sys
from collections import defaultdict

PASSES = ("shadow", "depth_normal", "forward")


def load(path):
    runs = defaultdict(lambda: defaultdict(dict))
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        d = json.loads(line)
        for r in d["report"]:
            model = r["models"].split("/")[-1]
            key = (model, r["instances"], r["camera"])
            runs[key][d["setting"]][d["round"]] = r
    return runs


def fmt_ms(values):
    values = sorted(values)
    med = statistics.median(values)
    text = f"{med / 1000:.2f} s" if med >= 1000 else f"{med:.0f} ms"
    if len(values) > 1:
        lo, hi = values[0], values[-1]
        unit = 1000 if med >= 1000 else 1
        text += f" ({lo / unit:.2f}-{hi / unit:.2f})" if unit == 1000 else f" ({lo:.0f}-{hi:.0f})"
    return text


def mtris(r):
    return "/".join(f"{r['drawn'][p]['triangles'] / 1e6:.1f}" for p in PASSES)


def table(runs):
    out = []
    out.append(
        "| model | instances | camera | setting | frame | CPU anim / thread ms "
        "| M triangles shadow/prepass/forward | drawn (shadow) | exact / baked | on is faster |"
    )
    out.append("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(runs, key=lambda k: (k[0], k[1], k[2])):
        model, instances, camera = key
        settings = runs[key]
        on = settings.get("on", {})
        for name in ("on", "cards-off", "lod-off", "before"):
            rounds = settings.get(name)
            if not rounds:
                continue
            reports = list(rounds.values())
            frame = fmt_ms([r["frame_ms"] for r in reports])
            cpu = statistics.median(r["cpu_anim_ms"] for r in reports)
            thread = statistics.median(r.get("cpu_thread_ms") or 0 for r in reports)
            last = reports[-1]
            # Instances drawn count meshes and cards alike; the cards among them follow.
            drawn = (
                f"{last['drawn']['forward']['instances']} "
                f"({last['drawn']['shadow']['instances']})"
            )
            cards = last["drawn"]["forward"].get("cards", 0)
            if cards:
                drawn += f", cards {cards} ({last['drawn']['shadow'].get('cards', 0)})"
            anim = f"{last['animation']['exact']} / {last['animation']['baked']}"
            if name == "on":
                faster = ""
            else:
                ratios = sorted(
                    rounds[k]["frame_ms"] / on[k]["frame_ms"] for k in rounds if k in on
                )
                faster = (
                    f"{ratios[0]:.1f}-{ratios[-1]:.1f}x" if len(ratios) > 1 else f"{ratios[0]:.1f}x"
                ) if ratios else ""
            out.append(
                f"| {model} | {instances:,} | {camera} | {name} | {frame} | {cpu:.1f} / {thread:.1f} "
                f"| {mtris(last)} | {drawn} | {anim} | {faster} |"
            )
    return "\n".join(out)


def svg(runs, path):
    """Bars of median frame seconds per (model, instances, camera), one per setting, on a
    logarithmic axis (the settings differ by up to tens of times)."""
    import math

    colours = {"on": "#2a7", "lod-off": "#d83", "before": "#57c"}
    groups = sorted(runs, key=lambda k: (k[0], k[1], k[2]))
    bar, gap, left, top, height = 14, 18, 250, 30, 0
    rows = []
    for key in groups:
        for name in ("on", "cards-off", "lod-off", "before"):
            rounds = runs[key].get(name)
            if rounds:
                ms = statistics.median(r["frame_ms"] for r in rounds.values())
                rows.append((key, name, ms))
    lo = min(ms for *_, ms in rows)
    hi = max(ms for *_, ms in rows)
    lo_exp, hi_exp = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    width = 560

    def x(ms):
        return left + width * (math.log10(ms) - lo_exp) / (hi_exp - lo_exp)

    parts = []
    y = top
    last_key = None
    for key, name, ms in rows:
        if key != last_key:
            if last_key is not None:
                y += gap
            model, instances, camera = key
            parts.append(
                f'<text x="{left - 8}" y="{y + bar}" text-anchor="end" font-size="12">'
                f"{model}, {instances:,}, {camera}</text>"
            )
            last_key = key
        parts.append(
            f'<rect x="{left}" y="{y}" width="{x(ms) - left:.1f}" height="{bar - 2}" '
            f'fill="{colours[name]}"/>'
            f'<text x="{x(ms) + 4:.1f}" y="{y + bar - 3}" font-size="10">'
            f"{ms / 1000:.2f} s</text>"
        )
        y += bar
    height = y + 50
    axis = []
    for e in range(lo_exp, hi_exp + 1):
        ms = 10**e
        label = f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"
        axis.append(
            f'<line x1="{x(ms):.1f}" y1="{top - 5}" x2="{x(ms):.1f}" y2="{y}" stroke="#ccc"/>'
            f'<text x="{x(ms):.1f}" y="{y + 15}" text-anchor="middle" font-size="11">{label}</text>'
        )
    legend = "".join(
        f'<rect x="{left + 150 * i}" y="{y + 25}" width="12" height="12" fill="{c}"/>'
        f'<text x="{left + 150 * i + 16}" y="{y + 35}" font-size="12">{n}</text>'
        for i, (n, c) in enumerate(colours.items())
    )
    doc = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" height="{height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
        f'<text x="{left}" y="16" font-size="13">frame time on lavapipe, 1280x720 '
        f"(median of rounds, log scale)</text>"
        + "".join(axis)
        + "".join(parts)
        + legend
        + "</svg>\n"
    )
    with open(path, "w") as f:
        f.write(doc)


def main():
    args = sys.argv[1:]
    svg_path = None
    if "--svg" in args:
        i = args.index("--svg")
        svg_path = args[i + 1]
        del args[i : i + 2]
    path = args[0] if args else "benches/results/scale/runs.jsonl"
    runs = load(path)
    print(table(runs))
    if svg_path:
        svg(runs, svg_path)


if __name__ == "__main__":
    main()
