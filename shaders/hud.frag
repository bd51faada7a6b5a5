#version 460
// The heads-up display, fragment side: the character's 8x8 bitmap (a row of the cell above and
// below it) in its colour, over a half-dark veil (every other pixel black: no blending).

// Per ASCII character, eight rows of eight pixels (bit 0 leftmost), four rows to a word
// (src/gpu/features/hud/, font_words).
layout(std430, set = 0, binding = 1) readonly buffer HudFont {
    uint font[];
};

layout(location = 0) in vec2 in_font_pixel;
layout(location = 1) flat in uint in_code;

layout(location = 0) out vec4 out_color;

// HudColor: white, yellow, red, then the five stops of the tinted crowds' colour ramp
// (src/motion/coloring.rs, RAMP: the legend shows the characters' own colours).
const vec3 COLORS[8] = vec3[8](vec3(1.0), vec3(1.0, 0.8, 0.15), vec3(1.0, 0.3, 0.25),
    vec3(0.05, 0.20, 0.90), vec3(0.02, 0.65, 0.80), vec3(0.15, 0.70, 0.12),
    vec3(0.90, 0.75, 0.05), vec3(0.90, 0.08, 0.05));

void main() {
    ivec2 p = ivec2(floor(in_font_pixel));
    uint c = in_code & 0x7fu;
    if (p.x >= 0 && p.x < 8 && p.y >= 1 && p.y < 9) {
        uint row = uint(p.y - 1);
        uint bits = (font[c * 2u + row / 4u] >> ((row % 4u) * 8u)) & 0xffu;
        if (((bits >> uint(p.x)) & 1u) != 0u) {
            out_color = vec4(COLORS[min(in_code >> 8, 7u)], 1.0);
            return;
        }
    }
    ivec2 s = ivec2(gl_FragCoord.xy);
    if (((s.x + s.y) & 1) == 0) {
        discard;
    }
    out_color = vec4(0.0, 0.0, 0.0, 1.0);
}
