#version 460
// Impostor cards lit without a prepass, writing the depth their pictures store
// (shaders/impostor_lit.glsl).
#define AMBIENT_APART
#include "impostor_lit.glsl"
