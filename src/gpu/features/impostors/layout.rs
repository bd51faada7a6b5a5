//! Where each picture of a model sits in its impostor atlas, and what each picture shows.
//!
//! A picture (a cell) is the model seen from one of `views` directions at one of `frames`
//! moments of one clip: rings of `azimuths` directions around the character at each of
//! `elevations` heights above the horizon ([`ELEVATIONS_DEG`]), at evenly spaced phases of
//! the clip. Cells are `cell` pixels square, laid out one view per column and one (clip,
//! frame) per row. Each cell is an orthographic view of the sphere (`centre`, `radius`) that
//! holds every pose of every clip, so one card size serves every frame.

use glam::{Mat4, Vec3};

/// The elevations of the rings of views, degrees above the horizon: from the street (a few
/// degrees) to a camera high over the crowd.
pub const ELEVATIONS_DEG: [f32; 4] = [0.0, 25.0, 50.0, 75.0];
/// Directions around the character on each ring: 22.5 degrees apart. Eight (45 degrees)
/// left the overview of 1,000 cards 1.98 levels per channel from its meshes, sixteen 1.61.
pub const AZIMUTHS: u32 = 16;
/// The most frames a clip gets.
pub const MAX_FRAMES: u32 = 16;
/// The fewest frames a clip gets.
pub const MIN_FRAMES: u32 = 4;
/// Bytes per texel over both atlas images (colour and coverage; normal and depth).
pub const BYTES_PER_TEXEL: u64 = 8;

/// See the module documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtlasLayout {
    /// Directions on each ring.
    pub azimuths: u32,
    /// Rings ([`ELEVATIONS_DEG`] from the first).
    pub elevations: u32,
    /// Frames per clip.
    pub frames: u32,
    /// Clips.
    pub clips: u32,
    /// Pixels on a side of a cell.
    pub cell: u32,
    /// The centre of the sphere every pose fits in, model space.
    pub centre: Vec3,
    /// Its radius, model units.
    pub radius: f32,
}

/// A view's camera: the direction from the centre towards it and the cell's right and up
/// (model space, unit, orthogonal; `up` leans towards +Y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewBasis {
    /// Unit vector from the centre towards the camera.
    pub towards: Vec3,
    /// The cell's x axis.
    pub right: Vec3,
    /// The cell's y axis.
    pub up: Vec3,
}

impl AtlasLayout {
    /// Views in all.
    pub fn views(&self) -> u32 {
        self.azimuths * self.elevations
    }

    /// The atlas's size in pixels (width, height).
    pub fn size(&self) -> (u32, u32) {
        (
            self.views() * self.cell,
            self.clips * self.frames * self.cell,
        )
    }

    /// Bytes of both atlas images.
    pub fn bytes(&self) -> u64 {
        let (w, h) = self.size();
        u64::from(w) * u64::from(h) * BYTES_PER_TEXEL
    }

    /// The camera of view `view` (azimuth-major: `view = ring * azimuths + azimuth`).
    pub fn view_basis(&self, view: u32) -> ViewBasis {
        let azimuth = (view % self.azimuths) as f32 / self.azimuths as f32 * std::f32::consts::TAU;
        let ring = (view / self.azimuths).min(ELEVATIONS_DEG.len() as u32 - 1) as usize;
        let elevation = ELEVATIONS_DEG[ring].to_radians();
        let towards = Vec3::new(
            azimuth.sin() * elevation.cos(),
            elevation.sin(),
            azimuth.cos() * elevation.cos(),
        );
        // Right-handed: right = up_world x towards, so that looking along -towards, +x is to
        // the right and +y up on the picture.
        let right = Vec3::Y.cross(towards).normalize();
        let up = towards.cross(right);
        ViewBasis { towards, right, up }
    }

    /// The view nearest `towards` (a direction from the centre towards a camera, model
    /// space): the nearest azimuth on the nearest ring (below the lowest ring, the lowest;
    /// above the highest, the highest).
    pub fn nearest_view(&self, towards: Vec3) -> u32 {
        let d = towards.normalize_or(Vec3::Z);
        let elevation = d.y.clamp(-1.0, 1.0).asin().to_degrees();
        let ring = (0..self.elevations as usize)
            .min_by(|&a, &b| {
                (ELEVATIONS_DEG[a] - elevation)
                    .abs()
                    .total_cmp(&(ELEVATIONS_DEG[b] - elevation).abs())
            })
            .unwrap_or(0) as u32;
        let azimuth = d.x.atan2(d.z).rem_euclid(std::f32::consts::TAU);
        let step = std::f32::consts::TAU / self.azimuths as f32;
        let a = ((azimuth / step).round() as u32) % self.azimuths;
        ring * self.azimuths + a
    }

