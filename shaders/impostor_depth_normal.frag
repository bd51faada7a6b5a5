#version 460
// Impostor cards' depth and normals, the depth their pictures store
// (shaders/impostor_depth_normal.glsl).
#include "impostor_depth_normal.glsl"
