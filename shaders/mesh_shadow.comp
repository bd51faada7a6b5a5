#version 460
// The sun's mesh raster (src/gpu/features/mesh_shadow.rs): the triangles of one model's sun
// lists that shaders/cull_draws.comp planned for it (the coarser levels), into the shadow
// map's depths (the whole box's square, or, dispatched again through the near cascade's copy
// of the frame, the near square) before the shadow passes draw the rest over them. One
// invocation per triangle, four per thread a workgroup apart, as mesh_raster.comp; each covered texel centre keeps the
// nearest depth with a 32-bit atomic minimum on the float's bits (which order as the floats do,
// all being positive), as card_shadow.comp keeps the sun's cards. What the shadow pass's
// pipeline does to the same triangle is done here: the winding it culls is culled, a material
// the instance's look hides casts nothing, and its depth bias (constant and slope) is added.
#include "mesh_compute.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 17) buffer ShadowDepths {
    uint shadow_depths[];
};

// The shadow pass's depth bias (src/gpu/features/shadow.rs, BIAS), in `mesh.merge`'s floats'
// bits: x constant, y slope.
float bias_constant() {
    return uintBitsToFloat(mesh.merge.x);
}

float bias_slope() {
    return uintBitsToFloat(mesh.merge.y);
}

// Vulkan's depth bias of a triangle `s` (texels and depth) of doubled signed area `area`, for
// a 32-bit float depth: the constant in units of the smallest step of the largest depth's
// exponent (2^(e - 23)), the slope times the larger of the depth's slopes across and down.
float depth_bias(vec3 s[3], float area) {
    float dzdx = ((s[1].z - s[0].z) * (s[2].y - s[0].y) - (s[2].z - s[0].z) * (s[1].y - s[0].y))
        / area;
    float dzdy = ((s[1].x - s[0].x) * (s[2].z - s[0].z) - (s[2].x - s[0].x) * (s[1].z - s[0].z))
        / area;
    float largest = max(s[0].z, max(s[1].z, s[2].z));
    int e;
    frexp(max(largest, 1e-30), e); // largest = m 2^e with m in [0.5, 1): its exponent is e - 1
    return bias_constant() * exp2(float(e - 24)) + bias_slope() * max(abs(dzdx), abs(dzdy));
}

// Rasterizes the triangle at `place` in the model's sun dispatch of `list`.
void raster(MeshList list, uint place) {
    uint t = place - list.first;
    MeshTriangle tri;
    if (t >= list.count
        || !mesh_triangle(list, t, mesh.model.y, mesh.model.z, tri)
        || !look_shows(tri.look, tri.material)) {
        return;
    }
    // Into the near cascade's square (frame.near_lo.w is 1 in its copy of the frame), only
    // the instances the culling found within its reach (their share is not whole).
    if (frame.near_lo.w > 0.0 && tri.share == 1.0) {
        return;
    }
    vec3 world[3];
    for (uint i = 0u; i < 3u; i++) {
        world[i] = mesh_corner_position(list, tri, mesh_indices[tri.first_index + i]);
    }
    uvec2 side = mesh.raster.zw;
    vec3 s[3];
    vec3 w;
    if (!mesh_screen(frame.light_view_proj, world, vec2(side), s, w)) {
        return;
    }
    float area = mesh_edge_area(s);
    bool front = mesh_front_facing(area, mesh.raster.y != 0u);
    if (area == 0.0 || (mesh.raster.x & (front ? 1u : 2u)) == 0u) {
        return;
    }
    float bias = depth_bias(s, area);
    // The texels whose centres the corners span.
    vec2 lo = min(s[0].xy, min(s[1].xy, s[2].xy));
    vec2 hi = max(s[0].xy, max(s[1].xy, s[2].xy));
    ivec2 first = max(ivec2(ceil(lo - 0.5)), ivec2(0));
    ivec2 last = min(ivec2(floor(hi - 0.5)), ivec2(side) - 1);
    for (int y = first.y; y <= last.y; y++) {
        for (int x = first.x; x <= last.x; x++) {
            vec3 b = mesh_barycentric(s, vec2(x, y) + 0.5, area);
            if (any(lessThan(b, vec3(0.0)))) {
                continue;
            }
            // Clipped to the map's depth range first, then biased and clamped to it, as the
            // fixed-function stages do.
            float depth = dot(b, vec3(s[0].z, s[1].z, s[2].z));
            if (depth < 0.0 || depth > 1.0) {
                continue;
            }
            uint bits = floatBitsToUint(clamp(depth + bias, 0.0, 1.0));
            uint at = uint(y) * side.x + uint(x);
            if (shadow_depths[at] > bits) {
                atomicMin(shadow_depths[at], bits);
            }
        }
    }
}

void main() {
    MeshList list;
    if (!mesh_list_of_group(mesh.model.x, gl_WorkGroupID.x, true, list)) {
        return;
    }
    uint group_first = gl_WorkGroupID.x * RASTER_GROUP_TRIANGLES;
    for (uint i = 0u; i < RASTER_GROUP_TRIANGLES / 64u; i++) {
        raster(list, group_first + i * 64u + gl_LocalInvocationID.x);
    }
}
