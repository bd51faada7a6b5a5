// Skinned forward pass, fragment side: base colour (texture times material colour, tinted by
// the instance's look), alpha clip, tangent-space normal map, lit by light_surface() and
// written as camera_out.glsl says. The silhouette view writes plain white. Compiled as
// skinned.frag (after a prepass) and skinned_apart.frag (AMBIENT_APART: without one).
#ifndef THRONG_SKINNED_LIT_GLSL
#define THRONG_SKINNED_LIT_GLSL

#include "frame.glsl"
#include "materials.glsl"
#include "dither.glsl"
#include "camera_out.glsl"
#include "looks.glsl"

layout(set = 0, binding = BINDING_BASE_COLOR) uniform sampler2D base_color_map;
layout(set = 0, binding = BINDING_NORMAL) uniform sampler2D normal_map;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec2 in_uv;
layout(location = 4) flat in float in_share;
layout(location = 5) flat in uint in_look;

void main() {
    if (!mesh_keeps_pixel(in_share)) {
        discard; // the impostor card draws this pixel (dither.glsl)
    }
    vec4 base = texture(base_color_map, in_uv) * draw.base_color;
    if (draw.params.y > 0.5 && base.a < 0.5) {
        discard;
    }
    if (frame.view_mode.x == VIEW_MODE_SILHOUETTE) {
        write_white();
        return;
    }
    vec3 n = normalize(in_normal);
    if (!gl_FrontFacing) {
        n = -n; // two-sided look for the rare open mesh seen from behind
    }
    vec3 geometric = n; // what the prepass writes (no normal map)
    if (draw.params.z > 0.5) {
        vec3 t = normalize(in_tangent.xyz - n * dot(n, in_tangent.xyz));
        // The bitangent's handedness flips when the instance transform mirrors.
        vec3 b = cross(n, t) * in_tangent.w * draw.params.w;
        vec3 tn = texture(normal_map, in_uv).xyz * 2.0 - 1.0;
        n = normalize(mat3(t, b, n) * tn);
    }
    // draw.fresnel0.w: the subset's material index, which the look's tints are indexed by.
    vec3 albedo = base.rgb * look_tint(in_look, uint(draw.fresnel0.w));
    write_lit(light_surface(albedo, n, in_world, draw.params.x, draw.fresnel0.rgb), geometric);
}

#endif
