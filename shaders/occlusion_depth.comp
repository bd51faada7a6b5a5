#version 460
// The occlusion image: the farthest depth of each square block of OCCLUSION_BLOCK pixels of
// the prepass's depth (the last row and column of blocks take the pixels left over), which
// shaders/cull_late.comp tests the small instances' boxes against. The farthest, so a box
// counts as hidden only where every pixel of the block is nearer than all of it.
layout(local_size_x = OCCLUSION_GROUP, local_size_y = OCCLUSION_GROUP) in;

layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2D depth_map;
layout(set = 0, binding = COMPUTE_OUTPUT, r32f) uniform writeonly image2D occlusion_out;

void main() {
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(occlusion_out);
    if (texel.x >= size.x || texel.y >= size.y) {
        return;
    }
    ivec2 pixels = textureSize(depth_map, 0);
    ivec2 start = texel * OCCLUSION_BLOCK;
    ivec2 end = min(start + OCCLUSION_BLOCK, pixels);
    if (texel.x == size.x - 1) {
        end.x = pixels.x;
    }
    if (texel.y == size.y - 1) {
        end.y = pixels.y;
    }
    float farthest = 0.0;
    for (int y = start.y; y < end.y; y++) {
        for (int x = start.x; x < end.x; x++) {
            farthest = max(farthest, texelFetch(depth_map, ivec2(x, y), 0).r);
        }
    }
    imageStore(occlusion_out, texel, vec4(farthest));
}
