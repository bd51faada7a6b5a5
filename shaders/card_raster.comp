#version 460
// The camera's cards rasterized into the visibility buffer (shaders/card_raster.glsl,
// shaders/visibility.glsl): each covered pixel where the picture shows the surface keeps, at
// each of its `card.draw.w` samples, the nearest card and its depth with one 64-bit atomic (a
// card's picture decides coverage per pixel, as the graphics card passes' fragment shader
// does for every sample of the pixel). card_shade.comp lights the winners once per pixel.
#define VISIBILITY_WRITE
#include "visibility.glsl"
#include "card_raster.glsl"

void raster_pixel(ivec2 pixel, CardVarying c, float share, uint look, uint index) {
    vec3 albedo;
    vec3 normal;
    float roughness;
    vec3 world;
    if (!card_surface_of(c, share, look, pixel, albedo, normal, roughness, world)) {
        return;
    }
    // The picture's surface, or the card's own plane (CARD_PLANE_DEPTH's choice).
    float depth = card_depth(frame.view_proj, card.cell.w > 0.5 ? world : c.world);
    uint64_t key = surface_key(depth, index);
    uint samples = max(card.draw.w, 1u);
    for (uint s = 0u; s < samples; s++) {
        keep_nearest(visibility_at(pixel, s, samples, card.draw.y), key);
    }
}
