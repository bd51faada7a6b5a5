//! What a trajectory file says of its scene, as the scenery takes it: the walkable areas as
//! [`WalkableArea`]s.

use glam::DVec2;

use super::trajectory::{Geometry, Ring};
use crate::scene::WalkableArea;

/// The walkable areas of a file's geometry (none when it has none).
pub fn walkable_areas(geometry: Option<&Geometry>) -> Vec<WalkableArea> {
    let ring = |r: &Ring| r.0.iter().map(|&p| DVec2::from(p)).collect::<Vec<_>>();
    geometry
        .iter()
        .flat_map(|g| &g.areas)
        .map(|a| WalkableArea {
            outline: ring(&a.outline),
            holes: a.holes.iter().map(ring).collect(),
        })
        .collect()
}
