// The shadow pass's vertex stage (shaders/shadow.vert, shaders/shadow_once.vert): the skinned
// position only, seen from the light; with SKIN_ONCE as the skin pass left it wherever its
// list was skinned there. Same skinning as the other passes (skinning.glsl), so shadows
// match what is drawn.
#include "skinning.glsl"
#include "frame.glsl"
#include "materials.glsl"
#include "looks.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;

void main() {
    InstanceRecord r = drawn_instance();
    // A material the instance's look leaves out casts no shadow either.
    if (!look_shows(record_look(r), uint(draw.fresnel0.w))) {
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
}
