// The ground's colour and light, for the fragment shaders that draw it (ground_lit.glsl) and
// the compute pass that draws it in the frame without a prepass (ground.comp): a soft
// checkerboard of tiles about half a character tall (so scale and motion read at a glance,
// whatever units the model uses), lit like the characters, fading out towards the quad's edge.
//
// The checkerboard is averaged over each pixel's footprint on the ground, so far tiles blend
// to their mean instead of aliasing into stripes (moire): per axis the average of the square
// wave over the footprint comes from its integral, and the two axes combine as the
// checkerboard does (one or the other, not both).
#ifndef THRONG_GROUND_SHADING_GLSL
#define THRONG_GROUND_SHADING_GLSL

#include "lighting.glsl"

// Integral from 0 to x of the square wave that is 0 on [0, 1), 1 on [1, 2), and so on:
// one per full period, plus the part of the current period past its first half.
vec2 square_wave_integral(vec2 x) {
    vec2 half_x = x * 0.5;
    return floor(half_x) + max(2.0 * fract(half_x) - 1.0, 0.0);
}

// The average of the checkerboard (0 or 1 per tile) over a box of `width` tiles about `uv`.
float filtered_checker(vec2 uv, vec2 width) {
    vec2 w = max(width, vec2(1e-4));
    vec2 a = (square_wave_integral(uv + 0.5 * w) - square_wave_integral(uv - 0.5 * w)) / w;
    return a.x + a.y - 2.0 * a.x * a.y;
}

// The ground's light at `world`, where a pixel covers `footprint` tiles along each ground
// axis.
SurfaceLight ground_light(vec3 world, vec2 footprint) {
    vec2 uv = world.xz / frame.ground_tile.x;
    float checker = filtered_checker(uv, footprint);
    vec3 albedo = mix(vec3(0.32, 0.33, 0.30), vec3(0.40, 0.41, 0.38), checker);
    vec3 up = vec3(0.0, 1.0, 0.0);
    SurfaceLight light = light_surface(albedo, up, world, 0.9, vec3(0.04));
    float r = length(world.xz - frame.ground_plane.xy) / frame.ground_plane.z;
    vec3 horizon = frame.sky_color.rgb * 0.6;
    // Towards the edge the lit ground gives way to the horizon: both parts of its light
    // fade, and the horizon joins the part no occlusion darkens.
    float fade = smoothstep(0.7, 1.0, r);
    light.direct = mix(light.direct, horizon, fade);
    light.ambient *= 1.0 - fade;
    return light;
}

#endif
