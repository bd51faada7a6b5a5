//! Props carried by a share of a crowd: every instance of a model with props
//! ([`crate::asset::props`]) has them in its mesh, and those that should not carry them wear a
//! twin of their look with the props' materials hidden ([`Look::hidden`]).

use std::collections::HashMap;
use std::ops::Range;

use super::rng::SplitMix64;
use crate::crowd::{Crowd, CrowdError, Look, LookId, MAX_LOOK_TINTS};

/// Mixed into the seed for the draws: their own stream, apart from the layout's and the
/// variety's.
const PROP_STREAM: u64 = 0x5052_4f50_5348_4152;

/// Leaves the props out of all but `share` (0 to 1) of `crowd`'s instances, chosen from
/// `seed`: each instance not carrying them wears a twin of its look with its model's props'
/// materials (`prop_materials`, per model index) hidden. A twin is added once per look and
/// model. Materials past [`MAX_LOOK_TINTS`] cannot be hidden and stay drawn.
pub fn leave_props_off(
    crowd: &mut Crowd,
    prop_materials: &[Range<usize>],
    share: f32,
    seed: u64,
) -> Result<(), CrowdError> {
    if share >= 1.0 || prop_materials.iter().all(|r| r.is_empty()) {
        return Ok(());
    }
    let mut rng = SplitMix64::new(seed ^ PROP_STREAM);
    let mut twins: HashMap<(u32, LookId), LookId> = HashMap::new();
    for i in 0..crowd.len() {
        if rng.unit() < share {
            continue;
        }
        let model = crowd.model_of(i).0;
        let props = prop_materials.get(model as usize).cloned().unwrap_or(0..0);
        let mask = props
            .filter(|&m| m < MAX_LOOK_TINTS)
            .fold(0u8, |mask, m| mask | 1 << m);
        if mask == 0 {
            continue;
        }
        let look = crowd.look_of(i);
        let twin = match twins.get(&(model, look)) {
            Some(&t) => t,
            None => {
                let mut bare: Look = crowd.looks()[look.0 as usize];
                bare.hidden |= mask;
                let t = crowd.add_look(bare)?;
                twins.insert((model, look), t);
                t
            }
        };
        crowd.set_look(i, twin)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::Mat3x4;
    use crate::asset::builtin;

    #[test]
    fn a_share_carries_the_props_and_the_rest_wear_twins_without_them() {
        let mut crowd = Crowd::new(1).expect("crowd");
        let model = crowd.add_model(Arc::new(builtin::model().expect("builtin")));
        for _ in 0..400 {
            crowd.spawn(model, Mat3x4::IDENTITY).expect("spawn");
        }
        // Material 1 is the prop. All carry it: nothing changes.
        let props = vec![1..2; 1];
        leave_props_off(&mut crowd, &props, 1.0, 3).expect("share");
        assert_eq!(crowd.looks().len(), 1);
        leave_props_off(&mut crowd, &props, 0.25, 3).expect("share");
        // One twin of the plain look, material 1 hidden, worn by about three quarters.
        assert_eq!(crowd.looks().len(), 2);
        assert_eq!(crowd.looks()[1].hidden, 0b10);
        let bare = (0..400).filter(|&i| crowd.look_of(i) == LookId(1)).count();
        assert!(
            (260..340).contains(&bare),
            "{bare} of 400 without the props"
        );
    }
}
