#version 460
// Impostor cards, vertex side (every card pass): one of the four corners of the card of the
// instance gl_InstanceIndex names in its view's card list (shaders/impostor_card.glsl).
#include "impostor_card.glsl"

// The card prepass and the card forward pass both run this shader, and the forward pass
// tests depth with EQUAL.
invariant gl_Position;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec2 out_uv;
layout(location = 2) flat out vec3 out_right;
layout(location = 3) flat out vec3 out_up;
layout(location = 4) flat out vec4 out_towards;
layout(location = 5) flat out float out_share;
layout(location = 6) flat out uint out_look;

void main() {
    uint entry = visible[gl_InstanceIndex];
    InstanceRecord r = records[entry & VISIBLE_RECORD_MASK];
    out_share = float(entry >> VISIBLE_SHARE_SHIFT) / 255.0;
    out_look = record_look(r);
    vec4 position;
    CardVarying c = card_corner(r, uint(gl_VertexIndex), position);
    gl_Position = position;
    out_world = c.world;
    out_uv = c.uv;
    out_right = c.right;
    out_up = c.up;
    out_towards = c.towards;
}
