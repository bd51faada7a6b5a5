#version 460
// Impostor cards' depth and normals, the card's own depth
// (shaders/impostor_depth_normal.glsl).
#define CARD_PLANE_DEPTH
#include "impostor_depth_normal.glsl"
