#version 460
// The mesh raster (src/gpu/features/lit/mesh_compute.rs): the triangles of one model's
// camera lists that shaders/cull_draws.comp planned for it, into the visibility buffer the
// cards share. One invocation per triangle, four per thread a workgroup apart; each covered
// pixel keeps, with one 64-bit atomic, the nearest surface and its depth (the depth's bits
// inverted above the triangle's name, mesh_compute.glsl's mesh_key), as card_raster.comp keeps
// cards, at each of its samples (shaders/visibility.glsl: the lit passes' sample locations,
// `mesh.merge.x` of them). A sample is covered where it lies in the triangle, edges included
// (a sample two triangles share is kept by either, never by neither); the windings the lit
// passes cull
// are culled; a material the instance's look hides is not drawn, and while the instance
// crosses the card threshold only its share of the dither pattern is (dither.glsl).
#define VISIBILITY_WRITE
#include "visibility.glsl"
#include "mesh_compute.glsl"
#include "dither.glsl"

layout(local_size_x = 64) in;

// Rasterizes the triangle at `place` in the model's dispatch of `list`.
void raster(MeshList list, uint place) {
    uint t = place - list.first;
    MeshTriangle tri;
    if (t >= list.count
        || !mesh_triangle(list, t, mesh.model.y, mesh.model.z, tri)
        || !look_shows(tri.look, tri.material)) {
        return;
    }
    vec3 world[3];
    for (uint i = 0u; i < 3u; i++) {
        world[i] = mesh_corner(list, tri, mesh_indices[tri.first_index + i]).world;
    }
    vec2 size = vec2(mesh.raster.zw);
    vec3 s[3];
    vec3 w;
    if (!mesh_screen(frame.view_proj, world, size, s, w)) {
        return;
    }
    float area = mesh_edge_area(s);
    bool front = mesh_front_facing(area, mesh.raster.y != 0u);
    if (area == 0.0 || (mesh.raster.x & (front ? 1u : 2u)) == 0u) {
        return;
    }
    // The pixels the corners span.
    vec2 lo = min(s[0].xy, min(s[1].xy, s[2].xy));
    vec2 hi = max(s[0].xy, max(s[1].xy, s[2].xy));
    ivec2 first = max(ivec2(floor(lo)), ivec2(0));
    ivec2 last = min(ivec2(floor(hi)), ivec2(mesh.raster.zw) - 1);
    uint name = mesh_key(mesh.model.x, place);
    uint samples = max(mesh.merge.x, 1u);
    for (int y = first.y; y <= last.y; y++) {
        for (int x = first.x; x <= last.x; x++) {
            ivec2 pixel = ivec2(x, y);
            if (!mesh_keeps_pixel_at(tri.share, pixel)) {
                continue;
            }
            for (uint k = 0u; k < samples; k++) {
                vec3 b = mesh_barycentric(s, vec2(pixel) + sample_offset(k, samples), area);
                if (any(lessThan(b, vec3(0.0)))) {
                    continue;
                }
                float depth = dot(b, vec3(s[0].z, s[1].z, s[2].z));
                if (depth >= 0.0 && depth <= 1.0) {
                    keep_nearest(visibility_at(pixel, k, samples, mesh.raster.z),
                                 surface_key(depth, name));
                }
            }
        }
    }
}

void main() {
    MeshList list;
    if (!mesh_list_of_group(mesh.model.x, gl_WorkGroupID.x, false, list)) {
        return;
    }
    uint group_first = gl_WorkGroupID.x * RASTER_GROUP_TRIANGLES;
    for (uint i = 0u; i < RASTER_GROUP_TRIANGLES / 64u; i++) {
        raster(list, group_first + i * 64u + gl_LocalInvocationID.x);
    }
}
