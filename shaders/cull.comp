#version 460
// Culling and level selection, one invocation per instance record. For each view (the
// camera, and the sun's view of what can shadow the camera's), test the instance's bound,
// choose a mesh level from its projected error (or, short on screen, an impostor card), and
// append the record's index to the list of that view, model and level (an atomic counter per
// list). src/crowd/visibility.rs states
// the same rules on the CPU; tests compare the counts.
//
// With occlusion culling, an instance in view that looks small (a projected radius under
// cull.occlusion.x pixels) does not go into the camera's list: it waits in the candidates'
// list for cull_late.comp, which tests it against the depth the large ones leave.
#include "cull.glsl"
#include "cull_lists.glsl"

layout(local_size_x = CULL_GROUP) in;

layout(std430, set = 0, binding = CULL_CANDIDATES) writeonly buffer Candidates {
    uint candidates[];
};

// Whether any of the box (centre, half size) can be inside the planes.
bool intersects(vec4 planes[6], vec3 centre, vec3 half_size) {
    for (int i = 0; i < 6; i++) {
        vec3 n = planes[i].xyz;
        if (dot(n, centre) + dot(abs(n), half_size) + planes[i].w < 0.0) {
            return false;
        }
    }
    return true;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= cull.counts.x) {
        return;
    }
    InstanceRecord r = records[i];
    if (world_scale(r) == 0.0) {
        // A transform of no size shows nothing and casts nothing (an empty slot of a
        // playback's pool).
        return;
    }
    uint model_index = r.model_flags & RECORD_MODEL_MASK;
    CullModel model = models[model_index];
    vec3 centre;
    vec3 half_size;
    world_box(r, model, centre, half_size);
    uint flags = cull.counts.z;
    bool frustum = (flags & CULL_FRUSTUM) != 0u;
    uint share = mesh_share(r, model, centre, half_size);
    // Within the near cascade's reach a shadow may land in its square, which is drawn from
    // the sun's mesh lists alone: a mesh there, never a card.
    bool near_cascade = nearest_distance(centre, half_size) < cull.near_shadow.x;
    uint shadow_level = 0u;
    if (share < 128u && !near_cascade) {
        // A card's shadow is a card too (seen from the sun): far characters cast what they
        // show. One or the other, whole: a shadow is not dithered.
        shadow_level = CARD_LEVEL;
    } else if ((flags & CULL_LOD) != 0u) {
        float pixels_per_unit = pixels_per_unit_at(centre, half_size);
        // A shadow forgives more than the surface itself (soft, filtered, often oblique):
        // its level may stray cull.lod.w times as far, and never needs to be finer than
        // what the whole box's shadow-map texels can show (the near square's finer texels
        // show the same levels' shadows as well: src/crowd/visibility.rs,
        // shadow_may_be_card).
        float shadow_allowed = max(cull.lod.x * cull.lod.w,
                                   cull.shadow.x * cull.shadow.y * pixels_per_unit);
        shadow_level = choose_level(model, world_scale(r), pixels_per_unit, shadow_allowed);
    }

    if (!frustum || intersects(cull.camera_planes, centre, half_size)) {
        float radius_px = length(half_size) * pixels_per_unit_at(centre, half_size);
        if ((flags & CULL_OCCLUSION) != 0u && radius_px < cull.occlusion.x) {
            candidates[atomicAdd(counters[candidates_index()], 1u)] = i;
        } else {
            append_camera(VIEW_CAMERA, model_index, model, r, centre, half_size, i);
        }
    }
    if ((flags & CULL_SHADOWS) != 0u) {
        bool casts = true;
        if (frustum) {
            // In the shadow map, and its shadow (the box swept away from the sun down to
            // the ground) reaches what the camera sees.
            vec3 bottom = centre - half_size;
            vec3 top = centre + half_size;
            float height = max(top.y - cull.light.w, 0.0);
            vec3 run = -cull.light.xyz * (height / max(cull.light.y, cull.lod.z));
            vec3 swept_lo = min(bottom, bottom + run);
            vec3 swept_hi = max(top, top + run);
            swept_lo.y = max(swept_lo.y, min(cull.light.w, bottom.y));
            casts = intersects(cull.light_planes, centre, half_size)
                 && intersects(cull.camera_planes, 0.5 * (swept_lo + swept_hi),
                               0.5 * (swept_hi - swept_lo));
        }
        if (casts) {
            // A mesh the near square may need says so in its share (no shadow is dithered).
            uint whole = shadow_level == CARD_LEVEL ? 0u
                       : near_cascade ? NEAR_CASCADE_SHARE : 255u;
            append(VIEW_SHADOW, model_index, model, shadow_level, i, whole);
        }
    }
}
