#version 460
// Depth/normal prepass for the ground: its normal is +Y in the world.
#include "frame.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_normal;

void main() {
    out_normal = vec4(normalize(mat3(frame.view) * vec3(0.0, 1.0, 0.0)), 1.0);
}
