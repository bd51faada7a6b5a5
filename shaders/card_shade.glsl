// The camera's cards lit once per pixel and merged into the lit frame (compiled as
// card_shade.comp for multisampled depth, card_shade_single.comp with SINGLE_SAMPLE): for
// each pixel whose nearest card (card_raster.comp's visibility buffer) belongs to this
// dispatch's model, the card's surface there is lit as the graphics card passes light it
// (light_surface, the sun's and the sky's light apart), and blended into the resolved sun,
// sky and normal images by the share of the pixel's samples at which the card lies in front
// of the meshes' depth. That is what the graphics path's resolve gives where the samples
// the card covers show one surface (everywhere but a mesh's own edge): its fragment shader
// also runs once per pixel and only the depth test is per sample.
#ifndef THRONG_CARD_SHADE_GLSL
#define THRONG_CARD_SHADE_GLSL

#extension GL_ARB_gpu_shader_int64 : require

#include "card_compute.glsl"
#include "lighting.glsl"
#include "ground_ray.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 17) readonly buffer Visibility {
    uint64_t visibility[];
};
#ifdef SINGLE_SAMPLE
layout(set = 0, binding = 18) uniform sampler2D mesh_depth;
#else
layout(set = 0, binding = 18) uniform sampler2DMS mesh_depth;
#endif
layout(set = 0, binding = 19, rgba16f) uniform image2D sun_light;
layout(set = 0, binding = 20, rgba16f) uniform image2D sky_light;
layout(set = 0, binding = 21, rgba16f) uniform image2D view_normals;

// Whether entry `index` of the visible lists is one of `command`'s cards.
bool in_command(uint index, uint command) {
    if (command == NO_COMMAND) {
        return false;
    }
    CardCommand c = card_commands[command];
    return index - c.first_instance < c.instance_count; // below the start wraps round
}

// `old` moved towards `value` by `share` (the samples the card covers), its alpha kept.
vec4 blended(vec4 old, vec3 value, float share) {
    return vec4(mix(old.rgb, value, share), old.a);
}

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(frame.target.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    uint64_t key = visibility[uint(pixel.y) * uint(size.x) + uint(pixel.x)];
    uint index = uint(key & 0xffffffffUL);
    if (key == 0UL || !(in_command(index, card.draw.x) || in_command(index, card.draw.y))) {
        return;
    }
    float depth = uintBitsToFloat(0xffffffffu - uint(key >> 32));
    // The samples at which the card is in front of the meshes and the ground (in their depth,
    // or where the ground pass draws it, `card.draw.w`, found where the pixel's ray meets it).
    float ground = card.draw.w != 0u ? ground_depth_at(pixel_ndc(pixel, frame.target.xy)) : 1.0;
    uint samples = max(card.draw.z, 1u);
    uint covered = 0u;
    for (uint s = 0u; s < samples; s++) {
#ifdef SINGLE_SAMPLE
        float mesh = texelFetch(mesh_depth, pixel, 0).r;
#else
        float mesh = texelFetch(mesh_depth, pixel, int(s)).r;
#endif
        covered += depth < min(mesh, ground) ? 1u : 0u;
    }
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
    float part = float(covered) / float(samples);
    imageStore(sun_light, pixel, blended(imageLoad(sun_light, pixel), light.direct, part));
    imageStore(sky_light, pixel, blended(imageLoad(sky_light, pixel), light.ambient, part));
    vec3 view_normal = normalize(mat3(frame.view) * normal);
    imageStore(view_normals, pixel, blended(imageLoad(view_normals, pixel), view_normal, part));
}

#endif
