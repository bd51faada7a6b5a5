#version 460
// The camera's depth with the ground drawn in compute, from the unresolved depth
// (shaders/camera_depth.glsl).
#define MULTISAMPLED
#include "camera_depth.glsl"
