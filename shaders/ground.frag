#version 460
// The ground's colour: a soft checkerboard of tiles about half a character tall (so scale
// and motion read at a glance, whatever units the model uses), lit like the characters, fading out towards the quad's edge.
#include "common.glsl"
#include "lighting.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;

void main() {
    vec2 cell = floor(in_world.xz / frame.ground_tile.x);
    float checker = mod(cell.x + cell.y, 2.0);
    vec3 albedo = mix(vec3(0.32, 0.33, 0.30), vec3(0.40, 0.41, 0.38), checker);
    vec3 lit = shade(albedo, vec3(0.0, 1.0, 0.0), in_world, 0.9, vec3(0.04));
    float r = length(in_world.xz - frame.ground_plane.xy) / frame.ground_plane.z;
    vec3 horizon = frame.sky_color.rgb * 0.6;
    out_color = vec4(mix(lit, horizon, smoothstep(0.7, 1.0, r)), 1.0);
}
