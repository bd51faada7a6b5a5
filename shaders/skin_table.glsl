// The skin pass's table (src/gpu/frame/skinning.rs): where each visible list's vertices were
// skinned to. shaders/cull_draws.comp writes it (reserving each list's room in the skinned
// buffer), shaders/skin.comp fills that room, and the skinned passes' vertex shaders read it.
// Words: a header (instance records, models, unused, vec4s reserved so far), then per phase and model the skin pass's indirect dispatch (x, y, z, unused),
// then per [view][model][level] the list's first vec4 (SKIN_NONE: not skinned), its first
// slot in the visible lists, its first workgroup in its model's dispatch and its instances.
#ifndef THRONG_SKIN_TABLE_GLSL
#define THRONG_SKIN_TABLE_GLSL

#ifndef SKIN_TABLE_BINDING
#define SKIN_TABLE_BINDING BINDING_SKIN_TABLE
#endif
#ifndef SKIN_TABLE_ACCESS
#define SKIN_TABLE_ACCESS readonly
#endif
// The models the table holds: its header's, or where the header is being written (the draws
// pass) the culling's own count.
#ifndef SKIN_TABLE_MODELS
#define SKIN_TABLE_MODELS skin_table[SKIN_MODELS]
#endif

layout(std430, set = 0, binding = SKIN_TABLE_BINDING) SKIN_TABLE_ACCESS buffer SkinTable {
    uint skin_table[];
};

const uint SKIN_RECORDS = 0u;
const uint SKIN_MODELS = 1u;
const uint SKIN_USED = 3u;

// The skin pass's phases: the lists built before the occlusion test, and the late one.
uint skin_phase(uint view) {
    return view == VIEW_CAMERA_LATE ? 1u : 0u;
}

// Where the indirect dispatch of `phase` for `model` starts.
uint skin_args(uint phase, uint model) {
    return 4u + (phase * SKIN_TABLE_MODELS + model) * 4u;
}

// Where the entry of the list of `view`, `model` and mesh `level` starts.
uint skin_entry(uint view, uint model, uint level) {
    uint models = SKIN_TABLE_MODELS;
    return 4u + 2u * models * 4u + ((view * models + model) * uint(LOD_LEVELS) + level) * 4u;
}

// vec4s per vertex skinned for `view`.
uint skin_vec4s(uint view) {
    return view == VIEW_SHADOW ? SKIN_SHADOW_VEC4S : SKIN_CAMERA_VEC4S;
}

#endif
