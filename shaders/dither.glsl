// The cross-fade between a character's mesh and its impostor card (src/gpu/features/impostors/cards.rs):
// while an instance crosses the card threshold both are drawn, each keeping the pixels of its
// share of a 4x4 ordered-dither pattern, so together they cover the character once and the
// switch does not pop. Every pass that draws an instance's surface (prepass and forward,
// mesh and card) keeps the same pixels, so the forward pass's EQUAL test still finds them.
#ifndef THRONG_DITHER_GLSL
#define THRONG_DITHER_GLSL

// Pixel `p`'s place in the pattern: 16 evenly spread thresholds in (0, 1).
float dither_threshold_at(ivec2 p) {
    const float bayer[16] = float[](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0,
                                    3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    p &= 3;
    return (bayer[p.y * 4 + p.x] + 0.5) / 16.0;
}

// Whether the mesh keeps pixel `p`, its share being `share` (0 to 1); the card keeps the
// others. The compute passes that draw cards (STAGE_COMPUTE) name the pixel themselves.
bool mesh_keeps_pixel_at(float share, ivec2 p) {
    return dither_threshold_at(p) < share;
}

#ifndef STAGE_COMPUTE
// Whether the mesh keeps this fragment's pixel.
bool mesh_keeps_pixel(float share) {
    return mesh_keeps_pixel_at(share, ivec2(gl_FragCoord.xy));
}
#endif

#endif
