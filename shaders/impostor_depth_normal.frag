#version 460
// Impostor cards in the depth/normal prepass: the depth of the surface the picture stores
// and its view-space normal, which ambient occlusion reads.
#include "impostor_in.glsl"

layout(location = 0) out vec4 out_normal;

void main() {
    vec3 albedo;
    vec3 n;
    float roughness;
    vec3 world;
    if (!card_surface(card_in(), albedo, n, roughness, world)) {
        discard;
    }
    gl_FragDepth = card_depth(frame.view_proj, world);
    out_normal = vec4(normalize(mat3(frame.view) * n), 1.0);
}
