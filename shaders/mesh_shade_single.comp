#version 460
// The mesh raster's pixels lit and merged, over single-sample meshes (shaders/mesh_shade.glsl).
#define SINGLE_SAMPLE
#include "mesh_shade.glsl"
