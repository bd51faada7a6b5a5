// The camera's cards lit once per pixel and merged into the lit frame (compiled as
// card_shade.comp for multisampled depth, card_shade_single.comp with SINGLE_SAMPLE): for
// each pixel whose nearest card (card_raster.comp's visibility buffer) belongs to this
// dispatch's model, the card's surface there is lit as the graphics card passes light it
// (light_surface, the sun's and the sky's light apart), and merged into the lit frame by the
// share of the pixel's samples it claims from the meshes (merge_lit.glsl).
#ifndef THRONG_CARD_SHADE_GLSL
#define THRONG_CARD_SHADE_GLSL

#include "card_compute.glsl"
#include "merge_lit.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

// Whether entry `index` of the visible lists is one of `command`'s cards.
bool in_command(uint index, uint command) {
    if (command == NO_COMMAND) {
        return false;
    }
    CardCommand c = card_commands[command];
    return index - c.first_instance < c.instance_count; // below the start wraps round
}

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(frame.target.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    // A card covers every sample of a pixel it keeps, so the pixel's card is any sample's.
    uint samples = max(card.draw.z, 1u);
    uint index = NO_COMMAND;
    for (uint s = 0u; s < samples && index == NO_COMMAND; s++) {
        uint name = key_name(visibility[visibility_at(pixel, s, samples, uint(size.x))]);
        if (in_command(name, card.draw.x) || in_command(name, card.draw.y)) {
            index = name;
        }
    }
    if (index == NO_COMMAND) {
        return;
    }
    bool ground = card.draw.w != 0u;
    uint covered = samples_claimed_by(pixel, index, samples, ground_depth_for(pixel, ground));
    if (covered == 0u) {
        return;
    }
    float share;
    uint look;
    CardQuad quad = card_quad(card_picture(card_record(index, share, look)), frame.view_proj);
    vec2 st;
    vec3 albedo;
    vec3 normal;
    float roughness;
    vec3 world;
    if (!card_st_at(quad.clip, pixel_ndc(pixel, frame.target.xy), st)) {
        return;
    }
    if (!card_surface_of(card_quad_point(quad, st), share, look, pixel, albedo, normal,
                         roughness, world)) {
        return;
    }
    SurfaceLight light = light_surface(albedo, normal, world, roughness, card.material.yzw);
    merge_lit(pixel, light, normal, float(covered) / float(samples), ground);
}

#endif
