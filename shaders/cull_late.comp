#version 460
// Occlusion culling, one invocation per instance that cull.comp found in view but small: its
// box is projected onto the occlusion image (the farthest depth of each square block of
// OCCLUSION_BLOCK pixels after the large instances and the ground were drawn) and drawn only
// if some of it may be in front of what is already there. What passes joins the camera's late
// list, drawn into the same depth before anything reads it, so the finished depth is the one
// every instance drawn would give: an occluded instance adds nothing to it.
#include "cull.glsl"
#include "cull_lists.glsl"

layout(local_size_x = CULL_GROUP) in;

layout(set = 0, binding = CULL_OCCLUSION_DEPTH) uniform sampler2D occlusion_depth;

layout(std430, set = 0, binding = CULL_CANDIDATES) readonly buffer Candidates {
    uint candidates[];
};

// The most occlusion texels one test reads; a box covering more is large on screen and is
// drawn (an instance that large is rarely hidden whole).
const int MAX_TEXELS = 64;

// Whether the box (centre, half size) lies wholly behind the depth already drawn.
bool occluded(vec3 centre, vec3 half_size) {
    vec2 lo = vec2(1e30);
    vec2 hi = vec2(-1e30);
    float nearest = 1.0;
    for (int k = 0; k < 8; k++) {
        vec3 corner = centre + half_size * vec3((k & 1) != 0 ? 1.0 : -1.0,
                                                (k & 2) != 0 ? 1.0 : -1.0,
                                                (k & 4) != 0 ? 1.0 : -1.0);
        vec4 clip = cull.view_proj * vec4(corner, 1.0);
        if (clip.w <= 0.0) {
            return false; // reaches behind the eye: no rectangle to test
        }
        vec3 ndc = clip.xyz / clip.w;
        lo = min(lo, ndc.xy);
        hi = max(hi, ndc.xy);
        nearest = min(nearest, ndc.z);
    }
    // A corner that is not a finite point (a transform gone wrong) leaves the box drawn; the
    // comparison is false for NaN too. Without it NaN would reach the integer texel range
    // below, where a conversion's undefined result can make the loop run for minutes.
    if (!all(lessThan(abs(vec4(lo, hi)), vec4(1e6)))) {
        return false;
    }
    vec2 size = cull.occlusion.zw;
    vec2 f0 = clamp(floor((lo * 0.5 + 0.5) * size), vec2(0.0), max(size - 1.0, vec2(0.0)));
    vec2 f1 = clamp(floor((hi * 0.5 + 0.5) * size), vec2(0.0), max(size - 1.0, vec2(0.0)));
    // Counted in floats, before any conversion to integers.
    vec2 span = f1 - f0 + 1.0;
    if (span.x * span.y > float(MAX_TEXELS)) {
        return false;
    }
    ivec2 t0 = ivec2(f0);
    ivec2 t1 = ivec2(f1);
    float farthest = 0.0;
    for (int y = t0.y; y <= t1.y; y++) {
        for (int x = t0.x; x <= t1.x; x++) {
            farthest = max(farthest, texelFetch(occlusion_depth, ivec2(x, y), 0).r);
        }
    }
    return nearest > farthest;
}

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= counters[candidates_index()]) {
        return;
    }
    uint i = candidates[k];
    InstanceRecord r = records[i];
    uint model_index = r.model_flags & RECORD_MODEL_MASK;
    CullModel model = models[model_index];
    vec3 centre;
    vec3 half_size;
    world_box(r, model, centre, half_size);
    if (!occluded(centre, half_size)) {
        append_camera(VIEW_CAMERA_LATE, model_index, model, r, centre, half_size, i);
    }
}
