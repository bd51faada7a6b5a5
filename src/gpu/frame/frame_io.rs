//! What a frame is made of, as the renderer's callers see it: the camera, light and ground
//! ([`FrameInputs`]) and what the frame cost ([`FrameTimes`], [`PassTime`]). The image drawn
//! into and the semaphores around it are the device floor's
//! ([`TargetImage`](crate::gpu::device::targets::TargetImage),
//! [`FrameSync`](crate::gpu::device::targets::FrameSync)).

use glam::{Mat4, Vec3, Vec4};

use crate::gpu::frame::settings::ViewMode;
use crate::scene::{Camera, Light};

/// Camera, light, ground and view of a frame (from `scene`).
#[derive(Clone, Copy, Debug)]
pub struct FrameInputs {
    /// World to Vulkan clip space.
    pub view_proj: Mat4,
    /// World to view space.
    pub view: Mat4,
    /// View to clip space.
    pub proj: Mat4,
    /// The eye.
    pub eye: Vec3,
    /// Unit vector towards the light.
    pub light_dir: Vec3,
    /// Light colour times intensity (linear).
    pub light_color: Vec3,
    /// Hemispheric ambient from above.
    pub sky: Vec3,
    /// Hemispheric ambient from below.
    pub ground_ambient: Vec3,
    /// Ground quad: centre (x, z), half size, height.
    pub ground_plane: Vec4,
    /// Size of the ground's checker tiles (world units).
    pub ground_tile: f32,
    /// The box that casts and receives shadows (the crowd, its ground around it): the
    /// sun's shadow frustum is fitted to it.
    pub shadow_box: (Vec3, Vec3),
    /// Ambient-occlusion radius, world units.
    pub ssao_radius: f32,
    /// What the frame shows.
    pub view_mode: ViewMode,
    /// Seconds since the previous frame, by which what adapts over time moves (auto
    /// exposure); [`FrameInputs::new`] says 1/60.
    pub dt: f32,
}

impl FrameInputs {
    /// A frame seen through `camera` at `aspect` (width / height), lit by `light`, over a
    /// ground quad `ground_plane` (centre x, z; half size; height) of `ground_tile` tiles.
    /// The shadow box starts as the ground quad up to `ground_tile * 4` high and the
    /// occlusion radius as half a tile: set them to the crowd's for better shadows.
    pub fn new(
        camera: &Camera,
        aspect: f32,
        light: &Light,
        ground_plane: Vec4,
        ground_tile: f32,
        view_mode: ViewMode,
    ) -> Self {
        let half = ground_plane.z;
        Self {
            view_proj: camera.view_proj(aspect),
            view: camera.view(),
            proj: camera.projection(aspect),
            eye: camera.eye,
            light_dir: light.sun.direction,
            light_color: light.sun.color * light.sun.intensity,
            sky: light.ambient.sky,
            ground_ambient: light.ambient.ground,
            ground_plane,
            ground_tile,
            shadow_box: (
                Vec3::new(ground_plane.x - half, ground_plane.w, ground_plane.y - half),
                Vec3::new(
                    ground_plane.x + half,
                    ground_plane.w + ground_tile * 4.0,
                    ground_plane.y + half,
                ),
            ),
            ssao_radius: ground_tile * 0.5,
            view_mode,
            dt: 1.0 / 60.0,
        }
    }
}

/// What a frame cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameTimes {
    /// Milliseconds the crowd took to write the ring slot (palettes and records), waiting for
    /// the slot left out.
    pub palette_ms: f64,
    /// Milliseconds the frame waited for the GPU: for its ring slot to be released (the GPU
    /// still reading a frame in flight) and for the frame in flight to finish.
    pub wait_ms: f64,
    /// GPU milliseconds of an earlier frame (timestamps are read without waiting, when the
    /// frame-in-flight's resources come round again); `None` until the first is known.
    pub gpu_ms: Option<f64>,
}

/// Running GPU time of one pass.
#[derive(Clone, Copy, Debug)]
pub struct PassTime {
    /// The pass's name.
    pub name: &'static str,
    /// Milliseconds summed over the frames counted.
    pub total_ms: f64,
    /// Frames counted.
    pub frames: u64,
    /// The last frame's milliseconds.
    pub last_ms: f64,
}

impl PassTime {
    /// Average milliseconds per frame.
    pub fn average_ms(&self) -> f64 {
        if self.frames == 0 {
            0.0
        } else {
            self.total_ms / self.frames as f64
        }
    }
}
