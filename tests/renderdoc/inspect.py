#!/usr/bin/python3
"""Opens a RenderDoc capture (.rdc) with RenderDoc's replay API (Debian: python3-renderdoc,
for the system /usr/bin/python3) and prints what tests/gpu_renderdoc.rs checks, as JSON:

    {"labels": [...],   # debug-label regions (passes), depth-first in recorded order
     "draws": [{"name": ..., "event": N, "instances": N, "indices": N, "indexed": bool,
                "labels": [...]}, ...],
     "resources": [...]} # names of the capture's resources (buffers, images, ...)

"labels" on a draw are the label regions enclosing it, outermost first.
Usage: inspect.py CAPTURE.rdc [--text]   (--text: the event list as indented lines instead)

Exit status 2 when the module or the file cannot be opened, with one line on stderr.
"""

import json
import sys

try:
    import renderdoc as rd
except ImportError as e:  # pragma: no cover - checked by the Rust test before running
    print(f"inspect.py: the renderdoc Python module is missing ({e}); "
          "install python3-renderdoc", file=sys.stderr)
    sys.exit(2)


def open_capture(path):
    """The capture file and a replay controller, or exits with a message."""
    rd.InitialiseReplay(rd.GlobalEnvironment(), [])
    cap = rd.OpenCaptureFile()
    result = cap.OpenFile(path, "", None)
    if result != rd.ResultCode.Succeeded:
        print(f"inspect.py: cannot open {path}: {result}", file=sys.stderr)
        sys.exit(2)
    if not cap.LocalReplaySupport():
        print(f"inspect.py: {path} cannot be replayed on this machine", file=sys.stderr)
        sys.exit(2)
    result, controller = cap.OpenCapture(rd.ReplayOptions(), None)
    if result != rd.ResultCode.Succeeded:
        print(f"inspect.py: cannot replay {path}: {result}", file=sys.stderr)
        sys.exit(2)
    return cap, controller


def walk(actions, sfile, stack, out, lines, depth):
    """Depth-first over the action tree, in recorded order."""
    for a in actions:
        name = a.GetName(sfile)
        flags = a.flags
        is_marker = bool(flags & rd.ActionFlags.PushMarker)
        is_draw = bool(flags & rd.ActionFlags.Drawcall)
        lines.append("  " * depth + (f"{name}" if not is_draw
                                     else f"{name}  [{a.numInstances} instances]"))
        if is_marker:
            out["labels"].append(name)
        if is_draw:
            out["draws"].append({
                "name": name,
                "event": a.eventId,
                "instances": a.numInstances,
                "indices": a.numIndices,
                "indexed": bool(flags & rd.ActionFlags.Indexed),
                "labels": list(stack),
            })
        if len(a.children) > 0:
            walk(a.children, sfile, stack + ([name] if is_marker else []), out, lines,
                 depth + 1)


def main(argv):
    if len(argv) < 2:
        print("usage: inspect.py CAPTURE.rdc [--text]", file=sys.stderr)
        return 2
    cap, controller = open_capture(argv[1])
    try:
        sfile = controller.GetStructuredFile()
        out = {"labels": [], "draws": [], "resources": []}
        lines = []
        walk(controller.GetRootActions(), sfile, [], out, lines, 0)
        out["resources"] = sorted({r.name for r in controller.GetResources()})
        if "--text" in argv[2:]:
            print("\n".join(lines))
        else:
            print(json.dumps(out, indent=1))
    finally:
        controller.Shutdown()
        cap.Shutdown()
        rd.ShutdownReplay()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
