#version 460
// The shadow pass's vertex stage where the skin pass ran (--skin compute): the positions it
// skinned are read, the rest skinned here.
#define SKIN_ONCE
#include "shadow_vertex.glsl"
