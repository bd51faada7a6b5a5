#version 460
// Depth-aware blur of the raw ambient occlusion (half the render size, like it): a 5x5
// neighbourhood averaged with weights that fall off with the difference in view depth, so
// occlusion does not bleed across a character's silhouette onto the ground far behind it (or
// the other way round).
#define FRAME_BINDING COMPUTE_FRAME // the compute layout's binding of the frame uniforms
#include "frame.glsl"

layout(local_size_x = SSAO_GROUP, local_size_y = SSAO_GROUP) in;

layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2D depth_map;
layout(set = 0, binding = COMPUTE_INPUT) uniform sampler2D ao_raw;
layout(set = 0, binding = COMPUTE_OUTPUT, r32f) uniform writeonly image2D ao_out;

// View z at an AO texel (the full-size depth pixel it was computed from).
float view_z(ivec2 texel) {
    ivec2 pixel = min(texel * AO_SCALE, ivec2(frame.target.xy) - 1);
    return view_z_of_depth(texelFetch(depth_map, pixel, 0).r);
}

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(ao_out);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    float centre = view_z(pixel);
    // Depth differences are judged relative to the AO radius: within it, neighbours count.
    float falloff = 1.0 / max(frame.ssao.y * 0.5, 1e-4);
    float sum = 0.0;
    float weight = 0.0;
    for (int y = -2; y <= 2; ++y) {
        for (int x = -2; x <= 2; ++x) {
            ivec2 q = clamp(pixel + ivec2(x, y), ivec2(0), size - 1);
            float w = exp(-abs(view_z(q) - centre) * falloff);
            sum += texelFetch(ao_raw, q, 0).r * w;
            weight += w;
        }
    }
    imageStore(ao_out, pixel, vec4(sum / max(weight, 1e-6)));
}
