//! How many instances, models, subsets and clip bounds a frame's culling buffers must hold,
//! and what follows from them: counters per view, model and list, indirect draws per view,
//! model and subset, and card draws per view and model. The buffers passes declare are sized from these
//! ([`crate::gpu::frame::resources::buffers::BufferSize`]).

use crate::gpu::frame::culling::data::{LIST_LEVELS, VIEWS};

/// What the culling buffers must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullSizes {
    /// Instance records.
    pub instances: usize,
    /// Models.
    pub models: usize,
    /// Most subsets of one model.
    pub subsets: usize,
    /// Bounds of every model.
    pub bounds: usize,
    /// Pixels of the frame (the cards' visibility buffer holds one entry each).
    pub pixels: usize,
    /// The most vec4s the skin pass could fill for this crowd: every instance drawn whole by
    /// the camera and the sun at the largest full mesh of the models
    /// ([`crate::gpu::frame::skinning`]).
    pub skin_vec4s: usize,
}

impl CullSizes {
    /// Whether buffers made for `self` hold `other`.
    pub fn holds(&self, other: &CullSizes) -> bool {
        self.instances >= other.instances
            && self.models >= other.models
            && self.subsets >= other.subsets
            && self.bounds >= other.bounds
            && self.pixels >= other.pixels
            && self.skin_vec4s >= other.skin_vec4s
    }

    /// Room for `want` with some to spare, so a crowd that grows a little at a time does not
    /// recreate the buffers every frame.
    pub fn grown(&self, want: &CullSizes) -> CullSizes {
        let grow = |have: usize, want: usize| {
            if want <= have {
                have
            } else {
                want.max(have + have / 2)
            }
        };
        CullSizes {
            instances: grow(self.instances, want.instances),
            models: grow(self.models, want.models),
            subsets: grow(self.subsets, want.subsets),
            bounds: grow(self.bounds, want.bounds),
            // A resized frame needs what it needs, no more: it does not grow a little at a
            // time.
            pixels: self.pixels.max(want.pixels),
            skin_vec4s: grow(self.skin_vec4s, want.skin_vec4s),
        }
    }

    /// Counters: `[view][model][list]` (mesh levels, then cards), then the instances waiting
    /// for the occlusion test.
    pub fn counters(&self) -> usize {
        VIEWS * self.models * LIST_LEVELS + 1
    }

    /// Impostor cards' indirect draws: one per `[view][model]`.
    pub fn card_draws(&self) -> usize {
        VIEWS * self.models
    }

    /// Indirect draws: one per `[view][model][subset]`, each with up to a command per level.
    pub fn draws(&self) -> usize {
        VIEWS * self.models * self.subsets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_leaves_room_and_holds_what_was_asked() {
        let have = CullSizes {
            instances: 100,
            models: 2,
            subsets: 3,
            bounds: 10,
            pixels: 64,
            skin_vec4s: 1000,
        };
        let want = CullSizes {
            instances: 101,
            ..have
        };
        assert!(!have.holds(&want));
        let grown = have.grown(&want);
        assert_eq!(grown.instances, 150);
        assert!(grown.holds(&want) && grown.holds(&have));
        assert_eq!(have.grown(&have), have);
    }
}
