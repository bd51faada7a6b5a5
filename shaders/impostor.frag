#version 460
// Impostor cards lit, writing the depth their pictures store (shaders/impostor_lit.glsl).
#include "impostor_lit.glsl"
