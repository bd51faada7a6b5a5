// What the compute passes that draw impostor cards share (src/gpu/features/impostors/card_compute.rs):
// the culling pass's card commands (how many cards each model and view has, where its list
// starts) and where a card's quad meets a pixel. A card is the quad of shaders/
// impostor_card.glsl; instead of rasterizing it, these passes ask, for a point on screen,
// which quad coordinates (s, t) project there, which is what the rasterizer's perspective-
// correct interpolation hands a fragment at that point.
#ifndef THRONG_CARD_COMPUTE_GLSL
#define THRONG_CARD_COMPUTE_GLSL

#define CARD_COMPUTE
#include "card_surface.glsl"

#include "renderer_layouts.glsl"

layout(std430, set = 0, binding = 16) readonly buffer CardCommands {
    CardCommand card_commands[];
};

// `card.draw.x` and `.y` of the shading pass name no command when they hold this; its
// `card.draw.z` is the samples per pixel, its `.w` 1 where the ground pass draws the ground.
const uint NO_COMMAND = 0xffffffffu;

// A card's quad in clip space: its centre and its half axes (right and up times the
// sphere's radius), so the point at quad coordinates (s, t) is centre + s right + t up.
struct CardClip {
    vec4 centre;
    vec4 right;
    vec4 up;
};

// A card's quad, worked out once per card: in clip space, and what card_point hands a pixel
// at its centre with what one unit of s or t adds to its world point and atlas uv (both are
// affine in (s, t); the picture's frame is the same all over it).
struct CardQuad {
    CardClip clip;
    CardVarying centre;
    vec3 world_s;
    vec3 world_t;
    vec2 uv_s;
    vec2 uv_t;
};

CardQuad card_quad(CardPicture p, mat4 view_proj) {
    ImpostorView v = card_views[p.picture];
    float radius = v.centre.w;
    CardQuad q;
    q.centre = card_point(p, vec2(0.0));
    q.world_s = transform_direction(p.m, v.right.xyz * radius);
    q.world_t = transform_direction(p.m, v.up.xyz * radius);
    q.clip.centre = view_proj * vec4(q.centre.world, 1.0);
    q.clip.right = view_proj * vec4(q.world_s, 0.0);
    q.clip.up = view_proj * vec4(q.world_t, 0.0);
    // The picture's top row is its up side: up the quad is up the atlas, towards smaller v.
    q.uv_s = vec2(0.5, 0.0) * card.cell.xy;
    q.uv_t = vec2(0.0, -0.5) * card.cell.xy;
    return q;
}

// card_point of the quad at `st`, from its centre.
CardVarying card_quad_point(CardQuad q, vec2 st) {
    CardVarying o = q.centre;
    o.world += st.x * q.world_s + st.y * q.world_t;
    o.uv += st.x * q.uv_s + st.y * q.uv_t;
    return o;
}

// The quad coordinates that project to `ndc` (x and y of normalized device coordinates):
// x/w and y/w of the quad's point equal ndc's, two equations linear in s and t. False where
// the quad is seen edge-on or the point lies outside it.
bool card_st_at(CardClip c, vec2 ndc, out vec2 st) {
    float a1 = c.right.x - ndc.x * c.right.w;
    float b1 = c.up.x - ndc.x * c.up.w;
    float r1 = ndc.x * c.centre.w - c.centre.x;
    float a2 = c.right.y - ndc.y * c.right.w;
    float b2 = c.up.y - ndc.y * c.up.w;
    float r2 = ndc.y * c.centre.w - c.centre.y;
    float det = a1 * b2 - a2 * b1;
    if (abs(det) < 1e-12) {
        st = vec2(0.0);
        return false;
    }
    st = vec2(r1 * b2 - r2 * b1, a1 * r2 - a2 * r1) / det;
    return all(lessThanEqual(abs(st), vec2(1.0)));
}

// The instance behind entry `index` of the visible lists: its record, its share of the
// pixels kept by its mesh while it crosses over (dither.glsl) and its look.
InstanceRecord card_record(uint index, out float share, out uint look) {
    uint entry = visible[index];
    InstanceRecord r = records[entry & VISIBLE_RECORD_MASK];
    share = float(entry >> VISIBLE_SHARE_SHIFT) / 255.0;
    look = record_look(r);
    return r;
}

#endif
