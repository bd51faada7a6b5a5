#version 460
// Impostor cards lit without a prepass, keeping the card's own depth
// (shaders/impostor_lit.glsl).
#define AMBIENT_APART
#define CARD_PLANE_DEPTH
#include "impostor_lit.glsl"
