// What the fragment stages of the graphics passes share: the frame uniforms, the per-draw
// material constants, and the shadow map and ambient occlusion every lit surface reads.
// Keep in step with src/gpu/frame_data.rs (FrameData, DrawConstants); tests/gpu_layouts.rs
// checks the offsets.
#ifndef THRONG_COMMON_GLSL
#define THRONG_COMMON_GLSL

#include "frame.glsl"

// Per draw (one model subset): its material.
layout(push_constant) uniform Draw {
    vec4 base_color;     // linear RGBA
    vec4 fresnel0;       // rgb: specular reflectance at normal incidence
    vec4 params;         // x: roughness, y: alpha clip (0/1), z: has normal map (0/1),
                         // w: +1, or -1 when the instance transform mirrors
} draw;

// The shadow map and the blurred ambient occlusion, read by the shading of every surface.
layout(set = 0, binding = 5) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 6) uniform sampler2D ambient_occlusion;

#endif
