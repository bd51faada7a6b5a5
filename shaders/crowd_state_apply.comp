#version 460
// The changes the application made through the crowd's API since the last frame (moved an
// instance, played a clip on it, replaced its clock, spawned or despawned one), applied to the GPU's copy of the
// crowd's state before shaders/crowd_state.comp advances it. One invocation applies them all,
// in the order they were made (a few a frame; an instance changed twice must end as the CPU
// would leave it; a despawn renumbers the last instance). The structs are
// src/motion/device_layouts.rs's; src/motion/rules/device_changes.rs makes the commands.

#include "crowd_tables.glsl"

layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Commands {
    CrowdCommand commands[];
};

layout(std430, set = 0, binding = 1) buffer Walkers {
    Walker walkers[];
};

layout(std430, set = 0, binding = 2) buffer Clocks {
    Clock clocks[];
};

layout(std430, set = 0, binding = 3) readonly buffer Models {
    Model models[];
};

layout(std430, set = 0, binding = 4) readonly buffer Clips {
    Clip clips[];
};

layout(push_constant) uniform Count {
    uint count;
} command_count;

void main() {
    for (uint k = 0u; k < command_count.count; ++k) {
        CrowdCommand cmd = commands[k];
        uint i = cmd.instance;
        if (cmd.kind == CROWD_COMMAND_MOVED) {
            // It stands, or starts its walk, where it was put.
            walkers[i].start = cmd.walker.start;
            clocks[i].distance = 0.0;
        } else if (cmd.kind == CROWD_COMMAND_PLAYED) {
            // SkinnedModelInstance::play: from the clip's start (its end backwards),
            // cross-fading from where it is.
            Clock c = clocks[i];
            Model m = models[walkers[i].model];
            if (cmd.clip >= m.clips) {
                continue;
            }
            play_clip(c, cmd.clip, clips[m.first_clip + cmd.clip].duration, cmd.fade);
            clocks[i] = c;
        } else if (cmd.kind == CROWD_COMMAND_REPLACED) {
            // Another instance in its place walks on from where it is, at its stride.
            Clock c = cmd.clock;
            c.distance = clocks[i].distance;
            c.stride = clocks[i].stride;
            clocks[i] = c;
            walkers[i].flags = cmd.walker.flags;
        } else if (cmd.kind == CROWD_COMMAND_PACED) {
            clocks[i].speed = cmd.clock.speed;
        } else if (cmd.kind == CROWD_COMMAND_SPAWNED) {
            walkers[i] = cmd.walker;
            clocks[i] = cmd.clock;
        } else if (cmd.kind == CROWD_COMMAND_DESPAWNED) {
            // Crowd::despawn: the last instance takes the removed one's index.
            walkers[i] = walkers[cmd.clip];
            clocks[i] = clocks[cmd.clip];
        } else if (cmd.kind == CROWD_COMMAND_RESLOTTED) {
            // Records stay dense: it takes the slot a removal freed.
            walkers[i].slot = cmd.walker.slot;
        } else if (cmd.kind == CROWD_COMMAND_RESTYLED) {
            // The look's bits of the flags (their place in the record's model_flags).
            walkers[i].flags = (walkers[i].flags & ~RECORD_LOOK_MASK)
                | (cmd.walker.flags & RECORD_LOOK_MASK);
        }
    }
}
