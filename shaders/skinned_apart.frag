#version 460
// The skinned forward pass without a prepass: sun, sky and normal apart
// (shaders/skinned_lit.glsl, shaders/camera_out.glsl).
#define AMBIENT_APART
#include "skinned_lit.glsl"
