// The ground quad where a camera ray meets it, for the compute passes that draw the ground
// and test depth against it without rasterizing it (ground.comp, card_shade.glsl,
// camera_depth.comp): the quad of shaders/ground.vert, on the plane y = frame.ground_plane.w.
#ifndef THRONG_GROUND_RAY_GLSL
#define THRONG_GROUND_RAY_GLSL

#include "frame.glsl"

// The direction (not of unit length) of the camera's ray through `ndc`, in the world. The
// inverse projection's w does not depend on x and y at a fixed depth, so the direction is
// affine in `ndc`: one pixel across adds `ray_step(0)`, one down `ray_step(1)`. The view
// transform is rigid, so its inverse rotation is its transpose.
vec3 ray_dir(vec2 ndc) {
    vec4 far_point = frame.inv_proj * vec4(ndc, 1.0, 1.0);
    return transpose(mat3(frame.view)) * (far_point.xyz / far_point.w);
}

// What one pixel along axis `axis` (0 across, 1 down) adds to `ray_dir`.
vec3 ray_step(int axis) {
    float w = (frame.inv_proj * vec4(0.0, 0.0, 1.0, 1.0)).w;
    return transpose(mat3(frame.view)) * (frame.inv_proj[axis].xyz / w)
        * (2.0 * frame.target[2 + axis]);
}

// Where the camera's ray along `dir` meets the ground's plane: false where it meets it
// behind the eye or not at all.
bool ground_plane_point_along(vec3 dir, out vec3 world) {
    vec3 eye = frame.camera_pos.xyz;
    float t = dir.y != 0.0 ? (frame.ground_plane.w - eye.y) / dir.y : -1.0;
    world = eye + max(t, 0.0) * dir;
    return t > 0.0;
}

// Where the camera's ray through `ndc` meets the ground's plane (as above).
bool ground_plane_point(vec2 ndc, out vec3 world) {
    return ground_plane_point_along(ray_dir(ndc), world);
}

// The depth-buffer value of `world`.
float ground_depth_of(vec3 world) {
    vec4 clip = frame.view_proj * vec4(world, 1.0);
    return clip.z / clip.w;
}

// Where the camera's ray through `ndc` meets the ground quad before the far plane (which
// clips the rasterized quad): false where it misses it.
bool ground_quad_point(vec2 ndc, out vec3 world) {
    return ground_plane_point(ndc, world)
        && all(lessThanEqual(abs(world.xz - frame.ground_plane.xy), vec2(frame.ground_plane.z)))
        && ground_depth_of(world) <= 1.0;
}

// The depth-buffer value of the ground seen through `ndc` (1, the far plane, where the ray
// misses the quad).
float ground_depth_at(vec2 ndc) {
    vec3 world;
    if (!ground_quad_point(ndc, world)) {
        return 1.0;
    }
    return clamp(ground_depth_of(world), 0.0, 1.0);
}

#endif
