// Which samples of a pixel a surface in the visibility buffer (shaders/visibility.glsl)
// claims from the lit passes: those at which it lies in front of their depth (multisampled
// unless SINGLE_SAMPLE) and of the ground where the ground pass draws it. The ground pass
// leaves the claimed samples out of its resolve (shaders/ground.glsl, VISIBILITY) and the
// shading passes add the surfaces into them (shaders/merge_lit.glsl), so both must ask the
// same question: here.
#ifndef THRONG_CLAIMED_GLSL
#define THRONG_CLAIMED_GLSL

#include "visibility.glsl"
#include "ground_ray.glsl"

#ifdef SINGLE_SAMPLE
layout(set = 0, binding = 18) uniform sampler2D mesh_depth;
#else
layout(set = 0, binding = 18) uniform sampler2DMS mesh_depth;
#endif

// The depth of the ground at `pixel` where the ground pass draws it (`ground`); the far
// plane otherwise.
float ground_depth_for(ivec2 pixel, bool ground) {
    return ground ? ground_depth_at(pixel_ndc(pixel, frame.target.xy)) : 1.0;
}

// The key kept at sample `s` of `pixel` when it claims the sample (in front of the lit
// passes' depth there and of `ground_depth`); 0 otherwise.
uint64_t claiming_key(ivec2 pixel, uint s, uint samples, float ground_depth) {
    uint64_t key = visibility[visibility_at(pixel, s, samples, uint(frame.target.x))];
#ifdef SINGLE_SAMPLE
    float drawn = texelFetch(mesh_depth, pixel, 0).r;
#else
    float drawn = texelFetch(mesh_depth, pixel, int(s)).r;
#endif
    return key != 0UL && key_depth(key) < min(drawn, ground_depth) ? key : 0UL;
}

// The samples of `pixel` (of `samples`) that the surface named `name` claims.
uint samples_claimed_by(ivec2 pixel, uint name, uint samples, float ground_depth) {
    uint claimed = 0u;
    for (uint s = 0u; s < samples; s++) {
        uint64_t key = claiming_key(pixel, s, samples, ground_depth);
        claimed += key != 0UL && key_name(key) == name ? 1u : 0u;
    }
    return claimed;
}

#endif
