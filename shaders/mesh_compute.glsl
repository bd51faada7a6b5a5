// What the mesh compute passes share (src/gpu/features/lit/mesh_compute.rs,
// src/gpu/features/mesh_shadow.rs): the mesh raster (mesh_raster.comp) finds the pixels of the
// triangles of the camera's lists that shaders/cull_draws.comp planned for it (the coarser
// levels: characters small on screen, whose triangles cover a few pixels each), the mesh
// shading (mesh_shade.glsl) lights the triangle each pixel kept, and the sun's raster
// (mesh_shadow.comp) keeps the nearest depth of its lists' triangles in the shadow map's. Both name a triangle by its place in its model's raster dispatch:
// each list owns whole workgroups of RASTER_GROUP_TRIANGLES triangles from its skin table
// entry's first one, instance after instance, each instance's level triangles subset after
// subset. Vertices come from the skin pass where it skinned the list, else are skinned here
// with the vertex shaders' arithmetic.
#ifndef THRONG_MESH_COMPUTE_GLSL
#define THRONG_MESH_COMPUTE_GLSL

#extension GL_ARB_gpu_shader_int64 : require

#define SKIN_PASS
#include "mesh_words.glsl"
#include "frame.glsl"
#include "looks.glsl"
#include "renderer_layouts.glsl"

layout(push_constant) uniform Mesh {
#ifdef MESH_SHADE
    DRAW_MATERIAL_FIELDS // the subset's material, as the lit passes push it
#endif
    MESH_CONSTANTS_FIELDS // src/gpu/frame/device_layouts.rs
} mesh;

// The vertices the skin pass left (shaders/skin.comp).
layout(std430, set = 0, binding = BINDING_SKINNED) readonly buffer Skinned {
    vec4 skinned[];
};

// The model's index buffer, as words.
layout(std430, set = 0, binding = BINDING_MESH_INDICES) readonly buffer MeshIndices {
    uint mesh_indices[];
};

// The culling inputs' draw ranges ([model][subset][level]: first index, index count, the
// subset's material index, unused), as shaders/cull.glsl reads them.
layout(std430, set = 0, binding = BINDING_DRAW_RANGES) readonly buffer DrawRanges {
    uvec4 draw_ranges[];
};

// A visibility-buffer key's low word names a mesh triangle when its top bit is set (a card's
// entry in the visible lists otherwise): the model in the next 7 bits, the triangle's place
// in its model's raster dispatch in the low 24.
const uint MESH_KEY = 0x80000000u;

uint mesh_key(uint model, uint place) {
    return MESH_KEY | (model << 24) | place;
}

// One list the mesh raster draws: its skin table entry, view and level.
struct MeshList {
    uint e;
    uint view;
    uint level;
    uint first;     // its first triangle's place in the model's dispatch
    uint triangles; // per instance
    uint count;     // triangles in all
};

// The list of model `model` whose workgroups hold `group` in the camera's raster dispatch
// (its early and late lists) or, for the `sun`, the sun's, if one does.
bool mesh_list_of_group(uint model, uint group, bool sun, out MeshList list) {
    for (uint i = 0u; i < (sun ? 1u : 2u); i++) {
        uint view = sun ? uint(VIEW_SHADOW)
                        : (i == 0u ? uint(VIEW_CAMERA) : uint(VIEW_CAMERA_LATE));
        for (uint level = 1u; level < uint(LOD_LEVELS); level++) {
            uint e = skin_entry(view, model, level);
            uint first_group = skin_table[e + 4u];
            uint n = skin_table[e + 3u];
            uint triangles = skin_table[e + 5u];
            if (first_group == SKIN_NONE || n == 0u || triangles == 0u || group < first_group) {
                continue;
            }
            uint count = n * triangles;
            if (group - first_group < (count + RASTER_GROUP_TRIANGLES - 1u) / RASTER_GROUP_TRIANGLES) {
                list = MeshList(e, view, level, first_group * RASTER_GROUP_TRIANGLES, triangles,
                                count);
                return true;
            }
        }
    }
    return false;
}

// One triangle of a list: the instance's record, visible slot, mesh share and look, and the
// triangle's subset, material and first index.
struct MeshTriangle {
    InstanceRecord r;
    uint k;        // the instance's place in its list
    float share;
    uint look;
    uint subset;
    uint material;
    uint first_index;
};

