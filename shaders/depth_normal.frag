#version 460
// Depth/normal prepass for characters: depth (by the fixed function) and the view-space
// normal, which ambient occlusion reads. Alpha-clipped texels are discarded here exactly as
// in the forward pass, so the forward pass's EQUAL depth test finds the same surface.
#include "frame.glsl"
#include "materials.glsl"
#include "dither.glsl"

layout(set = 0, binding = BINDING_BASE_COLOR) uniform sampler2D base_color_map;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec2 in_uv;
layout(location = 4) flat in float in_share;

layout(location = 0) out vec4 out_normal;

void main() {
    if (!mesh_keeps_pixel(in_share)) {
        discard; // the impostor card draws this pixel (dither.glsl)
    }
    if (draw.params.y > 0.5 && (texture(base_color_map, in_uv) * draw.base_color).a < 0.5) {
        discard;
    }
    vec3 n = normalize(in_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
    out_normal = vec4(normalize(mat3(frame.view) * n), 1.0);
}
