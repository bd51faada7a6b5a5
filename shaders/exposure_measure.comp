#version 460
// Auto exposure, measuring (src/gpu/features/exposure/pass.rs): one workgroup reads the scene
// colour on a grid of up to 64x64 points, averages the log2 of their luminance (the geometric
// mean: one bright sky does not darken the whole frame as much as in a plain mean), and moves
// the adapted value the frames are exposed for towards it by the frame's share. The first
// frame ever measured takes its own value whole.
#include "renderer_layouts.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0) uniform sampler2D scene;
layout(std430, set = 0, binding = 1) buffer Exposure {
    vec4 state; // x: adapted log2 luminance, y: measured (0/1)
} exposure;

layout(push_constant) uniform ExposureFrame {
    EXPOSURE_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs
} params;

const int GRID = 64;
shared float sums[256];

void main() {
    ivec2 size = textureSize(scene, 0);
    ivec2 grid = min(size, ivec2(GRID));
    uint k = gl_LocalInvocationIndex;
    float sum = 0.0;
    for (int y = int(gl_LocalInvocationID.y); y < grid.y; y += 16) {
        for (int x = int(gl_LocalInvocationID.x); x < grid.x; x += 16) {
            // The centre of cell (x, y) of a grid over the whole frame.
            ivec2 pixel = ivec2((vec2(x, y) + 0.5) * vec2(size) / vec2(grid));
            vec3 c = texelFetch(scene, pixel, 0).rgb;
            float luminance = dot(c, vec3(0.2126, 0.7152, 0.0722));
            sum += log2(max(luminance, 1.0 / 1024.0));
        }
    }
    sums[k] = sum;
    barrier();
    for (uint half_size = 128; half_size > 0; half_size >>= 1) {
        if (k < half_size) {
            sums[k] += sums[k + half_size];
        }
        barrier();
    }
    if (k == 0) {
        float measured = sums[0] / float(grid.x * grid.y);
        vec4 s = exposure.state;
        float adapted = s.y > 0.5 ? mix(s.x, measured, params.rate) : measured;
        exposure.state = vec4(clamp(adapted, params.min_log, params.max_log), 1.0, measured, 0.0);
    }
}