// Triangle `t` of `list` (t < list.count), for a model whose draw ranges start at
// `first_range` and which has `subsets` subsets. False past its level's ranges.
bool mesh_triangle(MeshList list, uint t, uint first_range, uint subsets, out MeshTriangle tri) {
    tri.k = t / list.triangles;
    uint j = t - tri.k * list.triangles;
    uint entry = visible[skin_table[list.e + 1u] + tri.k];
    tri.r = records[entry & VISIBLE_RECORD_MASK];
    tri.share = float(entry >> VISIBLE_SHARE_SHIFT) / 255.0;
    tri.look = record_look(tri.r);
    for (uint s = 0u; s < subsets; s++) {
        uvec4 range = draw_ranges[first_range + s * uint(LOD_LEVELS) + list.level];
        uint count = range.y / 3u;
        if (j < count) {
            tri.subset = s;
            tri.material = range.z;
            tri.first_index = range.x + 3u * j;
            return true;
        }
        j -= count;
    }
    return false;
}

// A corner of a triangle in the world: position, normal, tangent.
struct MeshCorner {
    vec3 world;
    vec3 normal;
    vec3 tangent;
};

// Where the skin pass left mesh vertex `v` of `tri`'s instance in `list`, or SKIN_NONE where it
// did not skin the list.
uint mesh_skinned_at(MeshList list, MeshTriangle tri, uint v) {
    uint base = skin_table[list.e];
    if (base == SKIN_NONE || tri.k >= skin_table[list.e + 6u]) {
        return SKIN_NONE;
    }
    uint local = skin_levels[skin_levels[list.level * 4u + 1u] + v];
    return base + (tri.k * level_vertex_count(list.level) + local) * skin_vec4s(list.view);
}

// Mesh vertex `v` of `tri`'s instance in `list`, in the world: as the skin pass left it, or
// skinned here where it did not skin the list.
MeshCorner mesh_corner(MeshList list, MeshTriangle tri, uint v) {
    uint at = mesh_skinned_at(list, tri, v);
    if (at != SKIN_NONE) {
        return MeshCorner(skinned[at].xyz, skinned[at + 1u].xyz, skinned[at + 2u].xyz);
    }
    uint w = v * VERTEX_WORDS;
    mat3x4 skin = vertex_skin(tri.r, v);
    return MeshCorner(skinned_world_position(tri.r, skin, word_vec3(w)),
                      skinned_world_direction(tri.r, skin, word_vec3(w + 3u)),
                      skinned_world_direction(tri.r, skin, word_vec3(w + 6u)));
}

// The position alone of mesh_corner (all the sun's list keeps).
vec3 mesh_corner_position(MeshList list, MeshTriangle tri, uint v) {
    uint at = mesh_skinned_at(list, tri, v);
    if (at != SKIN_NONE) {
        return skinned[at].xyz;
    }
    return skinned_world_position(tri.r, vertex_skin(tri.r, v), word_vec3(v * VERTEX_WORDS));
}

// A triangle's corners' positions in pixels (x, y) of a `size`-pixel target seen through
// `view_proj` and depth (z), and their clip w; false where a corner lies behind the eye (the
// raster leaves such a triangle out: the lists it draws are of characters small on screen,
// far in front of it).
bool mesh_screen(mat4 view_proj, vec3 world[3], vec2 size, out vec3 screen[3], out vec3 w) {
    for (int i = 0; i < 3; i++) {
        vec4 clip = view_proj * vec4(world[i], 1.0);
        if (clip.w <= 0.0) {
            return false;
        }
        w[i] = clip.w;
        vec3 ndc = clip.xyz / clip.w;
        screen[i] = vec3((ndc.xy * 0.5 + 0.5) * size, ndc.z);
    }
    return true;
}

// The screen-space barycentric weights of point `p` in triangle `s` whose doubled signed area
// (in the edge functions' sense) is `area`.
vec3 mesh_barycentric(vec3 s[3], vec2 p, float area) {
    float b0 = (s[1].x - p.x) * (s[2].y - p.y) - (s[2].x - p.x) * (s[1].y - p.y);
    float b1 = (s[2].x - p.x) * (s[0].y - p.y) - (s[0].x - p.x) * (s[2].y - p.y);
    float b2 = (s[0].x - p.x) * (s[1].y - p.y) - (s[1].x - p.x) * (s[0].y - p.y);
    return vec3(b0, b1, b2) / area;
}

// The doubled signed area the edge functions of mesh_barycentric sum to, in pixels.
float mesh_edge_area(vec3 s[3]) {
    return (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[2].x - s[0].x) * (s[1].y - s[0].y);
}

// Whether a triangle of doubled signed area `area` (mesh_edge_area) faces the eye: Vulkan
// takes the area with the opposite sign (framebuffer y points down) and calls it
// counter-clockwise where that is positive; `ccw_front` says which winding faces the eye.
bool mesh_front_facing(float area, bool ccw_front) {
    return (-area > 0.0) == ccw_front;
}

#endif
