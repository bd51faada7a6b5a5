// Shading shared by the character and ground fragment shaders (the lit surfaces): one
// directional light, shadowed through the shadow map (Lambert diffuse plus a normalized
// Blinn-Phong lobe whose exponent follows the material's roughness), and hemispheric ambient
// darkened by the blurred ambient occlusion, all in linear light. The two samplers are
// declared here, so only the passes that shade include them.
#ifndef THRONG_LIGHTING_GLSL
#define THRONG_LIGHTING_GLSL

#include "frame.glsl"

layout(set = 0, binding = BINDING_SHADOW_MAP) uniform sampler2DShadow shadow_map;
#ifndef STAGE_COMPUTE
layout(set = 0, binding = BINDING_AO) uniform sampler2D ambient_occlusion;
#endif

vec3 hemisphere_ambient(vec3 n) {
    return mix(frame.ground_color.rgb, frame.sky_color.rgb, n.y * 0.5 + 0.5);
}

// How much of the sun reaches `p` through the cascade `light` draws in the shadow map's
// square that starts `u0` across it (1 lit, 0 shadowed): a 3x3 percentage-closer filter with
// hardware depth comparison, each tap a bilinear 2x2 comparison kept inside the square.
float cascade_visibility(mat4 light, vec3 p, float u0) {
    vec4 clip = light * vec4(p, 1.0);
    vec3 ndc = clip.xyz / clip.w;
    vec2 uv = ndc.xy * 0.5 + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || ndc.z > 1.0) {
        return 1.0; // outside the light's box: nothing there casts
    }
    float share = frame.shadow_near.w;
    vec2 texel = vec2(frame.shadow.y * share, frame.shadow.y);
    vec2 at = vec2(u0 + uv.x * share, uv.y);
    float lit = 0.0;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            vec2 tap = at + vec2(x, y) * texel;
            if (share < 1.0) {
                // A tap's 2x2 texels stay in its own square, not the one beside it.
                tap.x = clamp(tap.x, u0 + 0.5 * texel.x, u0 + share - 0.5 * texel.x);
            }
            lit += texture(shadow_map, vec3(tap, ndc.z));
        }
    }
    return lit / 9.0;
}

// How much of the sun reaches world_pos (1 lit, 0 shadowed), its normal n: from the near
// cascade's square inside its receivers' box (giving way to the whole box's over a band at
// the box's sides), from the whole box's elsewhere. The point is pushed along its normal by
// about a texel of the map it reads so surfaces do not shadow themselves (the shadow passes
// add a slope-scaled depth bias too).
float sun_visibility(vec3 world_pos, vec3 n) {
    if (frame.shadow.x < 0.5) {
        return 1.0;
    }
    float near = 0.0;
    if (frame.shadow_near.x > 0.5) {
        vec3 inside = min(world_pos - frame.near_lo.xyz, frame.near_hi.xyz - world_pos);
        // Above or below the box (by more than the band: the ground is its floor) the whole
        // box's map serves.
        if (inside.y > -frame.shadow_near.z) {
            near = clamp(min(inside.x, inside.z) / frame.shadow_near.z, 0.0, 1.0);
        }
    }
    float lit = 1.0;
    if (near > 0.0) {
        lit = cascade_visibility(frame.light_view_proj_near,
                                 world_pos + n * frame.shadow_near.y, frame.shadow_near.w);
    }
    if (near < 1.0) {
        float whole = cascade_visibility(frame.light_view_proj,
                                         world_pos + n * frame.shadow.z, 0.0);
        lit = mix(whole, lit, near);
    }
    return mix(1.0, lit, frame.shadow.w);
}

#ifndef STAGE_COMPUTE
// The blurred ambient occlusion at this fragment (1 when AO is off). A compute pass that
// lights surfaces (card_shade.comp) writes the light apart and reads no occlusion.
float ambient_visibility() {
    if (frame.ssao.x < 0.5) {
        return 1.0;
    }
    return texture(ambient_occlusion, gl_FragCoord.xy * frame.target.zw).r;
}
#endif

// A surface's light in two parts: `direct`, the sun's (shadowed), and `ambient`, the sky's
// before ambient occlusion darkens it. Apart because without a prepass the occlusion is
// known only after the camera's passes, which then write the two apart (camera_out.glsl).
struct SurfaceLight {
    vec3 direct;
    vec3 ambient;
};

SurfaceLight light_surface(vec3 albedo, vec3 n, vec3 world_pos, float roughness, vec3 f0) {
    vec3 l = frame.light_dir.xyz;
    vec3 v = normalize(frame.camera_pos.xyz - world_pos);
    vec3 h = normalize(l + v);
    float n_dot_l = max(dot(n, l), 0.0);
    // alpha = roughness^2 and exponent 2/alpha^2 - 2: the usual Blinn-Phong stand-in for a
    // microfacet lobe of that roughness.
    float alpha = max(roughness * roughness, 0.03);
    float exponent = max(2.0 / (alpha * alpha) - 2.0, 1.0);
    float spec_norm = (exponent + 8.0) / 25.1327; // (n + 8) / (8 pi)
    vec3 fresnel = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    vec3 specular = fresnel * spec_norm * pow(max(dot(n, h), 0.0), exponent);
    vec3 direct = (albedo * (1.0 - f0) / 3.14159265 + specular) * frame.light_color.rgb * n_dot_l;
    float sun = n_dot_l > 0.0 ? sun_visibility(world_pos, n) : 1.0;
    return SurfaceLight(direct * sun, albedo * hemisphere_ambient(n));
}

#ifndef STAGE_COMPUTE
// The surface's light with the ambient occlusion applied (a pass that reads it).
vec3 shade(vec3 albedo, vec3 n, vec3 world_pos, float roughness, vec3 f0) {
    SurfaceLight light = light_surface(albedo, n, world_pos, roughness, f0);
    return light.direct + light.ambient * ambient_visibility();
}
#endif

#endif
