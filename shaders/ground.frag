#version 460
// The ground after a depth/normal prepass (shaders/ground_lit.glsl).
#include "ground_lit.glsl"
