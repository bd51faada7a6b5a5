//! Where instances stand and when they start: the square grid and the golden-ratio phases that
//! `throng run`, the benchmarks' callers and [`CrowdLayout`](super::CrowdLayout) share.

use glam::{Quat, Vec3A};

use crate::anim::{AnimError, Mat3x4, SkinnedModelInstance};
use crate::crowd::{Crowd, CrowdError, ModelId};

/// Instance `i`'s start time: spread over the clip by the golden ratio, so that instances are
/// at independent times and no two neighbours share keys.
pub fn independent_time(i: usize, duration: f32) -> f32 {
    let golden = 0.618_034_f64;
    ((i as f64 * golden).fract() as f32) * duration
}

/// The columns and rows of the most nearly square grid with room for `count` cells (at least
/// one of each); cell `i` is at column `i % columns`, row `i / columns`.
pub fn grid_shape(count: usize) -> (usize, usize) {
    let columns = (count as f64).sqrt().ceil().max(1.0) as usize;
    (columns, count.div_ceil(columns).max(1))
}

/// Spawns `count` instances of `model` on a square grid one unit apart (x and z, from the
/// origin towards +x and +z), letting `configure` set each one's clip, time and speed.
pub fn spawn_on_grid(
    crowd: &mut Crowd,
    model: ModelId,
    count: usize,
    mut configure: impl FnMut(usize, &mut SkinnedModelInstance) -> Result<(), AnimError>,
) -> Result<(), CrowdError> {
    let (columns, _) = grid_shape(count);
    for i in 0..count {
        let at = Vec3A::new((i % columns) as f32, 0.0, (i / columns) as f32);
        let index = crowd.spawn(model, Mat3x4::from_trs(at, Quat::IDENTITY, Vec3A::ONE))?;
        configure(i, crowd.instance_mut(index))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_is_square_ish_and_holds_everyone() {
        assert_eq!(grid_shape(0), (1, 1));
        assert_eq!(grid_shape(1), (1, 1));
        assert_eq!(grid_shape(10), (4, 3));
        assert_eq!(grid_shape(16), (4, 4));
        for n in 1..200 {
            let (c, r) = grid_shape(n);
            assert!(c * r >= n && c * (r - 1) < n, "{n}");
        }
    }

    #[test]
    fn phases_stay_in_the_clip() {
        for i in 0..100 {
            let t = independent_time(i, 2.5);
            assert!((0.0..2.5).contains(&t));
        }
        assert_ne!(independent_time(1, 1.0), independent_time(2, 1.0));
    }
}
