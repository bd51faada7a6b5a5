#version 460
// The ground and the sky added while resolving the lit passes' samples (shaders/ground.glsl).
#define RESOLVE
#include "ground.glsl"
