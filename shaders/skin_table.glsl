// The skin pass's table (src/gpu/frame/skinning.rs): where each visible list's vertices were
// skinned to. shaders/cull_draws.comp writes it (reserving each list's room in the skinned
// buffer), shaders/skin.comp fills that room, and the skinned passes' vertex shaders read it.
// It holds the mesh raster's plan too (shaders/mesh_raster.comp, shaders/mesh_shadow.comp):
// which of the camera's and the sun's lists it draws instead of the graphics passes.
// Words: a header (instance records, models, unused, vec4s reserved so far), then per phase
// and model an indirect dispatch (x, y, z, unused): phases 0 and 1 the skin pass's (before and
// after the occlusion test), phase 2 the camera's mesh raster's, phase 3 the sun's. Then per [view][model][level] an entry
// of SKIN_ENTRY_WORDS: the list's first vec4 (SKIN_NONE: not skinned), its first slot in the
// visible lists, its first workgroup in its model's skin dispatch and its instances; then its
// first workgroup in its model's raster dispatch (SKIN_NONE: the graphics passes draw it),
// its triangles per instance, and how many of its instances (its first ones) the skin pass
// skinned: all, or as many as the room left held.
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
// Words per entry, and the phases with a dispatch per model.
const uint SKIN_ENTRY_WORDS = 8u;
const uint SKIN_PHASES = 4u;
// The mesh raster's phases: one dispatch per model after every camera list is known, and one
// per model for the sun's lists.
const uint RASTER_PHASE = 2u;
const uint SHADOW_RASTER_PHASE = 3u;

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
    return 4u + SKIN_PHASES * models * 4u
        + ((view * models + model) * uint(LOD_LEVELS) + level) * SKIN_ENTRY_WORDS;
}

// vec4s per vertex skinned for `view`.
uint skin_vec4s(uint view) {
    return view == VIEW_SHADOW ? SKIN_SHADOW_VEC4S : SKIN_CAMERA_VEC4S;
}

#endif
