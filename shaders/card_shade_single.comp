#version 460
// The camera's cards lit and merged, over single-sample meshes (shaders/card_shade.glsl).
#define SINGLE_SAMPLE
#include "card_shade.glsl"
