// The ground and the sky of the frame without a prepass, drawn by a compute pass after the lit
// passes (src/gpu/features/lit/ground.rs) instead of rasterized under them at every sample.
// The lit passes cleared the light and the normals to nothing (alpha 0) and drew alpha 1, so
// each resolved pixel's alpha is the share of its samples that meshes (or cards drawn as
// quads) cover, and its colour their sum over it; the rest of the pixel is the ground's
// (shaders/ground_shading.glsl, at the point the pixel's centre sees, shaders/ground_ray.glsl),
// or the sky where the ray misses the quad. Adding it after the resolve equals drawing it
// under the meshes at every sample, since the resolve averages.
//
// ground.comp works on the images the lit passes resolved (or rendered, with one sample), in
// place. ground_resolve.comp (RESOLVE) reads the multisampled images the lit passes left
// unresolved, averages each pixel's samples as the resolve would have, and writes the
// resolved images, every pixel: one pass instead of a resolve per lit pass and this one.
//
// With surfaces found by compute passes in the visibility buffer (VISIBILITY: cards and mesh
// triangles, shaders/visibility.glsl), the samples they claim (shaders/claimed.glsl) are left
// out: neither the lit passes' light there nor the ground is added, and the shading passes
// add the surfaces into them (shaders/merge_lit.glsl).
#ifndef THRONG_GROUND_GLSL
#define THRONG_GROUND_GLSL

#include "ground_shading.glsl"
#include "ground_ray.glsl"
#ifdef VISIBILITY
#ifndef RESOLVE
#define SINGLE_SAMPLE
#endif
#include "claimed.glsl"
#endif

layout(local_size_x = 8, local_size_y = 8) in;

#ifdef RESOLVE
layout(set = 0, binding = 19, rgba16f) uniform writeonly image2D sun_light;
layout(set = 0, binding = 20, rgba16f) uniform writeonly image2D sky_light;
layout(set = 0, binding = 21, rgba16f) uniform writeonly image2D view_normals;
layout(set = 0, binding = 22) uniform sampler2DMS sun_samples;
layout(set = 0, binding = 23) uniform sampler2DMS sky_samples;
layout(set = 0, binding = 24) uniform sampler2DMS normal_samples;

// The mean of a pixel's samples, what an averaging resolve writes; the samples in `claimed`
// (a bit each) count as nothing.
vec4 resolved(sampler2DMS samples, ivec2 pixel, uint claimed) {
    int count = textureSamples(samples);
    vec4 sum = vec4(0.0);
    for (int s = 0; s < count; s++) {
        if ((claimed & (1u << s)) == 0u) {
            sum += texelFetch(samples, pixel, s);
        }
    }
    return sum / float(count);
}

vec4 sun_at(ivec2 pixel, uint claimed) { return resolved(sun_samples, pixel, claimed); }
vec4 sky_at(ivec2 pixel, uint claimed) { return resolved(sky_samples, pixel, claimed); }
vec4 normal_at(ivec2 pixel, uint claimed) { return resolved(normal_samples, pixel, claimed); }
uint sample_count() { return uint(textureSamples(sun_samples)); }
#else
layout(set = 0, binding = 19, rgba16f) uniform image2D sun_light;
layout(set = 0, binding = 20, rgba16f) uniform image2D sky_light;
layout(set = 0, binding = 21, rgba16f) uniform image2D view_normals;

// With one sample a claimed pixel is claimed whole.
vec4 sun_at(ivec2 pixel, uint claimed) {
    return claimed != 0u ? vec4(0.0) : imageLoad(sun_light, pixel);
}
vec4 sky_at(ivec2 pixel, uint claimed) {
    return claimed != 0u ? vec4(0.0) : imageLoad(sky_light, pixel);
}
vec4 normal_at(ivec2 pixel, uint claimed) {
    return claimed != 0u ? vec4(0.0) : imageLoad(view_normals, pixel);
}
uint sample_count() { return 1u; }
#endif

// The samples of `pixel` a compute pass's surface claims, a bit each (none without
// VISIBILITY).
uint claimed_samples(ivec2 pixel) {
    uint claimed = 0u;
#ifdef VISIBILITY
    uint samples = sample_count();
    float ground_depth = ground_depth_for(pixel, true);
    for (uint s = 0u; s < samples; s++) {
        if (claiming_key(pixel, s, samples, ground_depth) != 0UL) {
            claimed |= 1u << s;
        }
    }
#endif
    return claimed;
}

layout(push_constant) uniform Ground {
    GROUND_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs
} ground;

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= int(frame.target.x) || pixel.y >= int(frame.target.y)) {
        return;
    }
    uint claimed = claimed_samples(pixel);
    vec4 sun = sun_at(pixel, claimed);
    // The share of the pixel neither the lit passes nor a compute pass's surface drew.
    float open = 1.0 - float(bitCount(claimed)) / float(sample_count()) - sun.a;
#ifndef RESOLVE
    if (open <= 0.0 && claimed == 0u) {
        return; // meshes cover every sample: the pixel is what the lit passes resolved
    }
#endif
    // A sample no lit pass drew into keeps the clear value, nothing, in all three images (the
    // lit shaders write them together, alpha 1): a pixel none was drawn into needs no more
    // reads.
    bool drawn = sun.a > 0.0;
    vec4 sky = drawn ? sky_at(pixel, claimed) : vec4(0.0);
    vec4 n = drawn ? normal_at(pixel, claimed) : vec4(0.0);
    if (open > 0.0) {
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
        sun = vec4(sun.rgb + open * direct, 1.0);
        sky = vec4(sky.rgb + open * ambient, sky.a + open * normal.a);
        n += open * normal;
    }
    sun.a = 1.0; // every sample is drawn now, or is a compute pass's to add
    imageStore(sun_light, pixel, sun);
    imageStore(sky_light, pixel, sky);
    imageStore(view_normals, pixel, n);
}

#endif
