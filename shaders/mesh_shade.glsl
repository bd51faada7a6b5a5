// The mesh raster's pixels lit and merged into the lit frame (compiled as mesh_shade.comp for
// multisampled depth, mesh_shade_single.comp with SINGLE_SAMPLE), one dispatch per model and
// subset (each has its own textures and material, pushed as the lit passes push them): for
// each pixel whose nearest surface in the visibility buffer is a triangle of this dispatch's
// subset, the surface at the pixel's centre is found (perspective-correct weights of the
// triangle's corners, as the rasterizer's interpolation gives a fragment), lit as
// skinned_lit.glsl lights a fragment, and merged into the lit frame as a card is
// (merge_lit.glsl).
#ifndef THRONG_MESH_SHADE_GLSL
#define THRONG_MESH_SHADE_GLSL

#define MESH_SHADE
#include "mesh_compute.glsl"
#include "merge_lit.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = BINDING_BASE_COLOR) uniform sampler2D base_color_map;
layout(set = 0, binding = BINDING_NORMAL) uniform sampler2D normal_map;

// Perspective-correct weights of the corners at pixel point `p` (screen weights divided by
// each corner's clip w, renormalized).
vec3 corner_weights(vec3 s[3], vec3 w, vec2 p, float area) {
    vec3 b = mesh_barycentric(s, p, area) / w;
    return b / (b.x + b.y + b.z);
}

// Lights triangle `name` of this dispatch's subset at `pixel` and merges it by the share of
// samples it claims, `claimed` of `samples`.
void shade(ivec2 pixel, uint name, uint claimed, uint samples) {
    uint place = name & 0x00ffffffu;
    MeshList list;
    MeshTriangle tri;
    if (!mesh_list_of_group(mesh.model.x, place / RASTER_GROUP_TRIANGLES, false, list)
        || !mesh_triangle(list, place - list.first, mesh.model.y, mesh.model.z, tri)
        || tri.subset != mesh.model.w) {
        return;
    }
    ivec2 size = ivec2(mesh.raster.zw);
    MeshCorner c[3];
    vec2 uv[3];
    vec3 world[3];
    float hand[3];
    for (uint i = 0u; i < 3u; i++) {
        uint v = mesh_indices[tri.first_index + i];
        c[i] = mesh_corner(list, tri, v);
        world[i] = c[i].world;
        uint at = v * VERTEX_WORDS;
        uv[i] = uintBitsToFloat(uvec2(mesh_words[at + 10u], mesh_words[at + 11u]));
        hand[i] = uintBitsToFloat(mesh_words[at + 9u]); // the tangent's w
    }
    vec3 s[3];
    vec3 w;
    if (!mesh_screen(frame.view_proj, world, vec2(size), s, w)) {
        return;
    }
    float area = mesh_edge_area(s);
    vec2 centre = vec2(pixel) + 0.5;
    vec3 b = corner_weights(s, w, centre, area);
    vec3 bx = corner_weights(s, w, centre + vec2(1.0, 0.0), area);
    vec3 by = corner_weights(s, w, centre + vec2(0.0, 1.0), area);
    vec2 at_uv = b.x * uv[0] + b.y * uv[1] + b.z * uv[2];
    // The uv one pixel across and down: the derivatives a fragment's quad would give.
    vec2 duv_dx = bx.x * uv[0] + bx.y * uv[1] + bx.z * uv[2] - at_uv;
    vec2 duv_dy = by.x * uv[0] + by.y * uv[1] + by.z * uv[2] - at_uv;
    vec3 at_world = b.x * world[0] + b.y * world[1] + b.z * world[2];
    vec3 normal = b.x * c[0].normal + b.y * c[1].normal + b.z * c[2].normal;
    vec3 tangent = b.x * c[0].tangent + b.y * c[1].tangent + b.z * c[2].tangent;
    float handedness = b.x * hand[0] + b.y * hand[1] + b.z * hand[2];

    vec4 base = textureGrad(base_color_map, at_uv, duv_dx, duv_dy) * mesh.base_color;
    vec3 n = normalize(normal);
    if (!mesh_front_facing(area, mesh.raster.y != 0u)) {
        n = -n; // two-sided look for the rare open mesh seen from behind
    }
    vec3 geometric = n; // what the lit passes write as the normal (no normal map)
    if (mesh.params.z > 0.5) {
        vec3 t = normalize(tangent - n * dot(n, tangent));
        // The bitangent's handedness flips when the instance transform mirrors.
        vec3 bt = cross(n, t) * handedness * mesh.params.w;
        vec3 tn = textureGrad(normal_map, at_uv, duv_dx, duv_dy).xyz * 2.0 - 1.0;
        n = normalize(mat3(t, bt, n) * tn);
    }
    vec3 albedo = base.rgb * look_tint(tri.look, tri.material);
    SurfaceLight light = light_surface(albedo, n, at_world, mesh.params.x, mesh.fresnel0.rgb);
    merge_lit(pixel, light, geometric, float(claimed) / float(samples), mesh.merge.y != 0u);
}

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= int(mesh.raster.z) || pixel.y >= int(mesh.raster.w)) {
        return;
    }
    // Each triangle of this model that claims a sample, once: lit at the pixel's centre, as a
    // multisampled fragment is, and merged by its samples. The depths are read only where
    // a sample keeps one of this model's triangles.
    uint samples = clamp(mesh.merge.x, 1u, 8u);
    uint names[8];
    bool any_mine = false;
    for (uint s = 0u; s < samples; s++) {
        uint64_t key = visibility[visibility_at(pixel, s, samples, mesh.raster.z)];
        names[s] = key_name(key);
        bool mine = key != 0UL && (names[s] & MESH_KEY) != 0u
            && ((names[s] >> 24) & 0x7fu) == mesh.model.x;
        any_mine = any_mine || mine;
        names[s] = mine ? names[s] : 0u;
    }
    if (!any_mine) {
        return;
    }
    float ground = ground_depth_for(pixel, mesh.merge.y != 0u);
    for (uint s = 0u; s < samples; s++) {
        uint name = names[s];
        bool first = name != 0u;
        for (uint e = 0u; e < s; e++) {
            first = first && names[e] != name;
        }
        if (first) {
            uint claimed = samples_claimed_by(pixel, name, samples, ground);
            if (claimed > 0u) {
                shade(pixel, name, claimed, samples);
            }
        }
    }
}

#endif
