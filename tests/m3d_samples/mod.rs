//! Small `.m3d` files written for throng's tests (the fuzz seeds are made of the same kinds of
//! file): a skinned one in the DX12 layout and a static one in the DX11 layout. Both are ours;
//! the third-party models stay in `../shared/assets`.
#![allow(dead_code)]

/// Three bones stacked along +Y (`bone1` at y = 1, `bone2` at y = 2), four vertices, two
/// triangles in two subsets, and one clip `wave` of 1 s in which bone 0 rises by 0.5, bone 1
/// turns 90 degrees about Z (three keys) and bone 2 has no keys (it holds its bind pose).
pub const SKINNED: &str = "\
***************m3d-File-Header***************
#Materials 2
#Vertices 4
#Triangles 2
#Bones 3
#AnimationClips 1

***************Materials*********************
Name: skin
Diffuse: 0.9 0.7 0.6
Fresnel0: 0.02 0.02 0.02
Roughness: 0.6
AlphaClip: 0
MaterialTypeName: Skinned
DiffuseMap: skin_diff.png
NormalMap: shared_norm.dds

Name: cloth
Diffuse: 0.2 0.3 0.8
Fresnel0: 0.04 0.04 0.04
Roughness: 0.9
AlphaClip: 1
MaterialTypeName: Skinned
DiffuseMap: cloth_diff.png
NormalMap: shared_norm.dds

***************SubsetTable*******************
SubsetID: 0 VertexStart: 0 VertexCount: 3 FaceStart: 0 FaceCount: 1
SubsetID: 1 VertexStart: 1 VertexCount: 3 FaceStart: 1 FaceCount: 1

***************Vertices**********************
Position: 0 0 0
Tangent: 1 0 0 1
Normal: 0 0 1
Tex-Coords: 0 1
BlendWeights: 1 0 0 0
BlendIndices: 0 0 0 0

Position: 1 1 0
Tangent: 1 0 0 1
Normal: 0 0 1
Tex-Coords: 1 0.5
BlendWeights: 0.5 0.5 0 0
BlendIndices: 0 1 0 0

Position: 0 2 0
Tangent: 1 0 0 1
Normal: 0 0 1
Tex-Coords: 0 0
BlendWeights: 0.25 0.25 0.5 0
BlendIndices: 0 1 2 0

Position: 1 3 0
Tangent: 1 0 0 -1
Normal: 0 0 1
Tex-Coords: 1 0
BlendWeights: 1 0 0 0
BlendIndices: 2 0 0 0

***************Triangles*********************
0 1 2
1 3 2

***************BoneOffsets*******************
BoneOffset0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
BoneOffset1 1 0 0 0 0 1 0 0 0 0 1 0 0 -1 0 1
BoneOffset2 1 0 0 0 0 1 0 0 0 0 1 0 0 -2 0 1

***************BoneHierarchy*****************
ParentIndexOfBone0: -1
ParentIndexOfBone1: 0
ParentIndexOfBone2: 1

***************AnimationClips****************
AnimationClip wave
{
\tBone0 #Keyframes: 2
\t{
\t\tTime: 0 Pos: 0 0 0 Scale: 1 1 1 Quat: 0 0 0 1
\t\tTime: 1 Pos: 0 0.5 0 Scale: 1 1 1 Quat: 0 0 0 1
\t}
\tBone1 #Keyframes: 3
\t{
\t\tTime: 0 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0 1
\t\tTime: 0.5 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0.3826834 0.9238795
\t\tTime: 1 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0.7071068 0.7071068
\t}
\tBone2 #Keyframes: 0
\t{
\t}
}
";

/// One triangle, no bones, the DX11 material layout, and no bone or clip sections at all (as
/// real static files end).
pub const STATIC: &str = "\
***************m3d-File-Header***************
#Materials 1
#Vertices 3
#Triangles 1
#Bones 0
#AnimationClips 0

***************Materials*********************
Ambient: 0.4 0.4 0.4
Diffuse: 0.9 0.8 0.7
Specular: 0.04 0.04 0.04
SpecPower: 16
Reflectivity: 0 0 0
AlphaClip: 0
Effect: Normal
DiffuseMap: stone.png
NormalMap: stone_nrm.dds

***************SubsetTable*******************
SubsetID: 0 VertexStart: 0 VertexCount: 3 FaceStart: 0 FaceCount: 1

***************Vertices**********************
Position: 0 0 0
Tangent: 1 0 0 1
Normal: 0 1 0
Tex-Coords: 0 0

Position: 1 0 0
Tangent: 1 0 0 1
Normal: 0 1 0
Tex-Coords: 1 0

Position: 0 0 1
Tangent: 1 0 0 1
Normal: 0 1 0
Tex-Coords: 0 1

***************Triangles*********************
0 2 1
";

/// `text` with `from` replaced by `to`; `from` must occur exactly once, so an edit that
/// misses (after the sample changes) fails loudly instead of testing nothing.
pub fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "'{from}' must occur once");
    text.replacen(from, to, 1)
}
