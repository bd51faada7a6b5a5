//! The node hierarchy: parents (checked to form a forest), each node's static local
//! transform, and products of transforms along parent chains.

use glam::{DAffine3, DMat4, DQuat, DVec3};
use gltf::Document;
use gltf::scene::Transform as NodeTransform;

use crate::anim::Transform;
use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;

/// Parents and static local transforms of every node.
pub(super) struct Nodes {
    /// Each node's parent, `None` for roots.
    pub parent: Vec<Option<usize>>,
    /// Each node's local transform as a matrix (f64 so products of long chains stay exact).
    pub local: Vec<DAffine3>,
    /// Each node's local transform as translation, rotation, scale (a matrix is decomposed);
    /// `None` when a matrix has shear and cannot be decomposed.
    pub trs: Vec<Option<Transform>>,
    /// Each node's name, or `node{i}`.
    pub names: Vec<String>,
}

impl Nodes {
    /// Reads every node, rejecting a node with two parents, a node that is its own ancestor,
    /// and transforms that are not finite.
    pub fn read(ctx: &Ctx, doc: &Document) -> Result<Self, LoadError> {
        let n = doc.nodes().len();
        let mut parent = vec![None; n];
        let mut local = Vec::with_capacity(n);
        let mut trs = Vec::with_capacity(n);
        let mut names = Vec::with_capacity(n);
        for node in doc.nodes() {
            let i = node.index();
            let section = format!("nodes[{i}]");
            for child in node.children() {
                let c = child.index();
                if c == i {
                    return Err(ctx.error(ErrorKind::ParentOrder, section, "is its own child"));
                }
                if let Some(p) = parent[c] {
                    return Err(ctx.error(
                        ErrorKind::Invalid,
                        format!("nodes[{c}]"),
                        format!("is a child of both nodes[{p}] and nodes[{i}]"),
                    ));
                }
                parent[c] = Some(i);
            }
            let (matrix, decomposed) = read_transform(ctx, &section, node.transform())?;
            local.push(matrix);
            trs.push(decomposed);
            names.push(match node.name() {
                Some(name) if !name.is_empty() => name.to_string(),
                _ => format!("node{i}"),
            });
        }
        // With one parent per node, a chain longer than the node count must loop.
        for start in 0..n {
            let mut at = start;
            let mut steps = 0;
            while let Some(p) = parent[at] {
                at = p;
                steps += 1;
                if steps > n {
                    return Err(ctx.error(
                        ErrorKind::ParentOrder,
                        format!("nodes[{start}]"),
                        "the node hierarchy has a cycle: this node is its own ancestor",
                    ));
                }
            }
        }
        Ok(Self {
            parent,
            local,
            trs,
            names,
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// The product of local transforms from `node` up to (excluding) `stop`, or to the root
    /// when `stop` is `None`: the transform from `node`'s space into `stop`'s.
    pub fn chain(&self, node: usize, stop: Option<usize>) -> DAffine3 {
        let mut m = DAffine3::IDENTITY;
        let mut at = Some(node);
        while let Some(i) = at {
            if Some(i) == stop {
                break;
            }
            m = self.local[i] * m;
            at = self.parent[i];
        }
        m
    }

    /// The nearest ancestor of `node` (excluding itself) for which `is` holds.
    pub fn ancestor(&self, node: usize, is: impl Fn(usize) -> bool) -> Option<usize> {
        let mut at = self.parent[node];
        while let Some(i) = at {
            if is(i) {
                return Some(i);
            }
            at = self.parent[i];
        }
        None
    }
}

/// A node's transform as a matrix, and as TRS when it has one (a matrix with shear has not).
fn read_transform(
    ctx: &Ctx,
    section: &str,
    t: NodeTransform,
) -> Result<(DAffine3, Option<Transform>), LoadError> {
    let not_finite = || ctx.error(ErrorKind::NonFinite, section, "transform is not finite");
    match t {
        NodeTransform::Matrix { matrix } => {
            let m = DMat4::from_cols_array_2d(&matrix.map(|c| c.map(f64::from)));
            if !m.is_finite() {
                return Err(not_finite());
            }
            let row3 = m.row(3);
            if (row3 - glam::DVec4::W).abs().max_element() > 1e-6 {
                return Err(ctx.error(
                    ErrorKind::Unsupported,
                    section,
                    "matrix is projective (last row is not 0 0 0 1)",
                ));
            }
            let affine = DAffine3::from_mat4(m);
            Ok((affine, decompose(&affine)))
        }
        NodeTransform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let t = DVec3::from_array(translation.map(f64::from));
            let r = glam::DVec4::from_array(rotation.map(f64::from));
            let s = DVec3::from_array(scale.map(f64::from));
            if !(t.is_finite() && r.is_finite() && s.is_finite()) {
                return Err(not_finite());
            }
            let len = r.length();
            if !(len > 1e-6) {
                return Err(ctx.error(
                    ErrorKind::Invalid,
                    section,
                    "rotation is a zero quaternion",
                ));
            }
            let q = DQuat::from_vec4(r / len);
            let affine = DAffine3::from_scale_rotation_translation(s, q, t);
            let trs = Transform::new(t.as_vec3(), q.as_quat(), s.as_vec3());
            Ok((affine, Some(trs)))
        }
    }
}

/// TRS of an affine matrix, if recomposing it reproduces the matrix (no shear).
pub(super) fn decompose(m: &DAffine3) -> Option<Transform> {
    let (s, r, t) = m.to_scale_rotation_translation();
    if !(s.is_finite() && r.is_finite() && t.is_finite()) || s.min_element().abs() < 1e-12 {
        return None;
    }
    let r = r.normalize();
    let back = DAffine3::from_scale_rotation_translation(s, r, t);
    let scale = m
        .matrix3
        .abs()
        .to_cols_array()
        .iter()
        .fold(1.0f64, |a, &b| a.max(b));
    let err = (back.matrix3 - m.matrix3)
        .abs()
        .to_cols_array()
        .iter()
        .fold(0.0f64, |a, &b| a.max(b));
    (err <= 1e-5 * scale).then(|| Transform::new(t.as_vec3(), r.as_quat(), s.as_vec3()))
}
