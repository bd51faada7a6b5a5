#version 460
// The ground and the sky added in place to what the lit passes drew (one sample), leaving out
// the pixels the compute passes' surfaces claim (shaders/ground.glsl, VISIBILITY).
#define VISIBILITY
#include "ground.glsl"
