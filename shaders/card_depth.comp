#version 460
// The camera's depth with its cards, for the ambient occlusion: the meshes' resolved depth
// (sample zero) where it is nearer, else the depth of the pixel's nearest card from the
// visibility buffer (card_raster.comp). With cards drawn by graphics passes the occlusion
// reads the resolved depth itself, which then holds them.
#extension GL_ARB_gpu_shader_int64 : require
#define FRAME_BINDING COMPUTE_FRAME
#include "frame.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 17) readonly buffer Visibility {
    uint64_t visibility[];
};
layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2D depth_map;
layout(set = 0, binding = COMPUTE_OUTPUT, r32f) uniform writeonly image2D camera_depth;

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(frame.target.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) {
        return;
    }
    float depth = texelFetch(depth_map, pixel, 0).r;
    uint64_t key = visibility[uint(pixel.y) * uint(size.x) + uint(pixel.x)];
    if (key != 0UL) {
        depth = min(depth, uintBitsToFloat(0xffffffffu - uint(key >> 32)));
    }
    imageStore(camera_depth, pixel, vec4(depth));
}
