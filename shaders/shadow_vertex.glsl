// The shadow passes' vertex stage (shaders/shadow.vert, shaders/shadow_once.vert): the
// skinned position only, seen from the light (the whole box's, or the near cascade's); with
// SKIN_ONCE as the skin pass left it wherever its list was skinned there. Same skinning as the other passes (skinning.glsl), so shadows
// match what is drawn. With SHADOW_CLIP (shadow_clip.vert, shadow_clip_once.vert) it also
// hands the texture coordinate to shadow_clip.frag, which clips by alpha as the camera's
// passes do.
#include "skinning.glsl"
#include "frame.glsl"
#include "materials.glsl"
#include "looks.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;
#ifdef SHADOW_CLIP
layout(location = 3) in vec2 in_uv;
layout(location = 0) out vec2 out_uv;
#endif

void main() {
    InstanceRecord r = drawn_instance();
    // The near cascade's pass (frame.near_lo.w is 1 in its copy of the frame's uniforms, 0
    // in the frame's own) draws the sun's lists again for the casters the culling found
    // within its reach (their share is not whole, cull.glsl's NEAR_CASCADE_SHARE): the
    // others' vertices stop here, before skinning.
    bool beyond = frame.near_lo.w > 0.0 && drawn_share() == 1.0;
    // A material the instance's look leaves out casts no shadow either.
    if (beyond || !look_shows(record_look(r), uint(draw.fresnel0.w))) {
        gl_Position = HIDDEN_POSITION;
        return;
    }
    vec3 world_pos;
#ifdef SKIN_ONCE
    uint at = skinned_vertex_at(r);
    if (at != SKIN_NONE) {
        world_pos = skinned[at].xyz;
    } else
#endif
    {
        world_pos =
            skinned_world_position(r, skin_matrix(r, in_joints, in_weights), in_position);
    }
    gl_Position = frame.light_view_proj * vec4(world_pos, 1.0);
#ifdef SHADOW_CLIP
    out_uv = in_uv;
#endif
}
