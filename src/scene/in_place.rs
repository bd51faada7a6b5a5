//! A crowd's models with every clip that carries root motion made to tread in place, and what
//! that root motion was, so walkers can be moved at its speed instead. Done whatever the paths:
//! a clip with root motion played as it is walks away from its place and snaps back at every
//! loop, in place as much as in a lane.
//!
//! Here, beside [`play_in_place`] which it applies to each model, rather than with the rules
//! that read it: the crowds from files play their models in place too, and both kinds of
//! motion build on the scene, never the reverse.

use std::sync::Arc;

use super::root_motion::{RootMotion, play_in_place};
use crate::anim::{AnimError, SkinnedModel};

/// Models ready to walk; see the module documentation.
#[derive(Clone, Debug)]
pub struct ModelsInPlace {
    /// The models, in the order given, some with clips now played in place.
    pub models: Vec<Arc<SkinnedModel>>,
    /// Per model, the clips that had root motion and what it was (empty for a model with
    /// none).
    pub root_motion: Vec<Vec<RootMotion>>,
}

/// Each of `models` with its clips that carry root motion made to tread in place
/// ([`play_in_place`]); a model without any is kept as it is, so its palettes do not change.
pub fn play_models_in_place(models: Vec<Arc<SkinnedModel>>) -> Result<ModelsInPlace, AnimError> {
    let mut root_motion = Vec::with_capacity(models.len());
    let mut treading = Vec::with_capacity(models.len());
    for model in models {
        match play_in_place(&model)? {
            Some((in_place, found)) => {
                treading.push(Arc::new(in_place));
                root_motion.push(found);
            }
            None => {
                treading.push(model);
                root_motion.push(Vec::new());
            }
        }
    }
    Ok(ModelsInPlace {
        models: treading,
        root_motion,
    })
}
