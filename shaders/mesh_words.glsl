// A model's vertices read as words (crate::anim::Vertex, VERTEX_WORDS each) by the compute
// passes that skin them (shaders/skin.comp) or find their triangles' pixels
// (shaders/mesh_compute.glsl), with the blend of an instance's palette matrices a vertex's
// joints weigh in (skinning.glsl's arithmetic, so the vertex lands where the vertex shaders
// put it).
#ifndef THRONG_MESH_WORDS_GLSL
#define THRONG_MESH_WORDS_GLSL

#include "skinning.glsl"

layout(std430, set = 0, binding = BINDING_MESH_VERTICES) readonly buffer MeshVertices {
    uint mesh_words[];
};

vec3 word_vec3(uint at) {
    return uintBitsToFloat(uvec3(mesh_words[at], mesh_words[at + 1u], mesh_words[at + 2u]));
}

// Mesh vertex `v`'s skinning matrix for instance `r`: its four joints (two u16 pairs) and
// weights.
mat3x4 vertex_skin(InstanceRecord r, uint v) {
    uint w = v * VERTEX_WORDS;
    uvec2 joint_pairs = uvec2(mesh_words[w + 12u], mesh_words[w + 13u]);
    uvec4 joints = uvec4(joint_pairs.x & 0xffffu, joint_pairs.x >> 16,
                         joint_pairs.y & 0xffffu, joint_pairs.y >> 16);
    vec4 weights = uintBitsToFloat(uvec4(mesh_words[w + 14u], mesh_words[w + 15u],
                                         mesh_words[w + 16u], mesh_words[w + 17u]));
    return skin_matrix(r, joints, weights);
}

#endif
