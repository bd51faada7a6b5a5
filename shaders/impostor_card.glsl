// Impostor cards (src/gpu/features/impostors/cards.rs): a character too short on screen to need its
// mesh is one quad showing the picture of its model's atlas (src/gpu/features/impostors) taken from
// the direction nearest the viewer's, at the frame of its clip nearest its phase. The quad
// lies in that picture's plane through the centre of the sphere every pose fits in, placed
// by the instance's transform, so a card stands where the mesh would and turns with it. Each
// texel stores the surface's colour, its normal in the picture's frame, its roughness and how
// far in front of or behind the plane it is: the fragment shaders put the depth back (cards meet the
// ground, meshes and each other where the meshes would) and light the normal like a mesh's.
//
// Drawn from the camera (the prepass and the forward pass) or from the sun (the shadow map:
// the picture nearest the sun's direction, so a card's shadow has its character's shape).
#ifndef THRONG_IMPOSTOR_CARD_GLSL
#define THRONG_IMPOSTOR_CARD_GLSL

#include "record.glsl"
#include "impostor.glsl"
#include "frame.glsl"

layout(std430, set = 0, binding = BINDING_RECORDS) readonly buffer Records {
    InstanceRecord records[];
};

// The cards of a draw, written by the culling pass: firstInstance starts the view's card list.
layout(std430, set = 0, binding = BINDING_VISIBLE) readonly buffer Visible {
    uint visible[];
};

// The model's atlas: every picture's camera, colour with coverage, normal with depth. The
// bindings after the graphics layout's own (src/gpu/frame/shader_interface.rs).
layout(std430, set = 0, binding = 10) readonly buffer CardViews {
    ImpostorView card_views[];
};
layout(set = 0, binding = 11) uniform sampler2D card_color;
layout(set = 0, binding = 12) uniform sampler2D card_normal_depth;

// Per model drawn (`CardConstants` in src/gpu/features/impostors/cards.rs).
layout(push_constant) uniform Card {
    CARD_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs, CardConstants
#ifdef CARD_COMPUTE
    uvec4 draw;      // the compute passes' own (`CardDispatch` in src/gpu/features/impostors/card_compute.rs)
#endif
} card;

// What the vertex stage hands the fragment stages: where on the card (world space), the
// atlas uv, and the picture's frame in world space (right, up, towards: unit vectors; w of
// towards: world units from the plane to the sphere's surface).
struct CardVarying {
    vec3 world;
    vec2 uv;
    vec3 right;
    vec3 up;
    vec4 towards;
};

bool card_from_sun() {
    return card.cell.z > 0.5;
}

// The picture nearest the direction `d` (model space, from the sphere's centre towards the
// viewer): the ring of the nearest elevation, the nearest direction on it (as
// AtlasLayout::nearest_view in src/gpu/features/impostors/layout.rs).
uint nearest_picture(vec3 d) {
    float elevation = asin(clamp(d.y, -1.0, 1.0));
    uint ring = 0u;
    float best = 1e9;
    for (uint k = 0u; k < card.grid.y; k++) {
        float e = asin(clamp(card_views[k * card.grid.x].towards.y, -1.0, 1.0));
        if (abs(e - elevation) < best) {
            best = abs(e - elevation);
            ring = k;
        }
    }
    float step = 6.28318531 / float(card.grid.x);
    float azimuth = atan(d.x, d.z);
    if (azimuth < 0.0) {
        azimuth += 6.28318531;
    }
    uint around = uint(round(azimuth / step)) % card.grid.x;
    return ring * card.grid.x + around;
}

// Which picture of its model's atlas an instance's card shows: its transform, the direction
// nearest the viewer's (the camera's, or the sun's) and the atlas row of the frame of its clip
// nearest its phase.
struct CardPicture {
    mat3x4 m;
    uint picture;
    uint row;
};

