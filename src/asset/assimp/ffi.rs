//! The part of Assimp's C API the loader uses, declared here against the system's
//! `libassimp` (Debian's 5.2.5: single-precision `ai_real`, bones with their armature
//! pointers). A bindings crate would generate all of it at build time with bindgen, which
//! pulls libclang and about a hundred crates of HTTP client and TLS (for prebuilt downloads
//! this build never makes) into every cold build.
//!
//! Structures the loader only reaches through pointers (scene, node, mesh, bone, animation,
//! channel) declare their fields up to the last one it reads: nothing here ever makes or
//! copies one, or steps through an array of them. Those it reads in arrays (faces, weights,
//! keys, vectors) and those it fills (strings, colours) are declared whole. Field names are
//! Assimp's, so the conversion code reads like its documentation. `ffi_check` (a unit test)
//! compiles a C program against the installed headers and checks every size, offset and
//! constant here against the C compiler's.

#![allow(non_snake_case, non_camel_case_types)]

use std::os::raw::{c_char, c_double, c_float, c_int, c_uint};

/// `ai_real`: `float`, as `libassimp` is built without `ASSIMP_DOUBLE_PRECISION`.
pub type ai_real = c_float;

/// `MAXLEN`: an `aiString`'s buffer, terminating zero included.
pub const MAXLEN: usize = 1024;
/// `AI_MAX_NUMBER_OF_COLOR_SETS`.
pub const MAX_COLOR_SETS: usize = 8;
/// `AI_MAX_NUMBER_OF_TEXTURECOORDS`.
pub const MAX_TEXTURE_COORDS: usize = 8;

/// `aiPostProcessSteps` flags.
pub const PROCESS_CALC_TANGENT_SPACE: c_uint = 0x1;
pub const PROCESS_TRIANGULATE: c_uint = 0x8;
pub const PROCESS_GEN_SMOOTH_NORMALS: c_uint = 0x40;
pub const PROCESS_LIMIT_BONE_WEIGHTS: c_uint = 0x200;
pub const PROCESS_VALIDATE_DATA_STRUCTURE: c_uint = 0x400;
pub const PROCESS_SORT_BY_PTYPE: c_uint = 0x8000;
pub const PROCESS_FLIP_UVS: c_uint = 0x80_0000;
/// `aiPrimitiveType_TRIANGLE`, a bit of `aiMesh::mPrimitiveTypes`.
pub const PRIMITIVE_TRIANGLE: c_uint = 0x4;
/// `aiReturn_SUCCESS` (`aiReturn` is a C enum: an `int`).
pub const RETURN_SUCCESS: c_int = 0;

