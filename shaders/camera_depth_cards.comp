#version 460
// The camera's depth with the ground and the cards drawn in compute
// (shaders/camera_depth.glsl).
#define CARDS
#include "camera_depth.glsl"
