#version 460
// Baking an impostor atlas, fragment side: the surface's colour (texture times material
// colour, untinted and unlit: the cards are tinted and lit when drawn) with full coverage,
// and its view-space normal (octahedral, two channels), its material and roughness (one
// channel: impostor.glsl, pack_material) and its depth in the sphere
// (src/gpu/features/impostors/bake.rs).
#include "impostor.glsl"
layout(set = 0, binding = 2) uniform sampler2D base_color_map;

layout(push_constant) uniform BakeDraw {
    BAKE_DRAW_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs, BakeDraw
} bake;

layout(location = 0) in vec3 in_view_normal;
layout(location = 1) in float in_depth;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_normal_depth;

void main() {
    vec4 base = texture(base_color_map, in_uv) * bake.base_color;
    if (bake.params.y > 0.5 && base.a < 0.5) {
        discard;
    }
    vec3 n = normalize(in_view_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
    out_color = vec4(base.rgb, 1.0);
    out_normal_depth = vec4(octahedral_encode(n) * 0.5 + 0.5,
                            pack_material(bake.material, bake.params.x),
                            clamp(in_depth, 0.0, 1.0));
}
