// Impostor cards in the depth/normal prepass: the depth of the surface the picture stores
// (or the card's own, CARD_PLANE_DEPTH) and its view-space normal, which ambient occlusion
// reads. Compiled as impostor_depth_normal.frag and impostor_depth_normal_plane.frag.
#ifndef THRONG_IMPOSTOR_DEPTH_NORMAL_GLSL
#define THRONG_IMPOSTOR_DEPTH_NORMAL_GLSL

#include "impostor_in.glsl"

layout(location = 0) out vec4 out_normal;

void main() {
    CardSurface s = camera_card_surface();
    out_normal = vec4(normalize(mat3(frame.view) * s.normal), 1.0);
}

#endif
