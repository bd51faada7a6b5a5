// How the compute passes that light surfaces found per pixel (the cards', card_shade.glsl;
// the mesh raster's, mesh_shade.glsl) merge them into the lit frame, by the share of the
// pixel's samples each claims (shaders/claimed.glsl). Where the ground pass resolved the lit
// passes' samples it left the claimed ones out, so each surface adds its light times its
// share: the pixel is then what a multisampled resolve of every surface gives, each lit once
// per pixel as a fragment shader lights it. Where the lit passes resolved (the ground
// rasterized), the surface is blended over what they left by its share instead: right
// wherever the claimed samples showed one surface.
#ifndef THRONG_MERGE_LIT_GLSL
#define THRONG_MERGE_LIT_GLSL

#include "lighting.glsl"
#include "claimed.glsl"

layout(set = 0, binding = 19, rgba16f) uniform image2D sun_light;
layout(set = 0, binding = 20, rgba16f) uniform image2D sky_light;
layout(set = 0, binding = 21, rgba16f) uniform image2D view_normals;

// `old` moved towards `value` by `share`, its alpha kept.
vec4 blended(vec4 old, vec3 value, float share) {
    return vec4(mix(old.rgb, value, share), old.a);
}

// Merges `light` and the world-space `normal` into `pixel` by `share` (the samples claimed):
// added where the ground pass left the claimed samples empty (`added`), else blended.
void merge_lit(ivec2 pixel, SurfaceLight light, vec3 normal, float share, bool added) {
    vec3 view_normal = normalize(mat3(frame.view) * normal);
    vec4 sun = imageLoad(sun_light, pixel);
    vec4 sky = imageLoad(sky_light, pixel);
    vec4 n = imageLoad(view_normals, pixel);
    if (added) {
        sun.rgb += light.direct * share;
        sky += vec4(light.ambient, 1.0) * share;
        n += vec4(view_normal, 1.0) * share;
    } else {
        sun = blended(sun, light.direct, share);
        sky = blended(sky, light.ambient, share);
        n = blended(n, view_normal, share);
    }
    imageStore(sun_light, pixel, sun);
    imageStore(sky_light, pixel, sky);
    imageStore(view_normals, pixel, n);
}

#endif
