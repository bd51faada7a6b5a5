#version 460
// Impostor cards lit, keeping the card's own depth (shaders/impostor_lit.glsl).
#define CARD_PLANE_DEPTH
#include "impostor_lit.glsl"
