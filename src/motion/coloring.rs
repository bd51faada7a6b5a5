//! Pedestrians tinted by what the field plots: their speed (metres per second) or their local
//! density (persons per square metre, counted among their neighbours), on one colour ramp
//! from blue (low) through cyan, green and yellow to red (high). Each model gets a look per
//! step of the ramp, its clothes dyed the step's colour (skin keeps its own), and a pedestrian
//! changes look only when its value crosses into another step: a look change is an index in
//! its record, never an upload.

use glam::DVec2;

use crate::anim::SkinnedModel;
use crate::crowd::{Look, MAX_LOOK_TINTS};
use crate::scene::{MaterialRole, material_role};

/// What the colours show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorBy {
    /// Speed, 0 to [`SPEED_TOP`] m/s.
    Speed,
    /// Local density, 0 to [`DENSITY_TOP`] persons per m².
    Density,
}

/// The speed at the ramp's red end, m/s (a brisk walk is 1.3-1.5; running is off the scale).
pub const SPEED_TOP: f32 = 2.0;
/// The density at the ramp's red end, persons per m² (a jam; free flow is below 1).
pub const DENSITY_TOP: f32 = 4.0;
/// The radius density is counted in, metres: a circle of a little over 3 m².
pub const DENSITY_RADIUS: f64 = super::device_codes::DENSITY_RADIUS_MM as f64 / 1000.0;

/// The ramp's stops, linear RGB, low to high. `shaders/hud.frag` draws the legend in the
/// same colours (a test keeps the two alike).
pub const RAMP: [[f32; 3]; 5] = [
    [0.05, 0.20, 0.90],
    [0.02, 0.65, 0.80],
    [0.15, 0.70, 0.12],
    [0.90, 0.75, 0.05],
    [0.90, 0.08, 0.05],
];

/// Steps of the ramp a pedestrian's look can take.
pub const STEPS: usize = super::device_codes::RAMP_STEPS as usize;

impl ColorBy {
    /// The value at the ramp's red end.
    pub fn top(self) -> f32 {
        match self {
            ColorBy::Speed => SPEED_TOP,
            ColorBy::Density => DENSITY_TOP,
        }
    }

    /// The legend's unit.
    pub fn unit(self) -> &'static str {
        match self {
            ColorBy::Speed => "speed m/s",
            ColorBy::Density => "density 1/m2",
        }
    }

    /// The ramp step of `value`.
    pub fn step(self, value: f32) -> usize {
        let x = (value / self.top()).clamp(0.0, 1.0);
        if x.is_nan() {
            return 0;
        }
        ((x * (STEPS - 1) as f32).round() as usize).min(STEPS - 1)
    }
}

/// The ramp's colour at `x` in 0..=1 (linear between stops).
pub fn ramp(x: f32) -> [f32; 3] {
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    let f = x * (RAMP.len() - 1) as f32;
    let i = (f.floor() as usize).min(RAMP.len() - 2);
    let t = f - i as f32;
    let (a, b) = (RAMP[i], RAMP[i + 1]);
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * t)
}

/// The looks of `model` for the ramp's [`STEPS`]: every material but skin dyed the step's
/// colour (a plain material's tint brings its colour to the dye; a textured one is
/// multiplied by it, so its detail stays).
pub fn ramp_looks(model: &SkinnedModel) -> Vec<Look> {
    let materials = &model.mesh().materials;
    (0..STEPS)
        .map(|s| {
            let dye = ramp(s as f32 / (STEPS - 1) as f32);
            let mut look = Look::PLAIN;
            for (tint, m) in look.tints.iter_mut().zip(materials).take(MAX_LOOK_TINTS) {
                if material_role(m) == MaterialRole::Skin {
                    continue;
                }
                *tint = if m.base_color_texture.is_some() {
                    dye.map(|d| d * 1.6)
                } else {
                    [0, 1, 2].map(|c| (dye[c] / m.base_color[c].max(0.04)).min(12.0))
                };
            }
            look
        })
        .collect()
}

/// The count of persons within [`DENSITY_RADIUS`] at which the density reaches
/// [`DENSITY_TOP`], the ramp's last step (13: every count from it on wears that step).
pub fn top_count() -> u32 {
    let area = (std::f64::consts::PI * DENSITY_RADIUS * DENSITY_RADIUS) as f32;
    (DENSITY_TOP * area).ceil() as u32
}

/// Counts neighbours for densities without allocating after its first use: members sorted
/// by grid cell, each counted against the nine cells around it.
#[derive(Clone, Debug, Default)]
pub struct DensityGrid {
    /// (cell key, member) sorted by key.
    cells: Vec<(u64, u32)>,
}

/// A cell's key from its integer coordinates.
fn key(cx: i64, cy: i64) -> u64 {
    ((cx as u64 & 0xFFFF_FFFF) << 32) | (cy as u64 & 0xFFFF_FFFF)
}

fn cell_of(p: DVec2) -> (i64, i64) {
    (
        (p.x / DENSITY_RADIUS).floor() as i64,
        (p.y / DENSITY_RADIUS).floor() as i64,
    )
}

