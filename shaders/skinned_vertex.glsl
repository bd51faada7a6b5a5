// The camera's skinned passes' vertex stage (shaders/skinned.vert, shaders/skinned_once.vert):
// four-influence linear blend skinning of position, normal and tangent, then the instance's
// world transform; with SKIN_ONCE, the vertex as the skin pass left it in the world
// (shaders/skin.comp) wherever its list was skinned there. The instance comes from the
// culling pass's list for the camera (see drawn_instance()).
#include "skinning.glsl"
#include "frame.glsl"
#include "materials.glsl"
#include "looks.glsl"

// The depth prepass and the forward pass both run this shader, and the forward pass tests
// depth with EQUAL: positions must come out bit-identical in both.
invariant gl_Position;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_tangent;
layout(location = 3) out vec2 out_uv;
layout(location = 4) flat out float out_share;
layout(location = 5) flat out uint out_look;

void main() {
    InstanceRecord r = drawn_instance();
    out_look = record_look(r);
    // A material the instance's look leaves out (a prop it does not carry) is not drawn: the
    // same test in the prepass and the forward pass, so depth stays equal.
    if (!look_shows(out_look, uint(draw.fresnel0.w))) {
        gl_Position = HIDDEN_POSITION;
        return;
    }
    vec3 world_pos;
#ifdef SKIN_ONCE
    uint at = skinned_vertex_at(r);
    if (at != SKIN_NONE) {
        // Skinned once this frame by the skin pass, for this pass and the others.
        world_pos = skinned[at].xyz;
        out_normal = skinned[at + 1u].xyz;
        out_tangent = vec4(skinned[at + 2u].xyz, in_tangent.w);
    } else
#endif
    {
        mat3x4 skin = skin_matrix(r, in_joints, in_weights);
        world_pos = skinned_world_position(r, skin, in_position);
        out_normal = skinned_world_direction(r, skin, in_normal);
        out_tangent = vec4(skinned_world_direction(r, skin, in_tangent.xyz), in_tangent.w);
    }
    out_world = world_pos;
    out_uv = in_uv;
    out_share = drawn_share();
    gl_Position = frame.view_proj * vec4(world_pos, 1.0);
}
