#version 460
// Auto exposure, applying (src/gpu/features/exposure/pass.rs): the scene colour (read linear,
// its sRGB encoding undone by the sampler) scaled so that the luminance the frames adapted to
// becomes mid-grey, written back sRGB-encoded.
#include "renderer_layouts.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(std430, set = 0, binding = 1) readonly buffer Exposure {
    vec4 state; // x: adapted log2 luminance
} exposure;

layout(push_constant) uniform ExposureFrame {
    EXPOSURE_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs
} params;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

void main() {
    vec4 c = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
    out_color = vec4(c.rgb * exp2(params.target_log - exposure.state.x), c.a);
}
