#version 460
// The playback on the GPU, before its step: the slots the host assigned a pedestrian to or
// emptied this frame (src/motion/playback/on_device.rs; at most one change per slot a frame,
// so each invocation applies one, in any order). The structs are
// src/motion/device_layouts.rs's.
#include "track.glsl"

layout(local_size_x = TRACK_GROUP) in;

layout(std430, set = 0, binding = 0) readonly buffer Commands {
    TrackCommand commands[];
};

layout(std430, set = 0, binding = 1) buffer Tracks {
    Track tracks[];
};

layout(push_constant) uniform Count {
    uint count;
} command_count;

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= command_count.count) {
        return;
    }
    TrackCommand cmd = commands[k];
    if (cmd.kind == TRACK_ASSIGN) {
        tracks[cmd.slot] = cmd.track;
    } else if (cmd.kind == TRACK_CLEAR) {
        Track empty = cmd.track;
        empty.flags = 0u;
        empty.head = 0u;
        tracks[cmd.slot] = empty;
    }
}
