#version 460
// The sun's cards splatted into the shadow map's depths (shaders/card_raster.glsl): each
// covered texel where the picture shows the surface keeps the nearest depth, as the card
// shadow pass's fragment shader computes it (impostor_shadow.frag), with a 32-bit atomic
// minimum on the float's bits (which order as the floats do, all being positive). The
// buffer is then copied into the shadow map, which the meshes' shadow pass draws over.
#include "card_raster.glsl"

layout(std430, set = 0, binding = 17) buffer ShadowDepths {
    uint shadow_depths[];
};

void raster_pixel(ivec2 pixel, CardVarying c, float share, uint look, uint index) {
    vec3 world;
    if (!card_shadow_point_of(c, look, world)) {
        return;
    }
    // Moved away from the sun by the receivers' normal offset: a card does not shadow itself.
    world -= frame.light_dir.xyz * (2.0 * frame.shadow.z);
    uint bits = floatBitsToUint(card_depth(frame.light_view_proj, world));
    uint at = uint(pixel.y) * card.draw.y + uint(pixel.x);
    if (shadow_depths[at] > bits) {
        atomicMin(shadow_depths[at], bits);
    }
}
