#version 460
// The camera's depth with the ground and the cards drawn in compute, from the unresolved
// depth (shaders/camera_depth.glsl).
#define CARDS
#define MULTISAMPLED
#include "camera_depth.glsl"
