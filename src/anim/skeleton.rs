//! `Skeleton`: joints in parent-before-child order with their bind pose and offset (inverse
//! bind) matrices.

use super::error::AnimError;
use super::matrix::Mat3x4;
use super::transform::Transform;

/// The most joints a skeleton may have: vertex joint indices are `u16`.
pub const MAX_JOINTS: usize = u16::MAX as usize;

/// One joint as handed to a skeleton constructor.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Name from the source (used by `pose` output and clip retargeting by name).
    pub name: String,
    /// Index of the parent joint, `None` for a root.
    pub parent: Option<usize>,
    /// Local (to-parent) transform in the bind pose; joints without an animation track keep it.
    pub bind: Transform,
}

impl Joint {
    /// Shorthand for building joint lists.
    pub fn new(name: impl Into<String>, parent: Option<usize>, bind: Transform) -> Self {
        Self {
            name: name.into(),
            parent,
            bind,
        }
    }
}

/// A joint hierarchy stored as an array in which every parent comes before its children, so
/// one forward pass computes every to-root transform. Several roots are allowed.
#[derive(Clone, Debug)]
pub struct Skeleton {
    names: Vec<String>,
    parents: Vec<Option<u16>>,
    /// Where each joint's parent to-root lives in the evaluation scratch: slot 0 holds the
    /// identity and joint `j` lives at `j + 1`, so roots need no branch.
    parent_slots: Vec<u32>,
    bind: Vec<Transform>,
    offsets: Vec<Mat3x4>,
    /// For each joint, its position in the source file (identity unless a loader reordered).
    source_index: Vec<u32>,
}

impl Skeleton {
    /// Builds a skeleton from joints already in parent-before-child order and their offset
    /// (inverse bind) matrices, one per joint.
    pub fn new(joints: Vec<Joint>, offsets: Vec<Mat3x4>) -> Result<Self, AnimError> {
        check_sizes(&joints, &offsets)?;
        let mut parents = Vec::with_capacity(joints.len());
        for (j, joint) in joints.iter().enumerate() {
            if let Some(p) = joint.parent {
                if p >= joints.len() {
                    return Err(AnimError::ParentOutOfRange {
                        joint: j,
                        name: joint.name.clone(),
                        parent: p,
                        count: joints.len(),
                    });
                }
                if p >= j {
                    return Err(AnimError::ParentOrder {
                        joint: j,
                        name: joint.name.clone(),
                        parent: p,
                    });
                }
            }
            if !joint.bind.is_finite() {
                return Err(non_finite(j, joint, "bind pose"));
            }
            if !offsets[j].is_finite() {
                return Err(non_finite(j, joint, "offset matrix"));
            }
            parents.push(joint.parent.map(|p| p as u16));
        }
        let parent_slots = parents
            .iter()
            .map(|p| p.map_or(0, |p| u32::from(p) + 1))
            .collect();
        let count = joints.len();
        let (names, bind) = joints.into_iter().map(|j| (j.name, j.bind)).unzip();
        Ok(Self {
            names,
            parents,
            parent_slots,
            bind,
            offsets,
            source_index: (0..count as u32).collect(),
        })
    }

    /// Builds a skeleton whose offsets are derived from the bind pose: each offset is the
    /// inverse of the joint's bind to-root transform (for sources that store none).
    pub fn with_derived_offsets(joints: Vec<Joint>) -> Result<Self, AnimError> {
        let placeholder = vec![Mat3x4::IDENTITY; joints.len()];
        let mut skeleton = Self::new(joints, placeholder)?;
        let to_root = skeleton.bind_to_root();
        for (j, m) in to_root.iter().enumerate() {
            skeleton.offsets[j] = m.inverse().ok_or_else(|| AnimError::SingularBind {
                joint: j,
                name: skeleton.names[j].clone(),
            })?;
        }
        Ok(skeleton)
    }

