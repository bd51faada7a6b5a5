//! The node hierarchy: parents (checked to form a forest), each node's static local
//! transform, and products of transforms along parent chains.
//!
//! Everything here is linear in the number of nodes, whatever the depth: a chain of a
//! million nodes is walked once, never once per node.

use glam::{DAffine3, DMat4, DQuat, DVec3};
use gltf::Document;
use gltf::scene::Transform as NodeTransform;

use crate::anim::Transform;
use crate::asset::affine::decompose;
use crate::asset::budget::times;
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
    /// Every node, parents before their children.
    pub order: Vec<usize>,
}

/// What each node costs here and in the tables built from it ([`JointFrames`], the rig's
/// node maps), charged before any of it is allocated.
const PER_NODE: u64 = 16 + 96 + 64 + 8 + 16 + 96 + 2 * 16;

/// For each node, the nearest joint above it and the transform from its parent's space into
/// that joint's (see [`Nodes::joint_frames`]).
pub(super) struct JointFrames {
    /// The nearest ancestor that is a joint (excluding the node itself).
    pub joint_above: Vec<Option<usize>>,
    /// The product of the local transforms of the non-joint nodes strictly between the node
    /// and `joint_above` (up to the root when there is none).
    pub between: Vec<DAffine3>,
}

impl Nodes {
    /// Reads every node, rejecting a node with two parents, a node that is its own ancestor,
    /// and transforms that are not finite.
    pub fn read(ctx: &mut Ctx, doc: &Document) -> Result<Self, LoadError> {
        let n = doc.nodes().len();
        ctx.charge_for("nodes", times(n, PER_NODE), || format!("{n} nodes"))?;
        let mut parent = vec![None; n];
        let mut local = Vec::with_capacity(n);
        let mut trs = Vec::with_capacity(n);
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
        }
        let order = parent_first(&parent).map_err(|node| {
            ctx.error(
                ErrorKind::ParentOrder,
                format!("nodes[{node}]"),
                "the node hierarchy has a cycle: this node is its own ancestor",
            )
        })?;
        Ok(Self {
            parent,
            local,
            trs,
            order,
        })
    }

    /// Node `i`'s name, or `node{i}`.
    pub fn name(doc: &Document, i: usize) -> String {
        match doc.as_json().nodes.get(i).and_then(|n| n.name.as_deref()) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("node{i}"),
        }
    }

    /// For every node, the nearest joint above it and the fold of the nodes in between, in
    /// one pass from the roots down (`is_joint` says which nodes are joints). Walking up from
    /// each joint instead costs the depth per joint: quadratic on a deep chain.
    pub fn joint_frames(&self, is_joint: impl Fn(usize) -> bool) -> JointFrames {
        let n = self.len();
        let mut joint_above = vec![None; n];
        let mut between = vec![DAffine3::IDENTITY; n];
        for &node in &self.order {
            if let Some(p) = self.parent[node] {
                if is_joint(p) {
                    joint_above[node] = Some(p);
                } else {
                    joint_above[node] = joint_above[p];
                    between[node] = between[p] * self.local[p];
                }
            }
        }
        JointFrames {
            joint_above,
            between,
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }
}

/// Every node with its parent before it (a parent-first order), or the first node found on
/// a cycle. Each node is visited a bounded number of times: a walk up from a node stops at
/// the first node already placed.
fn parent_first(parent: &[Option<usize>]) -> Result<Vec<usize>, usize> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const PLACED: u8 = 2;
    let n = parent.len();
    let mut state = vec![NEW; n];
    let mut order = Vec::with_capacity(n);
    let mut path = Vec::new();
    for start in 0..n {
        let mut at = Some(start);
        while let Some(i) = at {
            match state[i] {
                PLACED => break,
                ON_PATH => return Err(i),
                _ => {
                    state[i] = ON_PATH;
                    path.push(i);
                    at = parent[i];
                }
            }
        }
        // The path runs from `start` upwards: its top comes first.
        while let Some(i) = path.pop() {
            state[i] = PLACED;
            order.push(i);
        }
    }
    Ok(order)
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

#[cfg(test)]
mod tests {
    use super::parent_first;

    #[test]
    fn parents_come_first_and_cycles_are_found() {
        // 0 <- 2 <- 1, 3 a root, 4 under 1.
        let parent = [None, Some(2), Some(0), None, Some(1)];
        let order = parent_first(&parent).expect("a forest");
        let position = |n: usize| order.iter().position(|&o| o == n).expect("placed");
        assert_eq!(order.len(), parent.len());
        for (child, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                assert!(position(*p) < position(child), "{order:?}");
            }
        }
        assert!(parent_first(&[Some(1), Some(2), Some(0)]).is_err());
        assert!(parent_first(&[None, Some(2), Some(1)]).is_err());
    }

    #[test]
    fn a_deep_chain_is_ordered_in_one_pass() {
        // Child first: every walk up meets the placed part after one step.
        let n = 200_000;
        let parent: Vec<Option<usize>> = (0..n).map(|i| (i + 1 < n).then_some(i + 1)).collect();
        let order = parent_first(&parent).expect("a chain");
        assert_eq!(order.first(), Some(&(n - 1)));
        assert_eq!(order.last(), Some(&0));
    }
}
