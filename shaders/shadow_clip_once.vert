#version 460
// The shadow pass's vertex stage for alpha-clipped materials where the skin pass ran
// (--skin compute): shadow_once.vert's, plus the texture coordinate for shadow_clip.frag.
#define SKIN_ONCE
#define SHADOW_CLIP
#include "shadow_vertex.glsl"
