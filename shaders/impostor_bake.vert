#version 460
// Baking an impostor atlas: the model skinned with one pose of one clip (palettes the CPU
// evaluated, `Poses`), seen by one cell's orthographic camera (`Cells`). Writes what the
// cards need to be lit like meshes: the view-space normal and how far in front of or behind
// the sphere's centre each point is.
#include "impostor.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Poses {
    vec4 pose_rows[];
};

layout(std430, set = 0, binding = 1) readonly buffer Cells {
    ImpostorView cells[];
};

layout(push_constant) uniform BakeDraw {
    BAKE_DRAW_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs, BakeDraw
} bake;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;

layout(location = 0) out vec3 out_view_normal;
layout(location = 1) out float out_depth;
layout(location = 2) out vec2 out_uv;

mat3x4 pose_matrix(uint joint) {
    uint at = 3u * (bake.pose + joint);
    return mat3x4(pose_rows[at], pose_rows[at + 1u], pose_rows[at + 2u]);
}

void main() {
    mat3x4 skin = pose_matrix(in_joints.x) * in_weights.x;
    if (in_weights.y > 0.0) skin += pose_matrix(in_joints.y) * in_weights.y;
    if (in_weights.z > 0.0) skin += pose_matrix(in_joints.z) * in_weights.z;
    if (in_weights.w > 0.0) skin += pose_matrix(in_joints.w) * in_weights.w;
    vec3 p = vec4(in_position, 1.0) * skin;
    vec3 n = vec4(in_normal, 0.0) * skin;
    ImpostorView c = cells[bake.view];
    gl_Position = c.view_proj * vec4(p, 1.0);
    out_view_normal = vec3(dot(n, c.right.xyz), dot(n, c.up.xyz), dot(n, c.towards.xyz));
    // 0 on the sphere's far side, 1 on its near side (towards the camera), 0.5 at its centre.
    out_depth = 0.5 + dot(p - c.centre.xyz, c.towards.xyz) / (2.0 * c.centre.w);
    out_uv = in_uv;
}
