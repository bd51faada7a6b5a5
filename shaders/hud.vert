#version 460
// The heads-up display (src/gpu/features/hud/): one instance per character, its four corners
// generated (a strip), placed in the frame's top-left corner by its cell. Positions are in
// pixels; the frame uniforms give the target's size.
#include "frame.glsl"

// HudGlyph: src/gpu/frame/device_layouts.rs.
#include "renderer_layouts.glsl"

layout(std430, set = 0, binding = 0) readonly buffer HudGlyphs {
    HudGlyph glyphs[];
};

layout(push_constant) uniform Hud {
    uvec4 layout_px; // x: pixels per font pixel, y: margin in pixels, zw: cell in font pixels
} hud;

layout(location = 0) out vec2 out_font_pixel;
layout(location = 1) flat out uint out_code;

void main() {
    HudGlyph g = glyphs[gl_InstanceIndex];
    vec2 corner = vec2(float(gl_VertexIndex & 1), float(gl_VertexIndex >> 1));
    vec2 cell = vec2(float(g.cell & 0xffffu), float(g.cell >> 16));
    vec2 size = vec2(hud.layout_px.zw);
    vec2 pixel = float(hud.layout_px.y) + (cell + corner) * size * float(hud.layout_px.x);
    out_font_pixel = corner * size;
    out_code = g.code;
    // Vulkan's clip space has y down: pixel row 0 is the top.
    gl_Position = vec4(pixel * frame.target.zw * 2.0 - 1.0, 0.0, 1.0);
}
