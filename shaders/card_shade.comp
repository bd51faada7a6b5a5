#version 460
// The camera's cards lit and merged, over multisampled meshes (shaders/card_shade.glsl).
#include "card_shade.glsl"
