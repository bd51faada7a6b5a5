#version 460
// Culling and level selection, one invocation per instance record. For each view (the
// camera, and the sun's view of what can shadow the camera's), test the instance's bound,
// choose a mesh level from its projected error, and append the record's index to the list
// of that view, model and level (an atomic counter per list). src/crowd/visibility.rs states
// the same rules on the CPU; tests compare the counts.
#include "cull.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 6) writeonly buffer Lists {
    uint lists[];
};

// Whether any of the box (centre, half size) can be inside the planes.
bool intersects(vec4 planes[6], vec3 centre, vec3 half_size) {
    for (int i = 0; i < 6; i++) {
        vec3 n = planes[i].xyz;
        if (dot(n, centre) + dot(abs(n), half_size) + planes[i].w < 0.0) {
            return false;
        }
    }
    return true;
}

// The coarsest level whose error covers at most `allowed` pixels.
uint choose_level(CullModel model, float scale, float pixels_per_unit, float allowed) {
    uint level = 0u;
    for (uint k = 1u; k < model.range.w; k++) {
        if (model.errors[k - 1u] * scale * pixels_per_unit <= allowed) {
            level = k;
        }
    }
    return level;
}

void append(uint view, uint model_index, CullModel model, uint level, uint record) {
    uint slot = atomicAdd(counters[counter_index(view, model_index, level)], 1u);
    // Without culling or levels every instance lands in level 0: keep the record order so
    // the frame is the same from run to run.
    if ((cull.counts.z & (CULL_FRUSTUM | CULL_LOD)) == 0u) {
        slot = record - model.range.x;
    }
    lists[list_start(view, level) + model.range.x + slot] = record;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= cull.counts.x) {
        return;
    }
    InstanceRecord r = records[i];
    uint model_index = r.model_flags & RECORD_MODEL_MASK;
    CullModel model = models[model_index];
    // A cross-fade shows poses of both clips: the union of their bounds.
    Bound a = bounds[model.range.z + (r.bounds & 0xffffu)];
    Bound b = bounds[model.range.z + (r.bounds >> 16)];
    vec3 lo = min(a.lo.xyz, b.lo.xyz);
    vec3 hi = max(a.hi.xyz, b.hi.xyz);
    // The world box: the centre transformed, the half size through |M|.
    mat3x4 world = world_matrix(r);
    vec3 centre = transform_point(world, 0.5 * (lo + hi));
    vec3 half_model = 0.5 * (hi - lo);
    vec3 half_size = vec3(dot(abs(r.world[0].xyz), half_model),
                          dot(abs(r.world[1].xyz), half_model),
                          dot(abs(r.world[2].xyz), half_model));
    uint flags = cull.counts.z;
    bool frustum = (flags & CULL_FRUSTUM) != 0u;

    uint level = 0u;
    uint shadow_level = 0u;
    if ((flags & CULL_LOD) != 0u) {
        vec3 column0 = vec3(r.world[0].x, r.world[1].x, r.world[2].x);
        vec3 column1 = vec3(r.world[0].y, r.world[1].y, r.world[2].y);
        vec3 column2 = vec3(r.world[0].z, r.world[1].z, r.world[2].z);
        float scale = max(length(column0), max(length(column1), length(column2)));
        float distance = max(length(cull.eye.xyz - centre) - length(half_size), cull.lod.y);
        float pixels_per_unit = cull.eye.w / distance;
        level = choose_level(model, scale, pixels_per_unit, cull.lod.x);
        // A shadow forgives more than the surface itself (soft, filtered, often oblique):
        // its level may stray cull.lod.w times as far, and never needs to be finer than
        // what the shadow map's texels can show.
        float shadow_allowed = max(cull.lod.x * cull.lod.w,
                                   cull.shadow.x * cull.shadow.y * pixels_per_unit);
        shadow_level = choose_level(model, scale, pixels_per_unit, shadow_allowed);
    }

    if (!frustum || intersects(cull.camera_planes, centre, half_size)) {
        append(VIEW_CAMERA, model_index, model, level, i);
    }
    if ((flags & CULL_SHADOWS) != 0u) {
        bool casts = true;
        if (frustum) {
            // In the shadow map, and its shadow (the box swept away from the sun down to
            // the ground) reaches what the camera sees.
            vec3 bottom = centre - half_size;
            vec3 top = centre + half_size;
            float height = max(top.y - cull.light.w, 0.0);
            vec3 run = -cull.light.xyz * (height / max(cull.light.y, cull.lod.z));
            vec3 swept_lo = min(bottom, bottom + run);
            vec3 swept_hi = max(top, top + run);
            swept_lo.y = max(swept_lo.y, min(cull.light.w, bottom.y));
            casts = intersects(cull.light_planes, centre, half_size)
                 && intersects(cull.camera_planes, 0.5 * (swept_lo + swept_hi),
                               0.5 * (swept_hi - swept_lo));
        }
        if (casts) {
            append(VIEW_SHADOW, model_index, model, shadow_level, i);
        }
    }
}
