// The ground as the fragment shaders draw it (shaders/ground_shading.glsl), lit, after a
// depth/normal prepass or writing the light apart. Compiled as ground.frag (after a prepass)
// and ground_apart.frag (AMBIENT_APART: camera_out.glsl).
#ifndef THRONG_GROUND_LIT_GLSL
#define THRONG_GROUND_LIT_GLSL

#include "camera_out.glsl"
#include "ground_shading.glsl"

layout(location = 0) in vec3 in_world;

void main() {
    vec2 uv = in_world.xz / frame.ground_tile.x;
    // The footprint of the pixel on the ground, in tiles, along each ground axis.
    vec2 footprint = abs(dFdx(uv)) + abs(dFdy(uv));
    write_lit(ground_light(in_world, footprint), vec3(0.0, 1.0, 0.0));
}

#endif
