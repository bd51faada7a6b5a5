// The visible lists the culling passes append to (shaders/cull.comp, shaders/cull_late.comp).
#ifndef THRONG_CULL_LISTS_GLSL
#define THRONG_CULL_LISTS_GLSL

#include "cull.glsl"

layout(std430, set = 0, binding = CULL_OUTPUT) writeonly buffer Lists {
    uint lists[];
};

// Appends `record` to the list of `view`, model and level (an atomic counter per list), with
// the mesh's share of it.
void append(uint view, uint model_index, CullModel model, uint level, uint record, uint share) {
    uint slot = atomicAdd(counters[counter_index(view, model_index, level)], 1u);
    // Without culling, levels or cards every instance lands in level 0: keep the record order
    // so the frame is the same from run to run.
    if ((cull.counts.z & (CULL_FRUSTUM | CULL_LOD | CULL_IMPOSTORS)) == 0u) {
        slot = record - model.range.x;
    }
    lists[list_start(view, level) + model.range.x + slot] = list_entry(record, share);
}

// Appends `record` to the camera's lists of `view`: its mesh level's while the mesh draws some
// of it, the cards' while the card does.
void append_camera(uint view, uint model_index, CullModel model, InstanceRecord r, vec3 centre,
                   vec3 half_size, uint record) {
    uint share = mesh_share(r, model, centre, half_size);
    if (share > 0u) {
        append(view, model_index, model, camera_level(r, model, centre, half_size), record,
               share);
    }
    if (share < 255u) {
        append(view, model_index, model, CARD_LEVEL, record, share);
    }
}

#endif
