//! What a trajectory file says, as the playback and the scenery take it: each track a
//! [`Pedestrian`] (its path and its height), the walkable areas as [`WalkableArea`]s.

use glam::DVec2;

use super::playback::Pedestrian;
use super::track_path::TrackPath;
use super::trajectory::{Ring, Trajectories};
use crate::scene::WalkableArea;

/// Every track of `file` as a pedestrian: its samples joined into a path, its height the
/// median of the heights the file gives (a tracked head bobs; a simulation's is constant).
pub fn pedestrians(file: &Trajectories) -> Vec<Pedestrian> {
    file.tracks
        .iter()
        .map(|t| {
            let path = TrackPath::new(t.samples.iter().map(|s| (s.time, DVec2::from(s.position))));
            let mut heights: Vec<f32> = t.samples.iter().filter_map(|s| s.height).collect();
            heights.sort_by(f32::total_cmp);
            let height = heights.get(heights.len() / 2).copied();
            Pedestrian {
                id: t.id,
                path,
                height,
            }
        })
        .collect()
}

/// The file's walkable areas (none when it has no geometry).
pub fn walkable_areas(file: &Trajectories) -> Vec<WalkableArea> {
    let ring = |r: &Ring| r.0.iter().map(|&p| DVec2::from(p)).collect::<Vec<_>>();
    file.geometry
        .iter()
        .flat_map(|g| &g.areas)
        .map(|a| WalkableArea {
            outline: ring(&a.outline),
            holes: a.holes.iter().map(ring).collect(),
        })
        .collect()
}