    /// Builds a skeleton from joints in any order (as glTF skins may list them): joints are
    /// reordered parent-before-child (keeping the source order where it already is), parent
    /// indices refer to the source order. The source position of each joint is kept
    /// (`source_index`) so tools can report joints in the file's order.
    pub fn from_unordered(joints: Vec<Joint>, offsets: Vec<Mat3x4>) -> Result<Self, AnimError> {
        check_sizes(&joints, &offsets)?;
        let order = parent_first_order(&joints)?;
        let mut new_index = vec![0usize; joints.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut slots: Vec<Option<(Joint, Mat3x4)>> =
            joints.into_iter().zip(offsets).map(Some).collect();
        let mut reordered = Vec::with_capacity(order.len());
        let mut reordered_offsets = Vec::with_capacity(order.len());
        for &old in &order {
            let (mut joint, offset) = slots[old].take().expect("each joint is placed once");
            joint.parent = joint.parent.map(|p| new_index[p]);
            reordered.push(joint);
            reordered_offsets.push(offset);
        }
        let mut skeleton = Self::new(reordered, reordered_offsets)?;
        skeleton.source_index = order.iter().map(|&o| o as u32).collect();
        Ok(skeleton)
    }

    /// Number of joints.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: a skeleton has at least one joint.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Joint names, in skeleton order.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The parent of joint `j`, `None` for a root.
    ///
    /// # Panics
    ///
    /// If `j` is not a joint index.
    #[must_use]
    pub fn parent(&self, j: usize) -> Option<usize> {
        self.parents[j].map(usize::from)
    }

    /// Parents of all joints, in skeleton order.
    pub fn parents(&self) -> impl Iterator<Item = Option<usize>> + '_ {
        self.parents.iter().map(|p| p.map(usize::from))
    }

    /// Scratch slots of the parents (see [`crate::anim::local_to_palette`]): 0 for roots, `parent + 1`
    /// otherwise.
    pub(crate) fn parent_slots(&self) -> &[u32] {
        &self.parent_slots
    }

    /// Bind-pose local transforms.
    #[must_use]
    pub fn bind_pose(&self) -> &[Transform] {
        &self.bind
    }

    /// Offset (inverse bind) matrices.
    #[must_use]
    pub fn offsets(&self) -> &[Mat3x4] {
        &self.offsets
    }

    /// Index of the first joint named `name` (see [`Skeleton::find_unique`] for a look-up
    /// that refuses a name several joints share).
    #[must_use]
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Index of the joint named `name`: `None` when no joint has it, an error when several do
    /// (SDKMESH frames, for one, may repeat names).
    pub fn find_unique(&self, name: &str) -> Result<Option<usize>, AnimError> {
        let count = self.names.iter().filter(|n| *n == name).count();
        if count > 1 {
            return Err(AnimError::AmbiguousName {
                what: "joint",
                name: name.to_string(),
                count,
            });
        }
        Ok(self.find(name))
    }

    /// Position of joint `j` in the source file.
    ///
    /// # Panics
    ///
    /// If `j` is not a joint index.
    #[must_use]
    pub fn source_index(&self, j: usize) -> usize {
        self.source_index[j] as usize
    }

    /// For each source position, the joint's index in this skeleton (the inverse of
    /// [`Skeleton::source_index`]); loaders remap vertex joint indices with it.
    #[must_use]
    pub fn index_from_source(&self) -> Vec<usize> {
        let mut map = vec![0; self.len()];
        for (j, &s) in self.source_index.iter().enumerate() {
            map[s as usize] = j;
        }
        map
    }

    /// To-root transforms of the bind pose.
    #[must_use]
    pub fn bind_to_root(&self) -> Vec<Mat3x4> {
        let mut to_root: Vec<Mat3x4> = Vec::with_capacity(self.len());
        for (j, local) in self.bind.iter().enumerate() {
            let m = local.to_matrix();
            let world = match self.parent(j) {
                Some(p) => to_root[p].mul(&m),
                None => m,
            };
            to_root.push(world);
        }
        to_root
    }
}

