// The camera's depth as the ambient occlusion reads it in the frame without a prepass when
// compute passes drew part of what it sees (src/gpu/features/lit/camera_depth.rs): the meshes'
// resolved depth (sample zero), the ground's where the ground pass drew it (`parts.x`), and
// with cards or meshes in compute (CARDS: camera_depth_cards.comp) the nearest surface's at
// sample zero of the visibility buffer (shaders/visibility.glsl); whichever is nearest. Where the lit passes left their
// depth multisampled (MULTISAMPLED: the _ms variants), its sample zero is read here.
#ifndef THRONG_CAMERA_DEPTH_GLSL
#define THRONG_CAMERA_DEPTH_GLSL

#define FRAME_BINDING COMPUTE_FRAME
#include "ground_ray.glsl"
#ifdef CARDS
#include "visibility.glsl"
#endif

layout(local_size_x = 8, local_size_y = 8) in;
#ifdef MULTISAMPLED
// The lit passes' depth as they left it, unresolved: sample zero is what the resolve takes.
layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2DMS depth_map;
#else
layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2D depth_map;
#endif
layout(set = 0, binding = COMPUTE_OUTPUT, r32f) uniform writeonly image2D camera_depth;

layout(push_constant) uniform Parts {
    uvec4 parts; // x: 1 when the ground pass drew the ground; y: the visibility buffer's samples
} depth;

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(frame.target.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    float d = texelFetch(depth_map, pixel, 0).r; // level 0, or sample 0
    if (depth.parts.x != 0u) {
        d = min(d, ground_depth_at(pixel_ndc(pixel, frame.target.xy)));
    }
#ifdef CARDS
    uint64_t key = visibility[visibility_at(pixel, 0u, max(depth.parts.y, 1u), uint(size.x))];
    if (key != 0UL) {
        d = min(d, key_depth(key));
    }
#endif
    imageStore(camera_depth, pixel, vec4(d));
}

#endif
