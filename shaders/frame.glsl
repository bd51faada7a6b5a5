// The per-frame uniform block, shared by every pass (graphics and compute) but the culling
// ones. Keep in step with src/gpu/frame_data.rs (FrameData).
#ifndef THRONG_FRAME_GLSL
#define THRONG_FRAME_GLSL

// The graphics layout's binding, unless the includer names its own layout's (the compute
// passes define FRAME_BINDING as COMPUTE_FRAME first).
#ifndef FRAME_BINDING
#define FRAME_BINDING BINDING_FRAME
#endif

// Per frame.
layout(std140, set = 0, binding = FRAME_BINDING) uniform Frame {
    mat4 view_proj;      // world -> Vulkan clip space
    mat4 view;           // world -> view space (right-handed, looking down -Z)
    mat4 proj;           // view -> clip
    mat4 inv_proj;       // clip -> view
    mat4 light_view_proj; // world -> the shadow map's clip space
    vec4 light_dir;      // xyz: unit vector towards the light
    vec4 light_color;    // rgb: colour times intensity
    vec4 sky_color;      // hemisphere ambient from above
    vec4 ground_color;   // hemisphere ambient from below
    vec4 camera_pos;     // xyz: eye in world space
    vec4 ground_plane;   // xy: centre (world x, z), z: half size, w: height
    vec4 ground_tile;    // x: checker tile size (scaled to the characters)
    vec4 target;         // xy: render size in pixels, zw: 1 / size
    vec4 shadow;         // x: shadows on (0/1), y: one shadow-map texel in uv, z: normal
                         // offset (world units), w: shadow strength
    vec4 ssao;           // x: AO on (0/1), y: radius (world units), z: bias, w: power
    uvec4 view_mode;     // x: VIEW_MODE_* (src/gpu/shader_interface.rs)
    vec4 ssao_kernel[SSAO_KERNEL]; // hemisphere samples (z up), denser near the centre
} frame;

// View-space z (negative in front of the eye) of a depth-buffer value, for the perspective
// projection in `frame.proj`: clip z = A z + B and clip w = -z, so depth = -(A z + B) / z.
float view_z_of_depth(float depth) {
    return -frame.proj[3][2] / (depth + frame.proj[2][2]);
}

// The centre of pixel `pixel` of a `size`-pixel target in normalized device coordinates
// (Vulkan's: y down, the first row at -1). One function for every compute pass that finds
// what a pixel sees: the card passes solve the same point for the same pixel in each.
vec2 pixel_ndc(ivec2 pixel, vec2 size) {
    return (vec2(pixel) + 0.5) / size * 2.0 - 1.0;
}

#endif
