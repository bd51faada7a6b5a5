//! Mesh nodes to one vertex and index list: every TRIANGLES primitive of every mesh node
//! becomes a subset.
//!
//! A node with a skin uses its skin (the node's own transform is ignored, as glTF says for
//! skinned meshes). A node without one that sits under a joint (or is one) is bound rigidly
//! to the nearest such joint, its vertices stored so that the bind palette puts them where
//! the scene puts them: `v' = offset⁻¹ · C · v`, with `C` the transform from the node up to
//! the joint. Mesh nodes that are neither are skipped with a warning. Missing normals and
//! tangents are generated (see [`super::generate`]), missing UVs are zero.

use glam::{Affine3A, Vec2, Vec3, Vec4};
use gltf::Document;
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::{Mode, Semantic};

use crate::anim::{Material, Mesh, Subset, Vertex};
use crate::asset::{ErrorKind, LoadError};

use super::accessor::{Components, Reader};
use super::context::Ctx;
use super::generate;
use super::nodes::Nodes;
use super::skin::Rig;
use super::weights::{self, Sets};

const UV_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const WEIGHT_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const JOINT_INTS: &[DataType] = &[DataType::U8, DataType::U16];
const INDEX_INTS: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];

/// How a mesh node's vertices follow the skeleton.
enum Binding {
    /// Through skin `index`'s `JOINTS_0`/`WEIGHTS_0`.
    Skin(usize),
    /// Rigidly to one joint, after the given transform.
    Rigid(u16, Affine3A),
}

/// Builds the mesh from every mesh node. `materials` are the file's materials; a default
/// one is appended when a primitive has none.
pub(super) fn build(
    ctx: &mut Ctx,
    doc: &Document,
    nodes: &Nodes,
    rig: &Rig,
    reader: &Reader,
    mut materials: Vec<Material>,
) -> Result<Mesh, LoadError> {
    let mut mesh = Mesh::default();
    let mut default_material = None;
    for node in doc.nodes() {
        let Some(gltf_mesh) = node.mesh() else {
            continue;
        };
        let Some(binding) = binding(ctx, nodes, rig, &node)? else {
            continue;
        };
        for prim in gltf_mesh.primitives() {
            let section = format!("meshes[{}].primitives[{}]", gltf_mesh.index(), prim.index());
            let material = match prim.material().index() {
                Some(m) => m,
                None => *default_material.get_or_insert_with(|| {
                    materials.push(Material::default());
                    materials.len() - 1
                }),
            };
            primitive(
                ctx, &section, &prim, &binding, rig, reader, material, &mut mesh,
            )?;
        }
    }
    mesh.materials = materials;
    Ok(mesh)
}

/// How `node`'s mesh is bound, or `None` (warned) when it follows no joint.
fn binding(
    ctx: &mut Ctx,
    nodes: &Nodes,
    rig: &Rig,
    node: &gltf::Node,
) -> Result<Option<Binding>, LoadError> {
    if let Some(skin) = node.skin() {
        return Ok(Some(Binding::Skin(skin.index())));
    }
    let i = node.index();
    let joint_node = match rig.node_joint[i] {
        Some(_) => Some(i),
        None => nodes.ancestor(i, |a| rig.node_joint[a].is_some()),
    };
    let Some(joint_node) = joint_node else {
        ctx.warn_once(
            "unbound mesh",
            format!(
                "nodes[{i}]: a mesh node with no skin and no joint above it is skipped (throng \
                 draws only what the skeleton moves)"
            ),
        );
        return Ok(None);
    };
    let Some(joint) = rig.node_joint[joint_node] else {
        return Ok(None);
    };
    // From the mesh node's space up to the joint's (identity when the node is the joint).
    let to_joint = if joint_node == i {
        glam::DAffine3::IDENTITY
    } else {
        nodes.chain(i, Some(joint_node))
    };
    let offset = rig.skeleton.offsets()[joint];
    let inverse = offset.inverse().ok_or_else(|| {
        ctx.error(
            ErrorKind::Unsupported,
            format!("nodes[{i}]"),
            format!(
                "the mesh is bound rigidly to joint '{}', whose inverse bind matrix is singular",
                rig.skeleton.names()[joint]
            ),
        )
    })?;
    let transform = inverse.to_affine() * to_joint.as_affine3a();
    Ok(Some(Binding::Rigid(joint as u16, transform)))
}

/// Appends one primitive as a subset.
#[allow(clippy::too_many_arguments)]
fn primitive(
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
    let normals = match prim.get(&Semantic::Normals) {
        Some(acc) => Some(reader.elements(
            ctx,
            &acc,
            &usage("NORMAL"),
            (Dimensions::Vec3, Components::Float),
            Vec3::from_slice,
        )?),
        None => None,
    };
    let tangents = match prim.get(&Semantic::Tangents) {
        Some(acc) => Some(reader.elements(
            ctx,
            &acc,
            &usage("TANGENT"),
            (Dimensions::Vec4, Components::Float),
            Vec4::from_slice,
        )?),
        None => None,
    };
    let uvs = match prim.get(&Semantic::TexCoords(0)) {
        Some(acc) => Some(reader.elements(
            ctx,
            &acc,
            &usage("TEXCOORD_0"),
            (Dimensions::Vec2, Components::FloatOrNormalized(UV_INTS)),
            Vec2::from_slice,
        )?),
        None => None,
    };
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