/// One offset per joint, at least one joint, and no more than vertex indices can address.
fn check_sizes(joints: &[Joint], offsets: &[Mat3x4]) -> Result<(), AnimError> {
    if offsets.len() != joints.len() {
        return Err(AnimError::OffsetCount {
            offsets: offsets.len(),
            joints: joints.len(),
        });
    }
    let count = joints.len();
    if count == 0 {
        return Err(AnimError::NoJoints);
    }
    if count > MAX_JOINTS {
        return Err(AnimError::TooManyJoints {
            count,
            max: MAX_JOINTS,
        });
    }
    Ok(())
}

fn non_finite(j: usize, joint: &Joint, what: &'static str) -> AnimError {
    AnimError::NonFinite {
        joint: j,
        name: joint.name.clone(),
        what,
    }
}

/// A parent-before-child order of `joints` (depth-first from each root in source order, with
/// children in source order); detects out-of-range parents and cycles.
fn parent_first_order(joints: &[Joint]) -> Result<Vec<usize>, AnimError> {
    let n = joints.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (j, joint) in joints.iter().enumerate() {
        match joint.parent {
            Some(p) if p >= n => {
                return Err(AnimError::ParentOutOfRange {
                    joint: j,
                    name: joint.name.clone(),
                    parent: p,
                    count: n,
                });
            }
            Some(p) => children[p].push(j),
            None => roots.push(j),
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(j) = stack.pop() {
        order.push(j);
        stack.extend(children[j].iter().rev());
    }
    if order.len() != n {
        // Joints never reached from a root sit on a parent loop.
        let mut reached = vec![false; n];
        for &j in &order {
            reached[j] = true;
        }
        let joint = reached.iter().position(|r| !r).unwrap_or(0);
        return Err(AnimError::ParentCycle {
            joint,
            name: joints[joint].name.clone(),
        });
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn joint(name: &str, parent: Option<usize>, y: f32) -> Joint {
        Joint::new(
            name,
            parent,
            Transform::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY, Vec3::ONE),
        )
    }

    #[test]
    fn derived_offsets_invert_the_bind_pose() {
        let s = Skeleton::with_derived_offsets(vec![
            joint("a", None, 1.0),
            joint("b", Some(0), 2.0),
            joint("c", Some(1), 3.0),
        ])
        .expect("valid");
        let to_root = s.bind_to_root();
        assert_eq!(to_root[2].translation(), Vec3::new(0.0, 6.0, 0.0));
        for (m, o) in to_root.iter().zip(s.offsets()) {
            assert!(m.mul(o).abs_diff_eq(&Mat3x4::IDENTITY, 1e-6));
        }
    }

    #[test]
    fn unordered_joints_are_sorted_and_remembered() {
        // Source order: hand, root, arm (hand's parent arm comes after it).
        let s = Skeleton::from_unordered(
            vec![
                joint("hand", Some(2), 1.0),
                joint("root", None, 1.0),
                joint("arm", Some(1), 1.0),
            ],
            vec![Mat3x4::IDENTITY; 3],
        )
        .expect("sortable");
        assert_eq!(s.names(), ["root", "arm", "hand"]);
        assert_eq!(s.parents().collect::<Vec<_>>(), [None, Some(0), Some(1)]);
        assert_eq!(s.source_index(0), 1);
        assert_eq!(s.index_from_source(), [2, 0, 1]);
    }

    #[test]
    fn cycles_are_rejected() {
        let err = Skeleton::from_unordered(
            vec![
                joint("r", None, 0.0),
                joint("a", Some(2), 0.0),
                joint("b", Some(1), 0.0),
            ],
            vec![Mat3x4::IDENTITY; 3],
        )
        .unwrap_err();
        assert!(matches!(err, AnimError::ParentCycle { .. }), "{err}");
    }
}
