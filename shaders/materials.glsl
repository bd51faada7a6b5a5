// The per-draw material: push constants set for each model subset, read by the fragment
// stages that colour or clip characters (skinned.frag, depth_normal.frag).
// Its members are DrawConstants' (src/gpu/frame/device_layouts.rs, made GLSL by build.rs).
#ifndef THRONG_MATERIALS_GLSL
#define THRONG_MATERIALS_GLSL

#include "renderer_layouts.glsl"

// Per draw (one model subset): its material.
layout(push_constant) uniform Draw {
    DRAW_MATERIAL_FIELDS // src/gpu/frame/device_layouts.rs, DrawConstants
} draw;

#endif
