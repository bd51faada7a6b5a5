#version 460
// The camera's skinned passes' vertex stage where the skin pass ran (--skin compute): the
// vertices it skinned are read, the rest skinned here.
#define SKIN_ONCE
#include "skinned_vertex.glsl"
