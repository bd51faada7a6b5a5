#version 460
// The shadow pass's vertex stage for alpha-clipped materials, skinning every vertex itself
// (--skin vertex): shadow.vert's, plus the texture coordinate for shadow_clip.frag.
#define SHADOW_CLIP
#include "shadow_vertex.glsl"
