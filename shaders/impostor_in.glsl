// The card fragment shaders' inputs, as shaders/impostor.vert writes them, and the surface
// they show.
#ifndef THRONG_IMPOSTOR_IN_GLSL
#define THRONG_IMPOSTOR_IN_GLSL

#include "card_surface.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec2 in_uv;
layout(location = 2) flat in vec3 in_right;
layout(location = 3) flat in vec3 in_up;
layout(location = 4) flat in vec4 in_towards;
layout(location = 5) flat in float in_share;
layout(location = 6) flat in uint in_look;

// The camera passes' depth of a card fragment. By default the depth of the surface the
// picture stores, so cards meet the ground, meshes and each other where the meshes would.
// With CARD_PLANE_DEPTH the card keeps the depth of its own quad (a plane through the
// character's middle, facing the picture's direction) and its lighting still uses the stored
// surface: what a software rasterizer draws with, because lavapipe (Mesa 22.3) grows by
// about 1.3 MB every frame in which a fragment shader that writes gl_FragDepth also samples
// the shadow map or the ambient occlusion (docs/crowds-at-scale.md).
#ifdef CARD_PLANE_DEPTH
#define CARD_WRITE_DEPTH(view_proj, world)
#else
#define CARD_WRITE_DEPTH(view_proj, world) gl_FragDepth = card_depth(view_proj, world)
// Never nearer than the rasterized depth (card_corner puts it in front of the picture's
// surfaces), so hidden card fragments can be dropped before they are shaded.
layout(depth_greater) out float gl_FragDepth;
#endif

CardVarying card_in() {
    CardVarying c;
    c.world = in_world;
    c.uv = in_uv;
    c.right = in_right;
    c.up = in_up;
    c.towards = in_towards;
    return c;
}

// The card's surface at this fragment (card_surface_of, card_surface.glsl).
bool card_surface(CardVarying c, out vec3 albedo, out vec3 normal, out float roughness,
                  out vec3 world) {
    return card_surface_of(c, in_share, in_look, ivec2(gl_FragCoord.xy), albedo, normal,
                           roughness, world);
}

// The card's point for the shadow map at this fragment (card_shadow_point_of).
bool card_shadow_point(CardVarying c, out vec3 world) {
    return card_shadow_point_of(c, in_look, world);
}

// What the camera's passes know of a card fragment (card_surface's outputs).
struct CardSurface {
    vec3 albedo;
    vec3 normal;
    float roughness;
    vec3 world;
};

// The camera's passes: this fragment's surface, its depth left as CARD_WRITE_DEPTH says;
// discarded where the picture shows nothing.
CardSurface camera_card_surface() {
    CardSurface s;
    if (!card_surface(card_in(), s.albedo, s.normal, s.roughness, s.world)) {
        discard;
    }
    CARD_WRITE_DEPTH(frame.view_proj, s.world);
    return s;
}

#endif
