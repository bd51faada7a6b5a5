#version 460
// The skinned forward pass after a depth/normal prepass (shaders/skinned_lit.glsl).
#include "skinned_lit.glsl"
