// The per-frame uniform block, shared by every pass (graphics and compute) but the culling
// ones: its members are FrameData's (src/gpu/frame/device_layouts.rs, made GLSL by build.rs).
#ifndef THRONG_FRAME_GLSL
#define THRONG_FRAME_GLSL

// The graphics layout's binding, unless the includer names its own layout's (the compute
// passes define FRAME_BINDING as COMPUTE_FRAME first).
#ifndef FRAME_BINDING
#define FRAME_BINDING BINDING_FRAME
#endif

#include "renderer_layouts.glsl"

// Per frame.
layout(std140, set = 0, binding = FRAME_BINDING) uniform Frame {
    FRAME_UNIFORMS_FIELDS // src/gpu/frame/device_layouts.rs, FrameData
} frame;

// View-space z (negative in front of the eye) of a depth-buffer value, for the perspective
// projection in `frame.proj`: clip z = A z + B and clip w = -z, so depth = -(A z + B) / z.
float view_z_of_depth(float depth) {
    return -frame.proj[3][2] / (depth + frame.proj[2][2]);
}

// The centre of pixel `pixel` of a `size`-pixel target in normalized device coordinates
// (Vulkan's: y down, the first row at -1). One function for every compute pass that finds
// what a pixel sees: the card passes solve the same point for the same pixel in each.
vec2 pixel_ndc(ivec2 pixel, vec2 size) {
    return (vec2(pixel) + 0.5) / size * 2.0 - 1.0;
}

#endif