    /// The frame shown at `phase` (0 to 1 through the clip): the nearest, the clip looping.
    pub fn frame_at(&self, phase: f32) -> u32 {
        let phase = if phase.is_finite() {
            phase.clamp(0.0, 1.0)
        } else {
            0.0
        };
        ((phase * self.frames as f32).round() as u32) % self.frames
    }

    /// The phase frame `frame` shows.
    pub fn phase_of(&self, frame: u32) -> f32 {
        frame as f32 / self.frames as f32
    }

    /// The top-left pixel of the cell of `view`, `clip` and `frame`.
    pub fn cell_origin(&self, view: u32, clip: u32, frame: u32) -> (u32, u32) {
        (view * self.cell, (clip * self.frames + frame) * self.cell)
    }

    /// The orthographic camera of a cell, model space to Vulkan clip space: x and y over the
    /// sphere's square, depth 0 on its near side (towards the camera) and 1 on its far side.
    pub fn cell_view_proj(&self, view: u32) -> Mat4 {
        let b = self.view_basis(view);
        let r = self.radius.max(1e-6);
        // Rows: x = right . (p - c) / r, y = -(up . (p - c)) / r (Vulkan's y points down),
        // z = 0.5 - towards . (p - c) / (2 r).
        let row = |axis: Vec3, scale: f32, offset: f32| {
            let a = axis * scale;
            glam::Vec4::new(a.x, a.y, a.z, offset - a.dot(self.centre))
        };
        Mat4::from_cols(
            row(b.right, 1.0 / r, 0.0),
            row(b.up, -1.0 / r, 0.0),
            row(b.towards, -0.5 / r, 0.5),
            glam::Vec4::new(0.0, 0.0, 0.0, 1.0),
        )
        .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> AtlasLayout {
        AtlasLayout {
            azimuths: AZIMUTHS,
            elevations: ELEVATIONS_DEG.len() as u32,
            frames: 8,
            clips: 3,
            cell: 64,
            centre: Vec3::new(0.0, 0.9, 0.0),
            radius: 1.0,
        }
    }

    #[test]
    fn every_view_is_the_nearest_to_itself_and_its_basis_is_orthonormal() {
        let l = layout();
        for v in 0..l.views() {
            let b = l.view_basis(v);
            assert_eq!(l.nearest_view(b.towards), v);
            for (a, c) in [(b.right, b.up), (b.up, b.towards), (b.towards, b.right)] {
                assert!(a.dot(c).abs() < 1e-5);
            }
            assert!((b.right.cross(b.up) - b.towards).length() < 1e-5);
            assert!(b.up.y >= 0.0, "up leans upwards");
        }
        // Straight down onto the character: the highest ring; from below: the lowest.
        assert_eq!(l.nearest_view(Vec3::Y) / l.azimuths, l.elevations - 1);
        assert_eq!(l.nearest_view(-Vec3::Y) / l.azimuths, 0);
    }

    #[test]
    fn a_cell_camera_maps_the_sphere_onto_the_cell() {
        let l = layout();
        for v in 0..l.views() {
            let m = l.cell_view_proj(v);
            let b = l.view_basis(v);
            let at = |p: Vec3| m.project_point3(p);
            let c = at(l.centre);
            assert!(c.truncate().length() < 1e-5 && (c.z - 0.5).abs() < 1e-5);
            assert!((at(l.centre + b.right).x - 1.0).abs() < 1e-5);
            assert!(
                (at(l.centre + b.up).y + 1.0).abs() < 1e-5,
                "up is -y in Vulkan"
            );
            assert!(
                at(l.centre + b.towards).z.abs() < 1e-5,
                "near side at depth 0"
            );
            assert!((at(l.centre - b.towards).z - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn frames_loop_and_cells_tile_the_atlas() {
        let l = layout();
        assert_eq!(l.frame_at(0.0), 0);
        assert_eq!(l.frame_at(1.0), 0, "the end of a loop is its start");
        assert_eq!(l.frame_at(0.5), 4);
        assert_eq!(l.frame_at(f32::NAN), 0);
        let views = AZIMUTHS * ELEVATIONS_DEG.len() as u32;
        assert_eq!(l.views(), views);
        assert_eq!(l.size(), (views * 64, 24 * 64));
        assert_eq!(l.bytes(), u64::from(views * 64 * 24 * 64) * 8);
        assert_eq!(
            l.cell_origin(views - 1, 2, 7),
            ((views - 1) * 64, 23 * 64),
            "the last view, clip and frame end at the atlas's corner"
        );
    }
}
