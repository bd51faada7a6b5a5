// The crowd's looks: a linear RGB tint per material for each look an instance can wear
// (src/crowd/looks.rs; src/gpu/frame/looks_table.rs uploads them). Look 0 is plain: every tint
// white. Read by the stages that colour characters, meshes (skinned.frag) and cards
// (impostor_in.glsl).
#ifndef THRONG_LOOKS_GLSL
#define THRONG_LOOKS_GLSL

// Look: per material index its rgb tint, and 1 if drawn (0: hidden); made by build.rs from
// src/gpu/frame/device_layouts.rs (GpuLook).
#include "renderer_layouts.glsl"

layout(std430, set = 0, binding = BINDING_LOOKS) readonly buffer Looks {
    Look looks[];
};

// Look `look`'s entry for material `material`: its tint and whether it is drawn. White and
// drawn for a material past the tinted ones, and for a look the table does not hold (a record
// may name one only between a crowd's change and its upload, which the renderer orders first;
// the check keeps a read in bounds regardless).
vec4 look_entry(uint look, uint material) {
    if (material >= MAX_LOOK_TINTS || look >= uint(looks.length())) {
        return vec4(1.0);
    }
    return looks[look].tints[material];
}

// Look `look`'s tint of material `material`.
vec3 look_tint(uint look, uint material) {
    return look_entry(look, material).rgb;
}

// Whether look `look` draws material `material` (a prop a look leaves out is not).
bool look_shows(uint look, uint material) {
    return look_entry(look, material).w > 0.5;
}

// Where a vertex of a hidden material goes: outside every clip plane, so its triangles are
// clipped away before they are rasterized (every vertex of a triangle has the material).
const vec4 HIDDEN_POSITION = vec4(2.0, 2.0, 2.0, 1.0);

#endif
