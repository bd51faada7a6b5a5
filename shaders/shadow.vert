#version 460
// Shadow pass: the skinned position only, seen from the light. Same skinning as the other
// passes (common.glsl), so shadows match what is drawn.
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;

void main() {
    InstanceRecord r = records[gl_InstanceIndex];
    vec3 model_pos = transform_point(skin_matrix(r, in_joints, in_weights), in_position);
    vec3 world_pos = transform_point(world_matrix(r), model_pos);
    gl_Position = frame.light_view_proj * vec4(world_pos, 1.0);
}
