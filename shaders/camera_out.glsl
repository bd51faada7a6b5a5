// What the camera's lit passes write. After a depth/normal prepass, the ambient occlusion is
// known: one colour, lit in full. Without one (AMBIENT_APART), the occlusion is made from
// these passes' own depth and normals afterwards, so they write the sun's light, the sky's
// light before occlusion and the view-space normal apart, and the composite pass
// (ambient_composite.frag) adds them: direct + ambient * occlusion, the same sum.
#ifndef THRONG_CAMERA_OUT_GLSL
#define THRONG_CAMERA_OUT_GLSL

#include "lighting.glsl"

layout(location = 0) out vec4 out_color;
#ifdef AMBIENT_APART
layout(location = 1) out vec4 out_ambient;
layout(location = 2) out vec4 out_normal;
#endif

// Writes a surface lit by `light` whose world-space normal (the geometric one, as the prepass
// writes it) is `normal`.
void write_lit(SurfaceLight light, vec3 normal) {
#ifdef AMBIENT_APART
    out_color = vec4(light.direct, 1.0);
    out_ambient = vec4(light.ambient, 1.0);
    out_normal = vec4(normalize(mat3(frame.view) * normal), 1.0);
#else
    out_color = vec4(light.direct + light.ambient * ambient_visibility(), 1.0);
#endif
}

// Writes plain white (the silhouette view, which has no prepass and no occlusion).
void write_white() {
    out_color = vec4(1.0);
#ifdef AMBIENT_APART
    out_ambient = vec4(0.0);
    out_normal = vec4(0.0);
#endif
}

#endif
