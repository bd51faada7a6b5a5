// What the culling passes share (shaders/cull.comp, shaders/cull_draws.comp): the frame's
// view data, the models and their bounds, and the counters, lists and draws they fill.
// Keep in step with src/gpu/cull_data.rs; tests/gpu_layouts.rs checks the offsets.
#ifndef THRONG_CULL_GLSL
#define THRONG_CULL_GLSL

#include "record.glsl"

// Mesh levels: the full mesh and up to four coarser ones (src/crowd/visibility.rs).
const uint LEVELS = 5u;
// The two views: what the camera sees, and what casts shadows into it.
const uint VIEW_CAMERA = 0u;
const uint VIEW_SHADOW = 1u;
const uint VIEWS = 2u;

const uint CULL_FRUSTUM = 1u;  // test bounds against the views (off: everything is drawn)
const uint CULL_LOD = 2u;      // choose levels by projected error (off: the full mesh)
const uint CULL_SHADOWS = 4u;  // fill the shadow view's lists

layout(std430, set = 0, binding = 0) readonly buffer Records {
    InstanceRecord records[];
};

layout(std430, set = 0, binding = 1) readonly buffer CullFrame {
    vec4 camera_planes[6]; // n.xyz, d: n . p + d >= 0 inside
    vec4 light_planes[6];  // the shadow map's volume
    vec4 eye;              // xyz: the eye; w: pixels per world unit one unit in front of it
    vec4 light;            // xyz: unit vector towards the sun; w: ground height
    vec4 lod;              // x: allowed error in pixels; y: nearest distance; z: lowest sun
                           // (sine of its elevation) a shadow is swept for; w: how many
                           // times the error a shadow's level may have
    uvec4 counts;          // x: instances; y: models; z: CULL_* flags; w: most subsets of a model
    vec4 shadow;           // x: a shadow-map texel's size in world units; y: the texels of
                           // error a shadow's level may have
} cull;

struct CullModel {
    uvec4 range;   // x: first record; y: records; z: first bound; w: levels (1 to LEVELS)
    vec4 errors;   // levels 1 to 4: error in model units
    uvec4 draws;   // x: first draw range; y: subsets
};

layout(std430, set = 0, binding = 2) readonly buffer Models {
    CullModel models[];
};

struct Bound {
    vec4 lo;
    vec4 hi;
};

layout(std430, set = 0, binding = 3) readonly buffer Bounds {
    Bound bounds[];
};

// Per model, per subset, per level: (first index, index count) in the model's index buffer.
layout(std430, set = 0, binding = 4) readonly buffer DrawRanges {
    uvec2 draw_ranges[];
};

// Instances per view, model and level: [view][model][level].
layout(std430, set = 0, binding = 5) buffer Counters {
    uint counters[];
};

uint counter_index(uint view, uint model, uint level) {
    return (view * cull.counts.y + model) * LEVELS + level;
}

// Where the list of a view and level starts: [view][level][record]; a model's instances sit
// in its records' range of it.
uint list_start(uint view, uint level) {
    return (view * LEVELS + level) * cull.counts.x;
}

#endif
