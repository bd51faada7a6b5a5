#version 460
// The camera's depth with the ground drawn in compute (shaders/camera_depth.glsl).
#include "camera_depth.glsl"