impl DensityGrid {
    /// A grid with room for `capacity` members.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            cells: Vec::with_capacity(capacity),
        }
    }

    /// Each position's density (persons within [`DENSITY_RADIUS`], itself included, over the
    /// circle's area) written to `out` in order.
    pub fn densities(&mut self, positions: &[DVec2], out: &mut [f32]) {
        self.densities_up_to(positions, out, u32::MAX);
    }

    /// As [`Self::densities`], each count stopped at `most` persons: past the ramp's top
    /// ([`top_count`]) every count wears the last step, and a crowd standing on one spot then
    /// costs each of its members a few neighbours, not all of them (as on the GPU).
    pub fn densities_up_to(&mut self, positions: &[DVec2], out: &mut [f32], most: u32) {
        self.cells.clear();
        for (k, &p) in positions.iter().enumerate() {
            let (cx, cy) = cell_of(p);
            self.cells.push((key(cx, cy), k as u32));
        }
        self.cells.sort_unstable();
        let area = (std::f64::consts::PI * DENSITY_RADIUS * DENSITY_RADIUS) as f32;
        let list: &[(u64, u32)] = &self.cells;
        for (k, &p) in positions.iter().enumerate() {
            let (cx, cy) = cell_of(p);
            let mut count = 0u32;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let want = key(cx + dx, cy + dy);
                    let from = list.partition_point(|c| c.0 < want);
                    count += list[from..]
                        .iter()
                        .take_while(|c| c.0 == want)
                        .filter(|c| (positions[c.1 as usize] - p).length() <= DENSITY_RADIUS)
                        .take(most.saturating_sub(count) as usize)
                        .count() as u32;
                }
            }
            if let Some(o) = out.get_mut(k) {
                *o = count as f32 / area;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_runs_from_blue_to_red_through_its_stops() {
        let near = |a: [f32; 3], b: [f32; 3]| (0..3).all(|c| (a[c] - b[c]).abs() < 1e-6);
        assert!(near(ramp(0.0), RAMP[0]));
        assert!(near(ramp(1.0), RAMP[4]));
        assert!(near(ramp(0.5), RAMP[2]));
        assert!(near(ramp(f32::NAN), RAMP[0]));
        assert_eq!(ColorBy::Speed.step(0.0), 0);
        assert_eq!(ColorBy::Speed.step(5.0), STEPS - 1);
        assert_eq!(ColorBy::Density.step(2.0), 8);
    }

    #[test]
    fn the_hud_legend_draws_the_same_ramp() {
        let shader = include_str!("../../shaders/hud.frag");
        for [r, g, b] in RAMP {
            let written = format!("vec3({r:.2}, {g:.2}, {b:.2})");
            assert!(shader.contains(&written), "hud.frag lacks {written}");
        }
    }

    #[test]
    fn counts_stop_at_the_ramps_top_where_its_step_no_longer_changes() {
        assert_eq!(top_count(), 13);
        let area = std::f32::consts::PI;
        assert_eq!(ColorBy::Density.step(12.0 / area), STEPS - 2);
        assert_eq!(ColorBy::Density.step(13.0 / area), STEPS - 1);
        // Forty on one spot: each counts 13 up to the top, all forty without.
        let pts = vec![DVec2::new(3.0, -2.0); 40];
        let mut grid = DensityGrid::with_capacity(40);
        let (mut capped, mut all) = ([0.0; 40], [0.0; 40]);
        grid.densities_up_to(&pts, &mut capped, top_count());
        grid.densities(&pts, &mut all);
        assert!(capped.iter().all(|&d| d == 13.0 / area), "{capped:?}");
        assert!(all.iter().all(|&d| d == 40.0 / area), "{all:?}");
        assert!(
            capped
                .iter()
                .all(|&d| ColorBy::Density.step(d) == STEPS - 1)
        );
    }

    #[test]
    fn densities_count_neighbours_within_the_radius() {
        let pts = [
            DVec2::new(0.0, 0.0),
            DVec2::new(0.5, 0.0),
            DVec2::new(0.0, 0.9),
            DVec2::new(5.0, 5.0),
            DVec2::new(-0.99, 0.0),
        ];
        let mut grid = DensityGrid::with_capacity(8);
        let mut out = [0.0; 5];
        grid.densities(&pts, &mut out);
        let area = std::f32::consts::PI;
        let counts: Vec<u32> = out.iter().map(|d| (d * area).round() as u32).collect();
        // (0.5, 0) and (0, 0.9) are 1.03 m apart: just outside each other's circle.
        assert_eq!(counts, [4, 2, 2, 1, 2]);
    }

    #[test]
    fn ramp_looks_dye_clothes_and_keep_skin() {
        let model = crate::asset::load_model(None).expect("builtin");
        let looks = ramp_looks(&model);
        assert_eq!(looks.len(), STEPS);
        for (m, mat) in model.mesh().materials.iter().enumerate() {
            let c = |s: usize| [0, 1, 2].map(|k| looks[s].tints[m][k] * mat.base_color[k]);
            if material_role(mat) == MaterialRole::Skin {
                assert_eq!(looks[0].tints[m], [1.0; 3]);
            } else {
                let (lo, hi) = (c(0), c(STEPS - 1));
                assert!(
                    lo[2] > lo[0] && hi[0] > hi[2],
                    "{}: {lo:?} {hi:?}",
                    mat.name
                );
            }
        }
    }
}
