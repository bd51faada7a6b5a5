#version 460
// Screen-space ambient occlusion from the prepass's depth and view-space normals.
//
// A compute pass rather than a fullscreen triangle: it writes one value per pixel with no
// rasterization, blending or attachment to set up, and on lavapipe and real GPUs alike compute
// dispatches run this kind of per-pixel arithmetic faster than fragment shading does.
//
// It runs at the render size over AO_SCALE, which is 2 (each AO texel covers 2x2 pixels, read
// from the top-left one): occlusion is low-frequency, the blur smooths the rest, and the
// forward pass samples it bilinearly, so a quarter of the work costs little visibly.
//
// For each texel: rebuild its view-space position, orient the SSAO_KERNEL (16) hemisphere
// samples around its normal (rotated per pixel by a tiled 4x4 noise texture, so the banding
// of a fixed kernel turns into noise the blur removes), and count the samples that lie behind
// the depth buffer, each weighted down when the occluder is far outside the radius.
#define FRAME_BINDING COMPUTE_FRAME // the compute layout's binding of the frame uniforms
#include "frame.glsl"

layout(local_size_x = SSAO_GROUP, local_size_y = SSAO_GROUP) in;

layout(set = 0, binding = COMPUTE_DEPTH) uniform sampler2D depth_map;
layout(set = 0, binding = COMPUTE_INPUT) uniform sampler2D normal_map;
layout(set = 0, binding = COMPUTE_NOISE) uniform sampler2D noise_map;
layout(set = 0, binding = COMPUTE_OUTPUT, r32f) uniform writeonly image2D ao_out;

vec3 view_position(vec2 uv, float depth) {
    vec4 v = frame.inv_proj * vec4(uv * 2.0 - 1.0, depth, 1.0);
    return v.xyz / v.w;
}

void main() {
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(ao_out);
    if (texel.x >= size.x || texel.y >= size.y) {
        return;
    }
    ivec2 pixel = min(texel * AO_SCALE, ivec2(frame.target.xy) - 1);
    float depth = texelFetch(depth_map, pixel, 0).r;
    if (depth >= 1.0) {
        imageStore(ao_out, texel, vec4(1.0)); // sky
        return;
    }
    vec2 uv = (vec2(pixel) + 0.5) * frame.target.zw;
    vec3 p = view_position(uv, depth);
    vec3 n = normalize(texelFetch(normal_map, pixel, 0).xyz);
    vec3 r = texelFetch(noise_map, texel & 3, 0).xyz * 2.0 - 1.0;
    vec3 t = normalize(r - n * dot(r, n));
    vec3 b = cross(n, t);
    mat3 tbn = mat3(t, b, n);
    float radius = frame.ssao.y;
    float bias = frame.ssao.z;
    float occlusion = 0.0;
    for (int i = 0; i < SSAO_KERNEL; ++i) {
        vec3 s = p + tbn * frame.ssao_kernel[i].xyz * radius;
        vec4 clip = frame.proj * vec4(s, 1.0);
        vec2 suv = clip.xy / clip.w * 0.5 + 0.5;
        if (any(lessThan(suv, vec2(0.0))) || any(greaterThan(suv, vec2(1.0)))) {
            continue;
        }
        float scene_z = view_z_of_depth(textureLod(depth_map, suv, 0.0).r);
        // View space looks down -Z: a larger z is nearer the eye.
        float in_range = smoothstep(0.0, 1.0, radius / max(abs(p.z - scene_z), 1e-4));
        occlusion += (scene_z >= s.z + bias ? 1.0 : 0.0) * in_range;
    }
    float visibility = pow(1.0 - occlusion / float(SSAO_KERNEL), frame.ssao.w);
    imageStore(ao_out, texel, vec4(visibility));
}
