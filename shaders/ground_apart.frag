#version 460
// The ground without a prepass: sun, sky and normal apart (shaders/ground_lit.glsl).
#define AMBIENT_APART
#include "ground_lit.glsl"
