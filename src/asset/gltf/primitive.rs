//! One TRIANGLES primitive to vertices, indices and a subset: attributes read and checked
//! against POSITION's count, indices checked against the vertices (sequential when absent),
//! influences mapped through the skin, missing normals and tangents generated, and rigidly
//! bound vertices moved into bind space.

use glam::{Affine3A, Vec2, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::{Mode, Semantic};

use crate::anim::{Mesh, Subset, Vertex};
use crate::asset::{ErrorKind, LoadError};

use super::accessor::{Components, Reader};
use super::binding::Binding;
use super::context::Ctx;
use super::generate;
use super::skin::Rig;
use super::weights::{self, Sets};

const UV_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const WEIGHT_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const JOINT_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const INDEX_INTS: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];

/// Appends one primitive as a subset.
#[allow(clippy::too_many_arguments)]
pub(super) fn primitive(
    ctx: &mut Ctx,
    section: &str,
    prim: &gltf::Primitive,
    binding: &Binding,
    rig: &Rig,
    reader: &Reader,
    material: usize,
    mesh: &mut Mesh,
) -> Result<(), LoadError> {
    if prim.mode() != Mode::Triangles {
        return Err(ctx.error(
            ErrorKind::Unsupported,
            section,
            format!("mode {:?} is not supported (only TRIANGLES)", prim.mode()),
        ));
    }
    let usage = |what: &str| format!("{what} of {section}");
    let Some(pos_acc) = prim.get(&Semantic::Positions) else {
        return Err(ctx.error(ErrorKind::Invalid, section, "has no POSITION attribute"));
    };
    let positions = reader.elements(
        ctx,
        &pos_acc,
        &usage("POSITION"),
        (Dimensions::Vec3, Components::Float),
        Vec3::from_slice,
    )?;
    let flat: Vec<f32> = positions.iter().flat_map(|p| p.to_array()).collect();
    all_finite(ctx, section, "POSITION", pos_acc.index(), &flat, 3)?;
    let n = positions.len();
    let same_count = |ctx: &Ctx, what: &str, len: usize| {
        if len == n {
            Ok(())
        } else {
            Err(ctx.error(
                ErrorKind::CountMismatch,
                section,
                format!("{what} has {len} elements, POSITION has {n}"),
            ))
        }
    };
    let optional =
        |ctx: &mut Ctx, semantic: Semantic, shape| -> Result<Option<Vec<f32>>, LoadError> {
            match prim.get(&semantic) {
                Some(acc) => {
                    let (dims, accept) = shape;
                    let name = semantic_name(&semantic);
                    let values = reader.floats(ctx, &acc, &usage(&name), dims, accept)?;
                    let width = dims.multiplicity();
                    all_finite(ctx, section, &name, acc.index(), &values, width)?;
                    Ok(Some(values))
                }
                None => Ok(None),
            }
        };
    let normals = optional(
        ctx,
        Semantic::Normals,
        (Dimensions::Vec3, Components::Float),
    )?
    .map(|v| v.chunks_exact(3).map(Vec3::from_slice).collect::<Vec<_>>());
    let tangents = optional(
        ctx,
        Semantic::Tangents,
        (Dimensions::Vec4, Components::Float),
    )?
    .map(|v| v.chunks_exact(4).map(Vec4::from_slice).collect::<Vec<_>>());
    let uv_shape = (Dimensions::Vec2, Components::FloatOrNormalized(UV_INTS));
    let uvs = optional(ctx, Semantic::TexCoords(0), uv_shape)?
        .map(|v| v.chunks_exact(2).map(Vec2::from_slice).collect::<Vec<_>>());
    for (what, len) in [
        ("NORMAL", normals.as_ref().map(Vec::len)),
        ("TANGENT", tangents.as_ref().map(Vec::len)),
        ("TEXCOORD_0", uvs.as_ref().map(Vec::len)),
    ] {
        if let Some(len) = len {
            same_count(ctx, what, len)?;
        }
    }
    let indices = match prim.indices() {
        Some(acc) => {
            let idx = reader.unsigned(
                ctx,
                &acc,
                &usage("indices"),
                Dimensions::Scalar,
                Components::Unsigned(INDEX_INTS),
            )?;
            if let Some(k) = idx.iter().position(|&i| i as usize >= n) {
                return Err(ctx
                    .error(
                        ErrorKind::IndexOutOfRange,
                        section,
                        format!("index {} is past the {n} vertices", idx[k]),
                    )
                    .at_record(format!("triangle {}", k / 3)));
            }
            idx
        }
        None => {
            ctx.charge(section, n as u64 * 4)?;
            (0..n as u32).collect()
        }
    };
    if indices.len() % 3 != 0 {
        return Err(ctx.error(
            ErrorKind::CountMismatch,
            section,
            format!(
                "{} indices is not a whole number of triangles",
                indices.len()
            ),
        ));
    }
    let influences = match binding {
        Binding::Skin(skin) => {
            let sets = read_sets(ctx, section, prim, reader, n)?;
            let name = format!("skins[{skin}]");
            Some(weights::influences(
                ctx,
                section,
                &sets,
                n,
                &rig.skin_joints[*skin],
                &name,
            )?)
        }
        Binding::Rigid(..) => None,
    };

    let normals = normals.unwrap_or_else(|| generate::normals(&positions, &indices));
    let uvs = uvs.unwrap_or_else(|| vec![Vec2::ZERO; n]);
    let tangents =
        tangents.unwrap_or_else(|| generate::tangents(&positions, &normals, &uvs, &indices));

    let start = mesh.vertices.len();
    let fits = u32::try_from(start + n).is_ok()
        && u32::try_from(mesh.indices.len() + indices.len()).is_ok();
    if !fits {
        return Err(ctx.error(
            ErrorKind::TooLarge,
            section,
            "the mesh would have more than 2^32 vertices or indices",
        ));
    }
    ctx.charge(
        section,
        (n * std::mem::size_of::<Vertex>() + indices.len() * 4) as u64,
    )?;
    mesh.vertices.reserve(n);
    for v in 0..n {
        let (mut p, mut nrm, mut tan) = (positions[v], normals[v], tangents[v]);
        let (joints, weights) = match (binding, &influences) {
            (Binding::Rigid(joint, m), _) => {
                (p, nrm, tan) = rigid(m, p, nrm, tan);
                if !(p.is_finite() && nrm.is_finite() && tan.is_finite()) {
                    return Err(ctx
                        .error(
                            ErrorKind::NonFinite,
                            section,
                            format!("vertex {v} is not finite once moved by its node's transform"),
                        )
                        .at_record(format!("vertex {v}")));
                }
                ([*joint, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
            }
            (Binding::Skin(_), Some(inf)) => inf[v],
            (Binding::Skin(_), None) => ([0; 4], [1.0, 0.0, 0.0, 0.0]),
        };
        mesh.vertices.push(Vertex {
            position: p.into(),
            normal: nrm.into(),
            tangent: tan.into(),
            uv: uvs[v].into(),
            joints,
            weights,
        });
    }
    let index_start = mesh.indices.len();
    mesh.indices
        .extend(indices.iter().map(|&i| i + start as u32));
    mesh.subsets.push(Subset {
        vertex_start: start as u32,
        vertex_count: n as u32,
        index_start: index_start as u32,
        index_count: indices.len() as u32,
        material,
    });
    Ok(())
}

/// Checks that every value of attribute `what` (read from `accessors[accessor]`, `width`
/// floats per vertex) is finite, naming the first vertex that is not.
fn all_finite(
    ctx: &Ctx,
    section: &str,
    what: &str,
    accessor: usize,
    values: &[f32],
    width: usize,
) -> Result<(), LoadError> {
    match values.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(i) => {
            let v = i / width.max(1);
            Err(ctx.error(
                ErrorKind::NonFinite,
                section,
                format!("{what} (accessors[{accessor}]): vertex {v} is not finite"),
            ))
        }
    }
}

/// `JOINTS_n`/`WEIGHTS_n` pairs present on a skinned primitive (at least set 0).
fn read_sets(
    ctx: &mut Ctx,
    section: &str,
    prim: &gltf::Primitive,
    reader: &Reader,
    n: usize,
) -> Result<Sets, LoadError> {
    let mut sets = Sets {
        joints: Vec::new(),
        weights: Vec::new(),
    };
    for set in 0u32.. {
        let (Some(j), Some(w)) = (
            prim.get(&Semantic::Joints(set)),
            prim.get(&Semantic::Weights(set)),
        ) else {
            if set == 0 {
                return Err(ctx.error(
                    ErrorKind::Invalid,
                    section,
                    "is skinned but lacks JOINTS_0 or WEIGHTS_0",
                ));
            }
            break;
        };
        let joints = reader.unsigned(
            ctx,
            &j,
            &format!("JOINTS_{set} of {section}"),
            Dimensions::Vec4,
            Components::Unsigned(JOINT_INTS),
        )?;
        let weights = reader.floats(
            ctx,
            &w,
            &format!("WEIGHTS_{set} of {section}"),
            Dimensions::Vec4,
            Components::FloatOrNormalized(WEIGHT_INTS),
        )?;
        for (what, len) in [("JOINTS", joints.len() / 4), ("WEIGHTS", weights.len() / 4)] {
            if len != n {
                return Err(ctx.error(
                    ErrorKind::CountMismatch,
                    section,
                    format!("{what}_{set} has {len} elements, POSITION has {n}"),
                ));
            }
        }
        sets.joints.push(joints);
        sets.weights.push(weights);
    }
    Ok(sets)
}

/// A rigidly bound vertex moved by `m`: normals by the inverse transpose, tangents by the
/// linear part, handedness flipped by a mirroring `m`.
fn rigid(m: &Affine3A, p: Vec3, n: Vec3, t: Vec4) -> (Vec3, Vec3, Vec4) {
    let lin = m.matrix3;
    let normal_matrix = lin.inverse().transpose();
    let n2 = (normal_matrix * glam::Vec3A::from(n))
        .try_normalize()
        .map_or(n, Vec3::from);
    let t3 = (lin * glam::Vec3A::from(t.truncate()))
        .try_normalize()
        .map_or(t.truncate(), Vec3::from);
    let w = if lin.determinant() < 0.0 { -t.w } else { t.w };
    (m.transform_point3(p), n2, t3.extend(w))
}

/// The attribute's name as glTF writes it (`NORMAL`, `TEXCOORD_0`, ...).
fn semantic_name(semantic: &Semantic) -> String {
    match semantic {
        Semantic::Positions => "POSITION".into(),
        Semantic::Normals => "NORMAL".into(),
        Semantic::Tangents => "TANGENT".into(),
        Semantic::Colors(i) => format!("COLOR_{i}"),
        Semantic::TexCoords(i) => format!("TEXCOORD_{i}"),
        Semantic::Joints(i) => format!("JOINTS_{i}"),
        Semantic::Weights(i) => format!("WEIGHTS_{i}"),
        // Application-specific attributes (`_NAME`), kept by the `extras` feature.
        Semantic::Extras(name) => format!("_{name}"),
    }
}
