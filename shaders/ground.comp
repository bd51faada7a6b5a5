#version 460
// The ground and the sky added in place to what the lit passes resolved (shaders/ground.glsl).
#include "ground.glsl"
