#version 460
// `--view ao|normals|depth|shadow`: shows one of the frame's intermediate images instead of
// the final one. Depths are shown linearized (near black, far white) so they read at a glance.
#include "frame.glsl"

layout(set = 0, binding = BINDING_DEBUG_SOURCE) uniform sampler2D source;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

void main() {
    vec4 s = texture(source, in_uv);
    uint view = frame.view_mode.x;
    vec3 c;
    if (view == VIEW_MODE_AO) {
        c = vec3(s.r);
    } else if (view == VIEW_MODE_NORMALS) {
        c = s.a > 0.0 ? s.xyz * 0.5 + 0.5 : vec3(0.0);
    } else if (view == VIEW_MODE_DEPTH) {
        // Linear view distance between the near and far planes.
        vec4 v = frame.inv_proj * vec4(in_uv * 2.0 - 1.0, s.r, 1.0);
        vec4 far = frame.inv_proj * vec4(0.0, 0.0, 1.0, 1.0);
        vec4 near = frame.inv_proj * vec4(0.0, 0.0, 0.0, 1.0);
        float z = -v.z / v.w;
        float zn = -near.z / near.w;
        float zf = -far.z / far.w;
        c = vec3(clamp((z - zn) / max(zf - zn, 1e-6), 0.0, 1.0));
    } else {
        // The shadow map: depth from the light, orthographic, so already linear.
        c = vec3(s.r);
    }
    out_color = vec4(c, 1.0);
}