#[repr(C)]
pub struct aiString {
    pub length: u32,
    pub data: [c_char; MAXLEN],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct aiVector3D {
    pub x: ai_real,
    pub y: ai_real,
    pub z: ai_real,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct aiQuaternion {
    pub w: ai_real,
    pub x: ai_real,
    pub y: ai_real,
    pub z: ai_real,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct aiColor4D {
    pub r: ai_real,
    pub g: ai_real,
    pub b: ai_real,
    pub a: ai_real,
}

/// Row-major: `a1..a4` is the first row.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct aiMatrix4x4 {
    pub a1: ai_real,
    pub a2: ai_real,
    pub a3: ai_real,
    pub a4: ai_real,
    pub b1: ai_real,
    pub b2: ai_real,
    pub b3: ai_real,
    pub b4: ai_real,
    pub c1: ai_real,
    pub c2: ai_real,
    pub c3: ai_real,
    pub c4: ai_real,
    pub d1: ai_real,
    pub d2: ai_real,
    pub d3: ai_real,
    pub d4: ai_real,
}

#[repr(C)]
pub struct aiFace {
    pub mNumIndices: c_uint,
    pub mIndices: *mut c_uint,
}

#[repr(C)]
pub struct aiVertexWeight {
    pub mVertexId: c_uint,
    pub mWeight: ai_real,
}

#[repr(C)]
pub struct aiVectorKey {
    pub mTime: c_double,
    pub mValue: aiVector3D,
}

#[repr(C)]
pub struct aiQuatKey {
    pub mTime: c_double,
    pub mValue: aiQuaternion,
}

/// Opaque: read through `aiGetMaterial*`.
#[repr(C)]
pub struct aiMaterial {
    _opaque: [u8; 0],
}

/// Opaque: made, filled and released by the functions below.
#[repr(C)]
pub struct aiPropertyStore {
    _opaque: [u8; 0],
}

/// Up to `mMeshes`.
#[repr(C)]
pub struct aiNode {
    pub mName: aiString,
    pub mTransformation: aiMatrix4x4,
    pub mParent: *mut aiNode,
    pub mNumChildren: c_uint,
    pub mChildren: *mut *mut aiNode,
    pub mNumMeshes: c_uint,
    pub mMeshes: *mut c_uint,
}

/// Up to `mOffsetMatrix` (the armature and node pointers are there in this build).
#[repr(C)]
pub struct aiBone {
    pub mName: aiString,
    pub mNumWeights: c_uint,
    pub mArmature: *mut aiNode,
    pub mNode: *mut aiNode,
    pub mWeights: *mut aiVertexWeight,
    pub mOffsetMatrix: aiMatrix4x4,
}

/// Up to `mName`.
#[repr(C)]
pub struct aiMesh {
    pub mPrimitiveTypes: c_uint,
    pub mNumVertices: c_uint,
    pub mNumFaces: c_uint,
    pub mVertices: *mut aiVector3D,
    pub mNormals: *mut aiVector3D,
    pub mTangents: *mut aiVector3D,
    pub mBitangents: *mut aiVector3D,
    pub mColors: [*mut aiColor4D; MAX_COLOR_SETS],
    pub mTextureCoords: [*mut aiVector3D; MAX_TEXTURE_COORDS],
    pub mNumUVComponents: [c_uint; MAX_TEXTURE_COORDS],
    pub mFaces: *mut aiFace,
    pub mNumBones: c_uint,
    pub mBones: *mut *mut aiBone,
    pub mMaterialIndex: c_uint,
    pub mName: aiString,
}

/// Up to `mScalingKeys`.
#[repr(C)]
pub struct aiNodeAnim {
    pub mNodeName: aiString,
    pub mNumPositionKeys: c_uint,
    pub mPositionKeys: *mut aiVectorKey,
    pub mNumRotationKeys: c_uint,
    pub mRotationKeys: *mut aiQuatKey,
    pub mNumScalingKeys: c_uint,
    pub mScalingKeys: *mut aiVectorKey,
}

/// Up to `mChannels`.
#[repr(C)]
pub struct aiAnimation {
    pub mName: aiString,
    pub mDuration: c_double,
    pub mTicksPerSecond: c_double,
    pub mNumChannels: c_uint,
    pub mChannels: *mut *mut aiNodeAnim,
}

/// Up to `mAnimations`.
#[repr(C)]
pub struct aiScene {
    pub mFlags: c_uint,
    pub mRootNode: *mut aiNode,
    pub mNumMeshes: c_uint,
    pub mMeshes: *mut *mut aiMesh,
    pub mNumMaterials: c_uint,
    pub mMaterials: *mut *mut aiMaterial,
    pub mNumAnimations: c_uint,
    pub mAnimations: *mut *mut aiAnimation,
}

#[link(name = "assimp")]
unsafe extern "C" {
    pub fn aiImportFileFromMemoryWithProperties(
        pBuffer: *const c_char,
        pLength: c_uint,
        pFlags: c_uint,
        pHint: *const c_char,
        pProps: *const aiPropertyStore,
    ) -> *const aiScene;
    pub fn aiReleaseImport(pScene: *const aiScene);
    pub fn aiGetErrorString() -> *const c_char;
    pub fn aiCreatePropertyStore() -> *mut aiPropertyStore;
    pub fn aiReleasePropertyStore(p: *mut aiPropertyStore);
    pub fn aiSetImportPropertyInteger(
        store: *mut aiPropertyStore,
        szName: *const c_char,
        value: c_int,
    );
    pub fn aiGetMaterialString(
        pMat: *const aiMaterial,
        pKey: *const c_char,
        r#type: c_uint,
        index: c_uint,
        pOut: *mut aiString,
    ) -> c_int;
    pub fn aiGetMaterialColor(
        pMat: *const aiMaterial,
        pKey: *const c_char,
        r#type: c_uint,
        index: c_uint,
        pOut: *mut aiColor4D,
    ) -> c_int;
}
