//! `InstanceRecord`: what the GPU needs per instance besides its palette: where it stands,
//! where its palette is (exact, in the ring slot; or baked, in the clip's table of frames),
//! and which clip bounds the culling pass tests.

pub use super::gpu_codes::{
    RECORD_BAKED, RECORD_JOINTS_MASK, RECORD_LOOK_MASK, RECORD_LOOK_SHIFT, RECORD_MODEL_MASK,
    RECORD_PHASE_SHIFT,
};
pub use super::gpu_layouts::InstanceRecord;

/// Looks a crowd can hold, the plain look included (the ids [`RECORD_LOOK_MASK`] has room
/// for).
pub const MAX_LOOKS: usize = (RECORD_LOOK_MASK >> RECORD_LOOK_SHIFT) as usize + 1;
/// Models a crowd can tell apart in an [`InstanceRecord`] (the bits of [`RECORD_MODEL_MASK`]).
pub(crate) const MAX_MODELS: usize = RECORD_MODEL_MASK as usize + 1;

impl InstanceRecord {
    /// The model's index in its crowd.
    pub fn model(&self) -> u32 {
        self.model_flags & RECORD_MODEL_MASK
    }

    /// The instance's look, an index into its crowd's looks.
    pub fn look(&self) -> u32 {
        (self.model_flags & RECORD_LOOK_MASK) >> RECORD_LOOK_SHIFT
    }

    /// Whether the palette is read from the baked frames.
    pub fn is_baked(&self) -> bool {
        self.model_flags & RECORD_BAKED != 0
    }

    /// Palette matrices per pose.
    pub fn joint_count(&self) -> u32 {
        self.joints & RECORD_JOINTS_MASK
    }

    /// How far through its clip the instance is, 0 to 1.
    pub fn phase(&self) -> f32 {
        (self.joints >> RECORD_PHASE_SHIFT) as f32 / 65535.0
    }

    /// `joints` and `phase` (clamped to 0 to 1) packed as [`InstanceRecord::joints`] holds
    /// them.
    pub fn pack_joints(joints: u32, phase: f32) -> u32 {
        let phase = if phase.is_finite() {
            phase.clamp(0.0, 1.0)
        } else {
            0.0
        };
        (joints & RECORD_JOINTS_MASK) | ((phase * 65535.0).round() as u32) << RECORD_PHASE_SHIFT
    }
}

const _: () = assert!(std::mem::size_of::<InstanceRecord>() == 80);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joints_and_phase_share_a_word() {
        for (joints, phase) in [(22, 0.0), (65535, 1.0), (1, 0.5), (300, 0.25)] {
            let r = InstanceRecord {
                joints: InstanceRecord::pack_joints(joints, phase),
                ..Default::default()
            };
            assert_eq!(r.joint_count(), joints);
            assert!((r.phase() - phase).abs() <= 1.0 / 65535.0, "{phase}");
        }
        let r = InstanceRecord {
            joints: InstanceRecord::pack_joints(5, f32::NAN),
            ..Default::default()
        };
        assert_eq!((r.joint_count(), r.phase()), (5, 0.0));
        assert_eq!(
            InstanceRecord::pack_joints(5, 7.0) >> RECORD_PHASE_SHIFT,
            65535
        );
    }
}
