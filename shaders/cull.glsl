// What the culling passes share (shaders/cull.comp, shaders/cull_late.comp,
// shaders/cull_draws.comp): the frame's view data, the models and their bounds, the
// counters, lists and draws they fill, and the rules they apply to one instance.
// The tables' layouts are src/gpu/frame/device_layouts.rs's (made GLSL by build.rs).
#ifndef THRONG_CULL_GLSL
#define THRONG_CULL_GLSL

#include "record.glsl"

// From src/gpu/frame/shader_interface.rs (macros): LOD_LEVELS, the mesh levels (the full mesh and
// up to four coarser ones); the views lists are kept for, VIEW_CAMERA (the instances large
// enough to hide others, drawn first), VIEW_SHADOW (what casts shadows into it) and
// VIEW_CAMERA_LATE (what the occlusion test lets through), VIEWS in all; and the CULL_* flags
// of cull.counts.z: CULL_FRUSTUM (test bounds against the views; off: everything is drawn),
// CULL_LOD (choose levels by projected error; off: the full mesh), CULL_SHADOWS (fill the
// shadow view's lists), CULL_OCCLUSION (small instances wait for the occlusion test),
// CULL_IMPOSTORS (instances short on screen become impostor cards). Each view and model has
// LIST_LEVELS lists: the mesh levels, then CARD_LEVEL, the cards.

#include "renderer_layouts.glsl"

layout(std430, set = 0, binding = CULL_RECORDS) readonly buffer Records {
    InstanceRecord records[];
};

layout(std430, set = 0, binding = CULL_FRAME) readonly buffer CullFrame {
    CULL_VIEW_FIELDS // src/gpu/frame/device_layouts.rs, CullFrame
} cull;

layout(std430, set = 0, binding = CULL_MODELS) readonly buffer Models {
    CullModel models[];
};

layout(std430, set = 0, binding = CULL_BOUNDS) readonly buffer Bounds {
    Bound bounds[];
};

// Per model, per subset, per level: (first index, index count) in the model's index buffer,
// the subset's material index, unused.
layout(std430, set = 0, binding = CULL_DRAW_RANGES) readonly buffer DrawRanges {
    uvec4 draw_ranges[];
};

// Instances per view, model and list: [view][model][list] (the mesh levels, then the cards).
layout(std430, set = 0, binding = CULL_COUNTERS) buffer Counters {
    uint counters[];
};

uint counter_index(uint view, uint model, uint level) {
    return (view * cull.counts.y + model) * LIST_LEVELS + level;
}

// The counter of instances waiting for the occlusion test, after the lists' counters.
uint candidates_index() {
    return VIEWS * cull.counts.y * LIST_LEVELS;
}

// Where the list of a view and level (or CARD_LEVEL) starts: [view][list][record]; a
// model's instances sit in its records' range of it.
uint list_start(uint view, uint level) {
    return (view * LIST_LEVELS + level) * cull.counts.x;
}

// An instance's world box (centre, half size): the union of its clips' bounds (a cross-fade
// shows poses of both), the centre transformed, the half size through |M|.
void world_box(InstanceRecord r, CullModel model, out vec3 centre, out vec3 half_size) {
    Bound a = bounds[model.range.z + (r.bounds & 0xffffu)];
    Bound b = bounds[model.range.z + (r.bounds >> 16)];
    vec3 lo = min(a.lo.xyz, b.lo.xyz);
    vec3 hi = max(a.hi.xyz, b.hi.xyz);
    centre = transform_point(world_matrix(r), 0.5 * (lo + hi));
    vec3 half_model = 0.5 * (hi - lo);
    half_size = vec3(dot(abs(r.world[0].xyz), half_model),
                     dot(abs(r.world[1].xyz), half_model),
                     dot(abs(r.world[2].xyz), half_model));
}

// The largest stretch of the instance's transform (its longest column).
float world_scale(InstanceRecord r) {
    vec3 column0 = vec3(r.world[0].x, r.world[1].x, r.world[2].x);
    vec3 column1 = vec3(r.world[0].y, r.world[1].y, r.world[2].y);
    vec3 column2 = vec3(r.world[0].z, r.world[1].z, r.world[2].z);
    return max(length(column0), max(length(column1), length(column2)));
}

// How far the box's nearest point (on its sphere) is from the eye, at least cull.lod.y.
float nearest_distance(vec3 centre, vec3 half_size) {
    return max(length(cull.eye.xyz - centre) - length(half_size), cull.lod.y);
}

// Pixels per world unit at the box's nearest point (on its sphere) to the eye.
float pixels_per_unit_at(vec3 centre, vec3 half_size) {
    return cull.eye.w / nearest_distance(centre, half_size);
}

// The coarsest level whose error covers at most `allowed` pixels.
uint choose_level(CullModel model, float scale, float pixels_per_unit, float allowed) {
    uint level = 0u;
    // At most LOD_LEVELS whatever the buffer says: a loop bound read from memory is bounded.
    uint levels = min(model.range.w, uint(LOD_LEVELS));
    for (uint k = 1u; k < levels; k++) {
        if (model.errors[k - 1u] * scale * pixels_per_unit <= allowed) {
            level = k;
        }
    }
    return level;
}

// How much of an instance its mesh draws, in 255ths: 255 (the mesh alone) unless cards are
// on and its model's atlas holds the clip it plays; then by its box's height on screen
// (measured at its nearest point, as levels are): 255 from cull.impostor.x pixels, 0 (the
// card alone) under cull.impostor.y, and in between the mesh's share of a dither pattern,
// the card taking the rest, so nothing pops where an instance crosses the threshold.
uint mesh_share(InstanceRecord r, CullModel model, vec3 centre, vec3 half_size) {
    if ((cull.counts.z & CULL_IMPOSTORS) == 0u || (r.bounds & 0xffffu) >= model.draws.z) {
        return 255u;
    }
    float height = 2.0 * half_size.y * pixels_per_unit_at(centre, half_size);
    float t = (height - cull.impostor.y) / max(cull.impostor.x - cull.impostor.y, 1e-6);
    return uint(round(clamp(t, 0.0, 1.0) * 255.0));
}

// The camera's level of an instance (0 without CULL_LOD).
uint camera_level(InstanceRecord r, CullModel model, vec3 centre, vec3 half_size) {
    if ((cull.counts.z & CULL_LOD) == 0u) {
        return 0u;
    }
    return choose_level(model, world_scale(r), pixels_per_unit_at(centre, half_size), cull.lod.x);
}

// The share a mesh in the sun's lists has where it stands within the near shadow cascade's
// reach (the others have 255, cards 0): the near square's passes draw only these. A shadow is
// not dithered, so the sun's passes read the share for nothing else.
const uint NEAR_CASCADE_SHARE = 254u;

// A visible list's entry: the record and the mesh's share (VISIBLE_SHARE_SHIFT).
uint list_entry(uint record, uint share) {
    return record | (share << VISIBLE_SHARE_SHIFT);
}

#endif
