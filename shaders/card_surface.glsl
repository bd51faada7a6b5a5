// A card's surface where a pixel sees it, for every stage that draws cards: the fragment
// shaders (shaders/impostor_in.glsl, which pass their inputs) and the compute passes that
// rasterize and shade them (shaders/card_raster.glsl, card_shade.comp), which name the pixel,
// the look and the share themselves. Needs the atlas of shaders/impostor_card.glsl.
#ifndef THRONG_CARD_SURFACE_GLSL
#define THRONG_CARD_SURFACE_GLSL

#include "impostor_card.glsl"
#include "dither.glsl"
#include "looks.glsl"

// The card's surface at `c.uv`, for an instance of look `look` whose mesh keeps `share` of
// the pixels (dither.glsl), at pixel `pixel`: false where the picture shows nothing (the
// fragment is discarded, the pixel left to what is behind); otherwise its colour (linear), world normal, roughness, and world position (the
// card's point moved along the picture's direction by the stored depth).
bool card_surface_of(CardVarying c, float share, uint look, ivec2 pixel, out vec3 albedo,
                     out vec3 normal, out float roughness, out vec3 world) {
    // The four texels around the sample point, each weighed by its bilinear weight and its
    // coverage: the colour, normal and depth of the surface alone, never blended with the
    // empty texels around its outline.
    if (mesh_keeps_pixel_at(share, pixel)) {
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
        float a = look_shows(look, material) ? texel.a : 0.0;
        color += w * vec4(texel.rgb * look_tint(look, material), a);
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

// The card's point at `c.uv` for the shadow map, for an instance of look `look`: false where the picture shows nothing;
// otherwise the world position its nearest texel's depth puts back (a shadow needs neither
// colour nor normal).
bool card_shadow_point_of(CardVarying c, uint look, out vec3 world) {
    if (texture(card_color, c.uv).a < 0.5) {
        return false;
    }
    vec4 nd = texture(card_normal_depth, c.uv);
    uint material;
    float roughness;
    unpack_material(nd.z, material, roughness);
    if (!look_shows(look, material)) {
        return false; // a material the look leaves out casts no shadow
    }
    float depth = nd.w;
    world = c.world + c.towards.xyz * ((depth - 0.5) * 2.0 * c.towards.w);
    return true;
}

#endif
