// Impostor cards in the forward pass: the picture's colour lit like a mesh (shade(), with its
// stored normal and the point its depth puts back), tested EQUAL against the depth the card
// prepass wrote (or LESS without a prepass). The silhouette view writes plain white.
// Compiled twice: impostor.frag writes the picture's depth, impostor_plane.frag
// (CARD_PLANE_DEPTH) leaves the card's own (shaders/impostor_in.glsl says why).
#ifndef THRONG_IMPOSTOR_LIT_GLSL
#define THRONG_IMPOSTOR_LIT_GLSL

#include "impostor_in.glsl"
#include "lighting.glsl"

layout(location = 0) out vec4 out_color;

void main() {
    CardSurface s = camera_card_surface();
    if (frame.view_mode.x == VIEW_MODE_SILHOUETTE) {
        out_color = vec4(1.0);
        return;
    }
    out_color = vec4(shade(s.albedo, s.normal, s.world, s.roughness, card.material.yzw), 1.0);
}

#endif
