#version 460
// The shadow pass's vertex stage, skinning every vertex itself (--skin vertex).
#include "shadow_vertex.glsl"
