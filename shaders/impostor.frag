#version 460
// Impostor cards in the forward pass: the picture's colour lit like a mesh (shade(), with its
// stored normal and the point its depth puts back), tested EQUAL against the depth the card
// prepass wrote (or LESS without a prepass). The silhouette view writes plain white.
#include "impostor_in.glsl"
#include "lighting.glsl"

layout(location = 0) out vec4 out_color;

void main() {
    vec3 albedo;
    vec3 n;
    float roughness;
    vec3 world;
    if (!card_surface(card_in(), albedo, n, roughness, world)) {
        discard;
    }
    gl_FragDepth = card_depth(frame.view_proj, world);
    if (frame.view_mode.x == VIEW_MODE_SILHOUETTE) {
        out_color = vec4(1.0);
        return;
    }
    out_color = vec4(shade(albedo, n, world, roughness, card.material.yzw), 1.0);
}
