#version 460
// The ground: one quad on the plane y = frame.ground_plane.w, centred under the crowd,
// generated from the vertex index (no vertex buffer).
#include "frame.glsl"

// Drawn in the depth prepass and in the forward pass (EQUAL depth test): keep positions
// bit-identical.
invariant gl_Position;

layout(location = 0) out vec3 out_world;

void main() {
    // Two triangles, counter-clockwise seen from above (+Y).
    const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(-1, 1), vec2(1, 1),
                                   vec2(-1, -1), vec2(1, 1), vec2(1, -1));
    vec2 c = corners[gl_VertexIndex] * frame.ground_plane.z + frame.ground_plane.xy;
    out_world = vec3(c.x, frame.ground_plane.w, c.y);
    gl_Position = frame.view_proj * vec4(out_world, 1.0);
}
