// Impostor cards in the forward pass: the picture's colour lit like a mesh (light_surface(),
// with its stored normal and the point its depth puts back), tested EQUAL against the depth
// the card prepass wrote (or LESS without a prepass, then written as camera_out.glsl says).
// The silhouette view writes plain white. impostor.frag writes the picture's depth,
// impostor_plane.frag (CARD_PLANE_DEPTH) leaves the card's own (shaders/impostor_in.glsl says
// why); the _apart variants are the same without a prepass (AMBIENT_APART).
#ifndef THRONG_IMPOSTOR_LIT_GLSL
#define THRONG_IMPOSTOR_LIT_GLSL

#include "impostor_in.glsl"
#include "camera_out.glsl"

void main() {
    CardSurface s = camera_card_surface();
    if (frame.view_mode.x == VIEW_MODE_SILHOUETTE) {
        write_white();
        return;
    }
    write_lit(light_surface(s.albedo, s.normal, s.world, s.roughness, card.material.yzw), s.normal);
}

#endif
