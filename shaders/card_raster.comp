#version 460
// The camera's cards rasterized into the visibility buffer (shaders/card_raster.glsl): each
// covered pixel where the picture shows the surface keeps, with one 64-bit atomic, the
// nearest card and its depth, packed so that the larger value is the nearer card (the
// depth's bits inverted above the card's entry in the visible lists; zero, the cleared
// value, is no card). card_shade.comp lights the winners once per pixel.
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_atomic_int64 : require

#include "card_raster.glsl"

layout(std430, set = 0, binding = 17) buffer Visibility {
    uint64_t visibility[];
};

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
    uint64_t key = (uint64_t(0xffffffffu - floatBitsToUint(depth)) << 32) | uint64_t(index);
    uint at = uint(pixel.y) * card.draw.y + uint(pixel.x);
    // A plain read first: where a nearer card is already kept, no atomic is needed.
    if (visibility[at] < key) {
        atomicMax(visibility[at], key);
    }
}
