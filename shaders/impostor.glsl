// Impostor cards (src/gpu/features/impostors): what baking and drawing them share. A cell of a model's
// atlas shows the model from one direction at one moment of one clip; `ImpostorView` is the
// camera of the cells of one direction (model space).
#ifndef THRONG_IMPOSTOR_GLSL
#define THRONG_IMPOSTOR_GLSL

// ImpostorView: src/gpu/frame/device_layouts.rs (ViewData).
#include "renderer_layouts.glsl"

// A unit vector in two numbers from -1 to 1 (the octahedral map: the sphere folded onto the
// octahedron |x| + |y| + |z| = 1 and that onto a square): the atlas keeps a normal in two
// channels, and the third for the surface's material and roughness (pack_material).
vec2 octahedral_encode(vec3 n) {
    n /= abs(n.x) + abs(n.y) + abs(n.z);
    vec2 p = n.xy;
    if (n.z < 0.0) {
        p = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    }
    return p;
}

vec3 octahedral_decode(vec2 p) {
    vec3 n = vec3(p, 1.0 - abs(p.x) - abs(p.y));
    if (n.z < 0.0) {
        n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    }
    return normalize(n);
}

// A texel's material and roughness in one 8-bit channel: the material's index in the high
// four bits (15 for one past MAX_LOOK_TINTS, which no tint applies to), the roughness in
// fifteenths in the low four (a card, a few dozen pixels tall, shows nothing finer).
float pack_material(uint material, float roughness) {
    uint code = material < MAX_LOOK_TINTS ? material : 15u;
    uint r = uint(round(clamp(roughness, 0.0, 1.0) * 15.0));
    return float(code * 16u + r) / 255.0;
}

// pack_material's material (15: none tinted) and roughness.
void unpack_material(float packed, out uint material, out float roughness) {
    uint byte = uint(round(clamp(packed, 0.0, 1.0) * 255.0));
    material = byte >> 4;
    roughness = float(byte & 15u) / 15.0;
}

#endif
