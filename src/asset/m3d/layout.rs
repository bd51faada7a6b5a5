//! The fewest bytes each kind of record can take. A count read from the file is checked
//! against these before anything is allocated for it, so a header that promises four billion
//! vertices in a 100-byte file is an error, not a 288 GB allocation.
//!
//! A record's minimum is its keywords at their own length, every value at one character, and
//! one separator between tokens. Records of a section are themselves separated by whitespace,
//! so `count * min` never exceeds the real size of `count` records.

/// Bytes of a record made of `keywords` and `values` one-character values.
const fn min_bytes(keywords: &[&str], values: usize) -> usize {
    let mut bytes = 0;
    let mut i = 0;
    while i < keywords.len() {
        bytes += keywords[i].len();
        i += 1;
    }
    let tokens = keywords.len() + values;
    bytes + values + tokens - 1
}

/// A material of the DX12 layout (the shorter of the two).
pub(super) const MATERIAL: usize = min_bytes(
    &[
        "Name:",
        "Diffuse:",
        "Fresnel0:",
        "Roughness:",
        "AlphaClip:",
        "MaterialTypeName:",
        "DiffuseMap:",
        "NormalMap:",
    ],
    12,
);

/// A subset-table line.
pub(super) const SUBSET: usize = min_bytes(
    &[
        "SubsetID:",
        "VertexStart:",
        "VertexCount:",
        "FaceStart:",
        "FaceCount:",
    ],
    5,
);

/// A vertex of a static model.
pub(super) const STATIC_VERTEX: usize =
    min_bytes(&["Position:", "Tangent:", "Normal:", "Tex-Coords:"], 12);

/// A vertex of a skinned model.
pub(super) const SKINNED_VERTEX: usize = min_bytes(
    &[
        "Position:",
        "Tangent:",
        "Normal:",
        "Tex-Coords:",
        "BlendWeights:",
        "BlendIndices:",
    ],
    20,
);

/// A triangle: three indices.
pub(super) const TRIANGLE: usize = min_bytes(&[], 3);

/// A bone offset: `BoneOffsetK` and 16 numbers.
pub(super) const BONE_OFFSET: usize = min_bytes(&["BoneOffset0"], 16);

/// A hierarchy line: `ParentIndexOfBoneK: p`.
pub(super) const PARENT: usize = min_bytes(&["ParentIndexOfBone0:"], 1);

/// A clip without its bone blocks: `AnimationClip name { }`.
pub(super) const CLIP: usize = min_bytes(&["AnimationClip", "{", "}"], 1);

/// A bone block without keys: `BoneK #Keyframes: 0 { }`.
pub(super) const BONE_BLOCK: usize = min_bytes(&["Bone0", "#Keyframes:", "{", "}"], 1);

/// A keyframe: `Time: t Pos: x y z Scale: x y z Quat: x y z w`.
pub(super) const KEYFRAME: usize = min_bytes(&["Time:", "Pos:", "Scale:", "Quat:"], 11);

/// A clip with one block per bone (saturating: a huge product is simply too large).
pub(super) fn clip(bones: usize) -> usize {
    bones.saturating_mul(BONE_BLOCK + 1).saturating_add(CLIP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimums_are_the_shortest_real_records() {
        assert_eq!(TRIANGLE, "0 0 0".len());
        assert_eq!(PARENT, "ParentIndexOfBone0: 0".len());
        assert_eq!(
            KEYFRAME,
            "Time: 0 Pos: 0 0 0 Scale: 0 0 0 Quat: 0 0 0 0".len()
        );
        assert_eq!(
            STATIC_VERTEX,
            "Position: 0 0 0 Tangent: 0 0 0 0 Normal: 0 0 0 Tex-Coords: 0 0".len()
        );
        assert_eq!(
            SUBSET,
            "SubsetID: 0 VertexStart: 0 VertexCount: 0 FaceStart: 0 FaceCount: 0".len()
        );
        assert_eq!(
            clip(2),
            "AnimationClip a { Bone0 #Keyframes: 0 { } Bone1 #Keyframes: 0 { } }".len()
        );
        assert_eq!(clip(usize::MAX), usize::MAX);
    }
}
