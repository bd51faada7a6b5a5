//! `ffi`'s declarations against the installed Assimp headers: a C program compiled with the
//! system's C compiler (the one Rust links with) prints the size and offsets the headers give
//! every structure and field declared in `ffi`, and the constants' values; each must equal
//! Rust's. A header of another Assimp version, or a build with other options (double
//! precision, no armature pointers in bones), fails here instead of misreading scenes.

use std::mem::{offset_of, size_of};
use std::process::Command;

use super::ffi::*;

/// (C expression, Rust's value) for every fact `ffi` relies on.
fn facts() -> Vec<(String, usize)> {
    let mut facts = Vec::new();
    // Structures declared whole: their sizes, as the loader steps through arrays of them
    // or fills them.
    macro_rules! size {
        ($($ty:ident),*) => {
            $(facts.push((format!("sizeof(struct {})", stringify!($ty)), size_of::<$ty>()));)*
        };
    }
    size!(
        aiString,
        aiVector3D,
        aiQuaternion,
        aiColor4D,
        aiMatrix4x4,
        aiFace,
        aiVertexWeight,
        aiVectorKey,
        aiQuatKey
    );
    // Every declared field's offset.
    macro_rules! offsets {
        ($($ty:ident { $($field:ident),* })*) => {
            $($(facts.push((
                format!("offsetof(struct {}, {})", stringify!($ty), stringify!($field)),
                offset_of!($ty, $field),
            ));)*)*
        };
    }
    offsets!(
        aiString { length, data }
        aiVector3D { x, y, z }
        aiQuaternion { w, x, y, z }
        aiColor4D { r, g, b, a }
        aiMatrix4x4 { a1, a4, b1, c1, d1, d4 }
        aiFace { mNumIndices, mIndices }
        aiVertexWeight { mVertexId, mWeight }
        aiVectorKey { mTime, mValue }
        aiQuatKey { mTime, mValue }
        aiNode { mName, mTransformation, mParent, mNumChildren, mChildren, mNumMeshes, mMeshes }
        aiBone { mName, mNumWeights, mArmature, mNode, mWeights, mOffsetMatrix }
        aiMesh {
            mPrimitiveTypes, mNumVertices, mNumFaces, mVertices, mNormals, mTangents,
            mBitangents, mColors, mTextureCoords, mNumUVComponents, mFaces, mNumBones, mBones,
            mMaterialIndex, mName
        }
        aiNodeAnim {
            mNodeName, mNumPositionKeys, mPositionKeys, mNumRotationKeys, mRotationKeys,
            mNumScalingKeys, mScalingKeys
        }
        aiAnimation { mName, mDuration, mTicksPerSecond, mNumChannels, mChannels }
        aiScene {
            mFlags, mRootNode, mNumMeshes, mMeshes, mNumMaterials, mMaterials, mNumAnimations,
            mAnimations
        }
    );
    // Structures declared only up to the fields read: the headers' must be at least as large.
    for (c, rust) in [
        ("aiNode", size_of::<aiNode>()),
        ("aiBone", size_of::<aiBone>()),
        ("aiMesh", size_of::<aiMesh>()),
        ("aiNodeAnim", size_of::<aiNodeAnim>()),
        ("aiAnimation", size_of::<aiAnimation>()),
        ("aiScene", size_of::<aiScene>()),
    ] {
        facts.push((format!("(sizeof(struct {c}) >= {rust})"), 1));
    }
    // Constants, and the scalar types behind them.
    for (c, rust) in [
        ("MAXLEN", MAXLEN),
        ("AI_MAX_NUMBER_OF_COLOR_SETS", MAX_COLOR_SETS),
        ("AI_MAX_NUMBER_OF_TEXTURECOORDS", MAX_TEXTURE_COORDS),
        (
            "aiProcess_CalcTangentSpace",
            PROCESS_CALC_TANGENT_SPACE as usize,
        ),
        ("aiProcess_Triangulate", PROCESS_TRIANGULATE as usize),
        (
            "aiProcess_GenSmoothNormals",
            PROCESS_GEN_SMOOTH_NORMALS as usize,
        ),
        (
            "aiProcess_LimitBoneWeights",
            PROCESS_LIMIT_BONE_WEIGHTS as usize,
        ),
        (
            "aiProcess_ValidateDataStructure",
            PROCESS_VALIDATE_DATA_STRUCTURE as usize,
        ),
        ("aiProcess_SortByPType", PROCESS_SORT_BY_PTYPE as usize),
        ("aiProcess_FlipUVs", PROCESS_FLIP_UVS as usize),
        ("aiPrimitiveType_TRIANGLE", PRIMITIVE_TRIANGLE as usize),
        ("aiReturn_SUCCESS", RETURN_SUCCESS as usize),
        ("sizeof(ai_real)", size_of::<ai_real>()),
        ("sizeof(enum aiReturn)", size_of::<std::os::raw::c_int>()),
    ] {
        facts.push((c.to_string(), rust));
    }
    facts
}

/// The C program printing each fact's value as the headers give it, one per line.
fn program(facts: &[(String, usize)]) -> String {
    let mut c = String::from(
        "#include <stddef.h>\n#include <stdio.h>\n#include <assimp/cimport.h>\n\
         #include <assimp/scene.h>\n#include <assimp/postprocess.h>\n\
         #include <assimp/material.h>\nint main(void) {\n",
    );
    for (expression, _) in facts {
        c.push_str(&format!(
            "    printf(\"%zu\\n\", (size_t)({expression}));\n"
        ));
    }
    c.push_str("    return 0;\n}\n");
    c
}

#[test]
fn declarations_match_the_installed_headers() {
    let facts = facts();
    let dir = std::env::temp_dir();
    let source = dir.join(format!("layout-{}.c", std::process::id()));
    let binary = dir.join(format!("layout-{}", std::process::id()));
    std::fs::write(&source, program(&facts)).expect("the C program");
    let compiled = Command::new("cc")
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .output()
        .expect("a C compiler (cc, the one Rust links with)");
    assert!(
        compiled.status.success(),
        "the C program against the Assimp headers (libassimp-dev) did not compile:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let ran = Command::new(&binary).output().expect("the C program runs");
    let _ = std::fs::remove_file(&source);
    let _ = std::fs::remove_file(&binary);
    let printed = String::from_utf8_lossy(&ran.stdout);
    let headers: Vec<usize> = printed
        .lines()
        .map(|l| l.trim().parse().expect("a number"))
        .collect();
    assert_eq!(headers.len(), facts.len(), "{printed}");
    let wrong: Vec<String> = facts
        .iter()
        .zip(&headers)
        .filter(|((_, rust), c)| rust != *c)
        .map(|((what, rust), c)| format!("{what}: headers {c}, ffi.rs {rust}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "ffi.rs disagrees with the headers:\n{}",
        wrong.join("\n")
    );
}
