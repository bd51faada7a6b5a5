// The camera's visibility buffer (src/gpu/features/impostors/card_compute.rs, `visibility`):
// per pixel and sample, the nearest surface the compute passes found there, as one 64-bit
// key: the depth's bits inverted above the surface's name (a card's entry in the visible
// lists, or a mesh triangle, shaders/mesh_compute.glsl), so the larger key is the nearer
// surface and one atomic maximum keeps it; zero, the cleared value, is none. A pixel's samples
// sit at the standard sample locations of the lit passes' multisampled images, so each is
// tested against the lit passes' depth at the same point: the compute surfaces keep the
// lit passes' multisampled edges and have their own.
#ifndef THRONG_VISIBILITY_GLSL
#define THRONG_VISIBILITY_GLSL

#extension GL_ARB_gpu_shader_int64 : require
#ifdef VISIBILITY_WRITE
#extension GL_EXT_shader_atomic_int64 : require
#endif

#ifndef VISIBILITY_WRITE
#define VISIBILITY_ACCESS readonly
#else
#define VISIBILITY_ACCESS
#endif

layout(std430, set = 0, binding = 17) VISIBILITY_ACCESS buffer Visibility {
    uint64_t visibility[];
};

// Where sample `s` of `pixel` is kept, for `samples` samples per pixel in a target `width`
// pixels wide.
uint visibility_at(ivec2 pixel, uint s, uint samples, uint width) {
    return (uint(pixel.y) * width + uint(pixel.x)) * samples + s;
}

// The depth a key holds.
float key_depth(uint64_t key) {
    return uintBitsToFloat(0xffffffffu - uint(key >> 32));
}

// The surface a key names.
uint key_name(uint64_t key) {
    return uint(key & 0xffffffffUL);
}

// The key of a surface named `name` at `depth`.
uint64_t surface_key(float depth, uint name) {
    return (uint64_t(0xffffffffu - floatBitsToUint(depth)) << 32) | uint64_t(name);
}

// Sample `s`'s place in its pixel (0 to 1, y down) among `samples`: Vulkan's standard sample
// locations, where the lit passes' samples lie.
vec2 sample_offset(uint s, uint samples) {
    if (samples == 2u) {
        return s == 0u ? vec2(0.75) : vec2(0.25);
    }
    if (samples == 4u) {
        const vec2 four[4] = vec2[](vec2(0.375, 0.125), vec2(0.875, 0.375),
                                    vec2(0.125, 0.625), vec2(0.625, 0.875));
        return four[s & 3u];
    }
    if (samples == 8u) {
        const vec2 eight[8] = vec2[](vec2(0.5625, 0.3125), vec2(0.4375, 0.6875),
                                     vec2(0.8125, 0.5625), vec2(0.3125, 0.1875),
                                     vec2(0.1875, 0.8125), vec2(0.0625, 0.4375),
                                     vec2(0.6875, 0.9375), vec2(0.9375, 0.0625));
        return eight[s & 7u];
    }
    return vec2(0.5);
}

#ifdef VISIBILITY_WRITE
// Keeps `key` at `at` where no nearer surface is kept. A plain read first: where a nearer
// surface is already kept, no atomic is needed.
void keep_nearest(uint at, uint64_t key) {
    if (visibility[at] < key) {
        atomicMax(visibility[at], key);
    }
}
#endif

#endif
