#version 460
// The camera's skinned passes' vertex stage, skinning every vertex itself (--skin vertex).
#include "skinned_vertex.glsl"
