#version 460
// The ground and the sky added while resolving the lit passes' samples, leaving out the
// samples the compute passes' surfaces claim (shaders/ground.glsl, VISIBILITY).
#define RESOLVE
#define VISIBILITY
#include "ground.glsl"
