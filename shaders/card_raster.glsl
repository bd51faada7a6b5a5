// Cards rasterized by a compute pass (card_raster.comp from the camera, card_shadow.comp from
// the sun): the cards of one model in one view's list, `card.draw.x` naming its command,
// into a target of `card.draw.yz` pixels. Sixteen threads take a card: they find the pixels
// its quad's corners span and, between them, every pixel whose centre the quad covers, for
// which the includer's `raster_pixel` decides what the card leaves there. Groups stride over
// the list, so the dispatch is sized on the CPU without reading the count back.
#ifndef THRONG_CARD_RASTER_GLSL
#define THRONG_CARD_RASTER_GLSL

#include "card_compute.glsl"

layout(local_size_x = 64) in;

const uint THREADS_PER_CARD = 16u;
const uint CARDS_PER_GROUP = 4u;

// What card `index` (its entry in the visible lists) leaves at `pixel`, where its quad is `c`
// (defined by the includer).
void raster_pixel(ivec2 pixel, CardVarying c, float share, uint look, uint index);

void main() {
    CardCommand command = card_commands[card.draw.x];
    uint lane = gl_LocalInvocationID.x % THREADS_PER_CARD;
    uint slot = gl_LocalInvocationID.x / THREADS_PER_CARD;
    mat4 view_proj = card_from_sun() ? frame.light_view_proj : frame.view_proj;
    vec2 size = vec2(card.draw.yz);
    uint stride = gl_NumWorkGroups.x * CARDS_PER_GROUP;
    for (uint i = gl_WorkGroupID.x * CARDS_PER_GROUP + slot; i < command.instance_count;
         i += stride) {
        uint index = command.first_instance + i;
        float share;
        uint look;
        CardQuad quad = card_quad(card_picture(card_record(index, share, look)), view_proj);
        // The pixels between the corners. A card reaching behind the eye is not drawn (the
        // culling pass makes cards only of characters small on screen, far in front of it).
        vec2 lo = vec2(1e30);
        vec2 hi = vec2(-1e30);
        bool behind = false;
        for (int k = 0; k < 4; k++) {
            vec2 st = vec2((k & 1) == 0 ? -1.0 : 1.0, (k & 2) == 0 ? -1.0 : 1.0);
            vec4 corner = quad.clip.centre + st.x * quad.clip.right + st.y * quad.clip.up;
            behind = behind || corner.w <= 0.0;
            vec2 at = (corner.xy / corner.w * 0.5 + 0.5) * size;
            lo = min(lo, at);
            hi = max(hi, at);
        }
        if (behind) {
            continue;
        }
        // Pixels whose centres (x + 0.5) lie between the corners.
        ivec2 first = max(ivec2(ceil(lo - 0.5)), ivec2(0));
        ivec2 last = min(ivec2(floor(hi - 0.5)), ivec2(card.draw.yz) - 1);
        if (any(lessThan(last, first))) {
            continue;
        }
        ivec2 span = last - first + 1;
        uint pixels = uint(span.x * span.y);
        for (uint k = lane; k < pixels; k += THREADS_PER_CARD) {
            ivec2 pixel = first + ivec2(int(k) % span.x, int(k) / span.x);
            vec2 st;
            if (card_st_at(quad.clip, pixel_ndc(pixel, size), st)) {
                raster_pixel(pixel, card_quad_point(quad, st), share, look, index);
            }
        }
    }
}

#endif
