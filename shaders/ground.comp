#version 460
// The ground and the sky of the frame without a prepass, drawn by a compute pass after the lit
// passes have resolved (src/gpu/features/lit/ground.rs) instead of rasterized under them at every
// sample. The lit passes cleared the light and the normals to nothing (alpha 0) and drew
// alpha 1, so each resolved pixel's alpha is the share of its samples that meshes (or cards
// drawn as quads) cover, and its colour their sum over it; the rest of the pixel is the
// ground's (shaders/ground_shading.glsl, at the point the pixel's centre sees,
// shaders/ground_ray.glsl), or the sky where the ray misses the quad. Adding it after the
// resolve equals drawing it under the meshes at every sample, since the resolve averages.
#include "ground_shading.glsl"
#include "ground_ray.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 19, rgba16f) uniform image2D sun_light;
layout(set = 0, binding = 20, rgba16f) uniform image2D sky_light;
layout(set = 0, binding = 21, rgba16f) uniform image2D view_normals;

layout(push_constant) uniform Ground {
    GROUND_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs
} ground;

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= int(frame.target.x) || pixel.y >= int(frame.target.y)) {
        return;
    }
    vec4 sun = imageLoad(sun_light, pixel);
    float open = 1.0 - sun.a;
    if (open <= 0.0) {
        return; // meshes cover every sample
    }
    vec2 ndc = pixel_ndc(pixel, frame.target.xy);
    vec3 world;
    vec3 direct = ground.background.rgb;
    vec3 ambient = vec3(0.0);
    vec4 normal = vec4(0.0);
    if (ground_quad_point(ndc, world)) {
        // The pixel's footprint on the ground, in tiles along each ground axis: from the
        // points the next pixel across and the next one down see (what dFdx and dFdy give
        // the fragment shader).
        vec3 dir = ray_dir(ndc);
        vec3 across;
        vec3 down;
        vec2 footprint = vec2(1e4);
        if (ground_plane_point_along(dir + ray_step(0), across)
            && ground_plane_point_along(dir + ray_step(1), down)) {
            footprint = (abs(across.xz - world.xz) + abs(down.xz - world.xz))
                / frame.ground_tile.x;
        }
        SurfaceLight light = ground_light(world, footprint);
        direct = light.direct;
        ambient = light.ambient;
        normal = vec4(normalize(mat3(frame.view) * vec3(0.0, 1.0, 0.0)), 1.0);
    }
    imageStore(sun_light, pixel, vec4(sun.rgb + open * direct, 1.0));
    vec4 sky = imageLoad(sky_light, pixel);
    imageStore(sky_light, pixel, vec4(sky.rgb + open * ambient, sky.a + open * normal.a));
    vec4 n = imageLoad(view_normals, pixel);
    imageStore(view_normals, pixel, n + open * normal);
}
