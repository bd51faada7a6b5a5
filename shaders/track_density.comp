#version 460
// Colouring by density, one invocation per slot: a pedestrian present counts those present
// within DENSITY_RADIUS of it (itself included) in the nine cells around its own (listed by
// shaders/track_density_insert.comp), and wears the ramp's look for that count over the
// circle's area, as DensityGrid::densities (src/motion/coloring.rs) and Locomotion::step
// (src/motion/locomotion.rs) do on the CPU, from the smoothed places the step just wrote.
// Places are metres from the playback's origin in single precision (the CPU's are the file's
// in double): a neighbour within micrometres of the radius may count on one side and not on
// the other.
#include "crowd_tables.glsl"
#include "record.glsl"
#include "track.glsl"
#include "track_density.glsl"
#include "track_looks.glsl"

layout(local_size_x = TRACK_GROUP) in;

layout(std430, set = 0, binding = 0) buffer Tracks {
    Track tracks[];
};

layout(std430, set = 0, binding = 1) readonly buffer Heads {
    uint heads[];
};

layout(std430, set = 0, binding = 2) readonly buffer Next {
    uint next[];
};

layout(std430, set = 0, binding = 3) buffer Walkers {
    Walker walkers[];
};

layout(std430, set = 0, binding = 4) readonly buffer GaitTable {
    Gaits gaits[];
};

layout(push_constant) uniform Step {
    TRACK_STEP_FIELDS
} step;

const float PI = 3.14159265358979;

void main() {
    uint s = gl_GlobalInvocationID.x;
    if (s >= step.count || (tracks[s].flags & TRACK_ENTERED) == 0u) {
        return;
    }
    vec2 p = tracks[s].position;
    ivec2 own = density_cell(p);
    float area = PI * DENSITY_RADIUS * DENSITY_RADIUS;
    // Past the ramp's top every count wears its last step: counting stops there (the CPU's
    // count, coloring::top_count), so a crowd standing on one spot costs each of its members
    // a few neighbours, not all of them.
    uint enough = step.density_most;
    uint count = 0u;
    for (int dy = -1; dy <= 1 && count < enough; ++dy) {
        for (int dx = -1; dx <= 1 && count < enough; ++dx) {
            ivec2 cell = own + ivec2(dx, dy);
            uint j = heads[density_bucket(cell, step.density_buckets)];
            // Each slot is listed once, so no list is longer than the slots.
            for (uint n = 0u; j != TRACK_NONE && n < step.count && count < enough; ++n) {
                vec2 q = tracks[j].position;
                if (density_cell(q) == cell && length(q - p) <= DENSITY_RADIUS) {
                    count += 1u;
                }
                j = next[j];
            }
        }
    }
    float density = float(count) / area;
    uint i = step.base + s;
    Walker w = walkers[i];
    uint want = color_step(density, step.color_top);
    if (want != tracks[s].step && want < gaits[w.model].ramp_len) {
        wear(w, gaits[w.model].ramp[want]);
        walkers[i].flags = w.flags;
        tracks[s].step = want;
    }
}