CardPicture card_picture(InstanceRecord r) {
    CardPicture p;
    p.m = world_matrix(r);
    mat3x4 m = p.m;
    ImpostorView any_view = card_views[0];
    vec3 centre = transform_point(m, any_view.centre.xyz);
    vec3 to_viewer = card_from_sun() ? frame.light_dir.xyz : frame.camera_pos.xyz - centre;
    // Into model space: the transpose of the transform's linear part (a rotation with a
    // uniform scale, perhaps mirrored) turns directions back up to that scale.
    vec3 d = to_viewer.x * m[0].xyz + to_viewer.y * m[1].xyz + to_viewer.z * m[2].xyz;
    p.picture = nearest_picture(normalize(d));

    uint clips = max(card.grid.w, 1u);
    uint clip = min(r.bounds & 0xffffu, clips - 1u);
    float phase = float(r.joints >> RECORD_PHASE_SHIFT) / 65535.0;
    uint frames = max(card.grid.z, 1u);
    uint frame_index = uint(round(phase * float(frames))) % frames;
    p.row = clip * frames + frame_index;
    return p;
}

// The card of `p` at quad coordinates `st` (each -1 to 1; (1, 1) is its top right) as the
// rasterizer hands it to a fragment: the world point, the atlas uv, and the picture's frame.
CardVarying card_point(CardPicture p, vec2 st) {
    mat3x4 m = p.m;
    ImpostorView v = card_views[p.picture];
    float radius = v.centre.w;
    vec3 corner = v.centre.xyz + (st.x * v.right.xyz + st.y * v.up.xyz) * radius;

    CardVarying o;
    o.world = transform_point(m, corner);
    // The picture's top row is its up side (Vulkan's y points down in the cell's camera).
    vec2 in_cell = vec2(0.5 + 0.5 * st.x, 0.5 - 0.5 * st.y);
    o.uv = (vec2(float(p.picture), float(p.row)) + in_cell) * card.cell.xy;
    vec3 right = transform_direction(m, v.right.xyz);
    vec3 towards = transform_direction(m, v.towards.xyz);
    o.right = normalize(right);
    o.up = normalize(transform_direction(m, v.up.xyz));
    // The sphere's radius in world units (the transform's scale is its columns' length).
    o.towards = vec4(normalize(towards), radius * length(right));
    return o;
}

// The card corner `vertex` (0 to 3: a triangle strip; a card pass's cost follows the vertices
// it shades, and a strip shades four where two separate triangles shade six) of `r`, drawn
// from the camera or the sun.
CardVarying card_corner(InstanceRecord r, uint vertex, out vec4 clip_position) {
    // Corners (s, t) in {-1, 1} in strip order: two counter-clockwise triangles.
    const vec2 corners[4] = vec2[](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0),
                                   vec2(1.0, 1.0));
    CardVarying o = card_point(card_picture(r), corners[vertex % 4u]);
    mat4 view_proj = card_from_sun() ? frame.light_view_proj : frame.view_proj;
    clip_position = view_proj * vec4(o.world, 1.0);
    if (card.cell.w > 0.5) {
        // The fragments write the depth of the surface the picture stores, up to a radius in
        // front of the quad, and declare it never nearer than what is rasterized
        // (depth_greater, impostor_in.glsl): rasterized at the depth of the quad moved
        // towards the viewer by more than that radius (the margin covers the depth's
        // interpolation across a quad whose depth it does not exactly follow), the GPU can
        // drop a card's fragments behind what is already drawn before shading them. Only the
        // depth moves: where on screen the quad lands, and so its picture, do not.
        vec4 front = view_proj * vec4(o.world + o.towards.xyz * (1.5 * o.towards.w), 1.0);
        clip_position.z = max(front.z / front.w, 0.0) * clip_position.w;
    }
    return o;
}

// The depth-buffer value of `world` through `view_proj`. Every card pipeline computes it
// alike from the same inputs, so the forward pass's EQUAL test finds the prepass's value.
float card_depth(mat4 view_proj, vec3 world) {
    precise vec4 clip = view_proj * vec4(world, 1.0);
    precise float depth = clip.z / clip.w;
    return clamp(depth, 0.0, 1.0);
}

#endif
