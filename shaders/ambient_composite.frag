#version 460
// The frame without a prepass: the camera's passes wrote the sun's light and the sky's light
// before occlusion apart (shaders/camera_out.glsl), and the ambient occlusion was made from
// their depth and normals afterwards; this adds them, direct + ambient * occlusion, per pixel
// of the resolved images, into the target. The sum is linear, so adding after the
// multisample resolve equals adding per sample.
#include "frame.glsl"

layout(set = 0, binding = BINDING_DIRECT_LIGHT) uniform sampler2D direct_light;
layout(set = 0, binding = BINDING_AMBIENT_LIGHT) uniform sampler2D ambient_light;
layout(set = 0, binding = BINDING_AO) uniform sampler2D ambient_occlusion;

layout(location = 0) out vec4 out_color;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec3 direct = texelFetch(direct_light, pixel, 0).rgb;
    vec3 ambient = texelFetch(ambient_light, pixel, 0).rgb;
    // Sampled exactly as the lit passes sample it after a prepass (lighting.glsl).
    float ao = texture(ambient_occlusion, gl_FragCoord.xy * frame.target.zw).r;
    out_color = vec4(direct + ambient * ao, 1.0);
}
