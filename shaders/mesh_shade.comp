#version 460
// The mesh raster's pixels lit and merged, over multisampled meshes (shaders/mesh_shade.glsl).
#include "mesh_shade.glsl"
