#version 460
// `--tonemap`: a filmic tone curve over the lit frame (a post-process pass between the lit
// passes and the output). The scene colour is read linear (its sRGB encoding undone by the
// sampler), each channel mapped by a rational curve that keeps the mid-tones and rolls the
// highlights off, then written back sRGB-encoded.

layout(set = 0, binding = BINDING_DEBUG_SOURCE) uniform sampler2D source;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

// The curve x(ax + b) / (x(cx + d) + e), a fit of the ACES reference response, exposed at
// 0.72 so that mid-grey (0.18) stays mid-grey: the darks gain contrast and white rolls off to
// about 0.73.
vec3 filmic(vec3 x) {
    const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
    x *= 0.72;
    return clamp(x * (a * x + b) / (x * (c * x + d) + e), 0.0, 1.0);
}

void main() {
    vec4 c = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
    out_color = vec4(filmic(c.rgb), c.a);
}
