#version 460
// The shadow pass's fragment stage for alpha-clipped materials (foliage, hair cards, lace):
// a texel the camera's passes discard (skinned_lit.glsl, depth_normal.frag: alpha under one
// half) casts no shadow either. Other materials cast with no fragment stage at all.
#include "materials.glsl"

layout(set = 0, binding = BINDING_BASE_COLOR) uniform sampler2D base_color_map;

layout(location = 0) in vec2 in_uv;

void main() {
    if ((texture(base_color_map, in_uv) * draw.base_color).a < 0.5) {
        discard;
    }
}
