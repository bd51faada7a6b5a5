// The card fragment shaders' inputs, as shaders/impostor.vert writes them, and the surface
// they show.
#ifndef THRONG_IMPOSTOR_IN_GLSL
#define THRONG_IMPOSTOR_IN_GLSL

#include "impostor_card.glsl"
#include "dither.glsl"
#include "looks.glsl"

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

// The card's surface at `uv`: false where the picture shows nothing (the fragment is
// discarded); otherwise its colour (linear), world normal, roughness, and world position (the
// card's point moved along the picture's direction by the stored depth).
bool card_surface(CardVarying c, out vec3 albedo, out vec3 normal, out float roughness,
                  out vec3 world) {
    // The four texels around the sample point, each weighed by its bilinear weight and its
    // coverage: the colour, normal and depth of the surface alone, never blended with the
    // empty texels around its outline.
    if (mesh_keeps_pixel(in_share)) {
        return false; // the mesh draws this pixel (dither.glsl)
    }
    // Most of a card is empty: one filtered read of the coverage settles those fragments
    // (it is the weighted sum below's, by the same bilinear weights).
    if (texture(card_color, c.uv).a < 0.5) {
        return false;
    }
    vec2 size = vec2(textureSize(card_color, 0));
    vec2 t = c.uv * size - 0.5;
    ivec2 base = ivec2(floor(t));
    vec2 f = t - vec2(base);
    ivec2 top = ivec2(size) - 1;
    vec4 color = vec4(0.0);
    vec4 normal_depth = vec4(0.0);
    float rough = 0.0;
    float covered = 0.0;
    for (int k = 0; k < 4; k++) {
        ivec2 o = ivec2(k & 1, k >> 1);
        ivec2 at = clamp(base + o, ivec2(0), top);
        float w = (o.x == 1 ? f.x : 1.0 - f.x) * (o.y == 1 ? f.y : 1.0 - f.y);
        vec4 texel = texelFetch(card_color, at, 0);
        vec4 nd = texelFetch(card_normal_depth, at, 0);
        // Each texel tinted by the instance's look for its own material, before they blend:
        // where two garments meet, each keeps its colour.
        uint material;
        float texel_roughness;
        unpack_material(nd.z, material, texel_roughness);
        // A material the look leaves out covers nothing.
        float a = look_shows(in_look, material) ? texel.a : 0.0;
        color += w * vec4(texel.rgb * look_tint(in_look, material), a);
        normal_depth += (w * a) * nd;
        rough += (w * a) * texel_roughness;
        covered += w * a;
    }
    if (color.a < 0.5) {
        return false;
    }
    // The empty texels hold zero colour: the colour over the coverage is the surface's.
    albedo = color.rgb / color.a;
    vec4 nd = normal_depth / covered;
    vec3 n = octahedral_decode(nd.xy * 2.0 - 1.0);
    normal = normalize(n.x * c.right + n.y * c.up + n.z * c.towards.xyz);
    roughness = rough / covered;
    // 1 on the sphere's near side, 0 on its far side.
    world = c.world + c.towards.xyz * ((nd.w - 0.5) * 2.0 * c.towards.w);
    return true;
}

// The card's point at `uv` for the shadow map: false where the picture shows nothing;
// otherwise the world position its nearest texel's depth puts back (a shadow needs neither
// colour nor normal).
bool card_shadow_point(CardVarying c, out vec3 world) {
    if (texture(card_color, c.uv).a < 0.5) {
        return false;
    }
    vec4 nd = texture(card_normal_depth, c.uv);
    uint material;
    float roughness;
    unpack_material(nd.z, material, roughness);
    if (!look_shows(in_look, material)) {
        return false; // a material the look leaves out casts no shadow
    }
    float depth = nd.w;
    world = c.world + c.towards.xyz * ((depth - 0.5) * 2.0 * c.towards.w);
    return true;
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
