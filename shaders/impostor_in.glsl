// The card fragment shaders' inputs, as shaders/impostor.vert writes them.
#ifndef THRONG_IMPOSTOR_IN_GLSL
#define THRONG_IMPOSTOR_IN_GLSL

#include "impostor_card.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec2 in_uv;
layout(location = 2) flat in vec3 in_right;
layout(location = 3) flat in vec3 in_up;
layout(location = 4) flat in vec4 in_towards;

CardVarying card_in() {
    CardVarying c;
    c.world = in_world;
    c.uv = in_uv;
    c.right = in_right;
    c.up = in_up;
    c.towards = in_towards;
    return c;
}

#endif
