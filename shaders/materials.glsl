// The per-draw material: push constants set for each model subset, read by the fragment
// stages that colour or clip characters (skinned.frag, depth_normal.frag).
// Keep in step with src/gpu/frame_data.rs (DrawConstants); tests/gpu_layouts.rs checks the
// offsets.
#ifndef THRONG_MATERIALS_GLSL
#define THRONG_MATERIALS_GLSL

// Per draw (one model subset): its material.
layout(push_constant) uniform Draw {
    vec4 base_color;     // linear RGBA
    vec4 fresnel0;       // rgb: specular reflectance at normal incidence, w: the material's
                         // index (which tint of a look applies: looks.glsl)
    vec4 params;         // x: roughness, y: alpha clip (0/1), z: has normal map (0/1),
                         // w: +1, or -1 when the instance transform mirrors
} draw;

#endif
