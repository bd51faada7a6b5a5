#version 460
// The output pass: the frame as the passes before it left it in the scene colour, copied
// texel for texel into the target, the one pass that writes the target (a post-process pass
// goes between the lit passes and this one without touching either).

layout(set = 0, binding = BINDING_DEBUG_SOURCE) uniform sampler2D source;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

void main() {
    out_color = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
}
