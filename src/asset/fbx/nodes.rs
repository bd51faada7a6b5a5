//! ufbx's node tree as plain tables: each node's parent, name and rest transform, indexed by
//! the node's position in `scene.nodes` (its `typed_id`). ufbx lists parents before their
//! children (it sorts nodes by depth); that and every index are checked here, so the rest of
//! the loader works with indices it can trust.

use glam::DAffine3;

use super::values;
use crate::anim::Transform;
use crate::asset::budget::{Budget, times};
use crate::asset::{ErrorKind, LoadError};

/// What one node costs to hold here: name (64), parent (16), transform (48), matrix (96),
/// and the loader's per-node flags and maps (64).
const NODE_COST: u64 = 288;

/// The nodes of a scene.
pub(super) struct Nodes {
    pub names: Vec<String>,
    pub parent: Vec<Option<usize>>,
    /// The rest local transform, as translation, rotation and scale (ufbx resolves pivots
    /// and pre- and post-rotations into it).
    pub rest: Vec<Transform>,
    /// The same as a matrix, in double precision, for folding.
    pub rest_matrix: Vec<DAffine3>,
}

impl Nodes {
    /// Reads every node of `scene`.
    pub fn read(file: &str, scene: &ufbx::Scene, budget: &mut Budget) -> Result<Self, LoadError> {
        let count = scene.nodes.len();
        budget
            .charge(times(count, NODE_COST), || format!("{count} nodes"))
            .map_err(|e| e.into_load_error(file, "nodes"))?;
        let mut nodes = Self {
            names: Vec::with_capacity(count),
            parent: Vec::with_capacity(count),
            rest: Vec::with_capacity(count),
            rest_matrix: Vec::with_capacity(count),
        };
        for (i, node) in scene.nodes.iter().enumerate() {
            let name = node.element.name.to_string();
            let error = |kind, message: &str| {
                LoadError::new(file, kind, message).in_section(node_section(&name))
            };
            if node.element.typed_id as usize != i {
                return Err(error(
                    ErrorKind::Invalid,
                    "ufbx's node list and the node's own index disagree",
                ));
            }
            let parent = match &node.parent {
                None => None,
                Some(p) => match nodes.index_of(scene, p) {
                    Some(p) if p < i => Some(p),
                    _ => {
                        return Err(error(
                            ErrorKind::ParentOrder,
                            "the node's parent does not come before it in ufbx's node list",
                        ));
                    }
                },
            };
            let (Some(rest), Some(matrix)) = (
                values::transform(&node.local_transform),
                values::transform_matrix(&node.local_transform),
            ) else {
                return Err(error(
                    ErrorKind::NonFinite,
                    "the node's transform is not finite (or its rotation is a zero quaternion)",
                ));
            };
            nodes.names.push(name);
            nodes.parent.push(parent);
            nodes.rest.push(rest);
            nodes.rest_matrix.push(matrix);
        }
        Ok(nodes)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The index of `node`, when it is the node of that index in `scene.nodes` (ufbx's
    /// `typed_id`, checked against the list rather than trusted).
    pub fn index_of(&self, scene: &ufbx::Scene, node: &ufbx::Node) -> Option<usize> {
        let id = node.element.typed_id as usize;
        let listed = scene.nodes.get(id)?;
        std::ptr::eq::<ufbx::Node>(&**listed, node).then_some(id)
    }

    /// For every node, whether some node of `marked` lies below it (or is it).
    pub fn at_or_above(&self, marked: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut out: Vec<bool> = (0..self.len()).map(&marked).collect();
        // Children come after their parents: walking backwards passes each mark up once.
        for n in (0..self.len()).rev() {
            if let (true, Some(p)) = (out[n], self.parent[n]) {
                out[p] = true;
            }
        }
        out
    }
}

/// How errors name a node.
pub(super) fn node_section(name: &str) -> String {
    format!("node '{name}'")
}
