//! When more instances need exact palettes than a frame can hold, the farthest of them read
//! baked frames instead: the frame fits, and every instance still exact is nearer the eye
//! than every one that gave way.

use std::sync::Arc;

use throng::anim::Mat3x4;
use throng::crowd::visibility::{AnimationView, Frustum, ViewScale};
use throng::crowd::{AnimationMode, BakeSettings, Crowd, InstanceRecord, RECORD_BAKED, Slot};
use throng::scene::{CrowdLayout, OrbitCamera, crowd_bounds};

#[test]
fn the_farthest_read_baked_frames_when_exact_ones_do_not_fit() {
    let model = Arc::new(throng::asset::load_model(None).expect("builtin"));
    let joints = model.joint_count();
    let mut crowd = Crowd::new(1).expect("crowd");
    let id = crowd.add_model(model.clone());
    let placed = CrowdLayout::new(100, 1)
        .spawn(&mut crowd, &[id])
        .expect("spawn");
    let bounds = crowd_bounds(&placed, &[model]).expect("bounds");
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    let camera = OrbitCamera::framing(bounds.min, bounds.max, 1.0).camera();
    // An error budget so small that every instance in view wants exact palettes.
    crowd.set_view(Some(AnimationView {
        frustum: Frustum::from_clip(camera.view_proj(1.0)),
        scale: ViewScale::new(camera.eye, camera.fov_y, 720),
        max_error_px: 1e-6,
    }));
    crowd.update(1.0 / 60.0);

    let mut records = vec![InstanceRecord::default(); crowd.len()];
    let mut palettes = vec![Mat3x4::IDENTITY; crowd.len() * joints];
    let mut write = |crowd: &mut Crowd| {
        let mut slot = Slot {
            index: 0,
            records: &mut records,
            palettes: &mut palettes,
        };
        crowd.write_palettes(&mut slot).expect("frame");
    };
    write(&mut crowd);
    let wanted = crowd.counts().exact;
    assert!(wanted > 50, "most are exact without a cap: {wanted}");

    crowd.set_max_exact_matrices(20 * joints);
    write(&mut crowd);
    let counts = crowd.counts();
    assert_eq!(counts.exact, 20, "{counts:?}");
    assert_eq!(counts.palette_matrices, 20 * joints);
    let distance = |r: &InstanceRecord| camera.eye.distance(r.world.translation());
    let exact_far = records
        .iter()
        .filter(|r| r.model_flags & RECORD_BAKED == 0)
        .map(distance)
        .fold(0.0f32, f32::max);
    let baked_near = records
        .iter()
        .filter(|r| r.model_flags & RECORD_BAKED != 0)
        .map(distance)
        .fold(f32::INFINITY, f32::min);
    // Distances are to each clip's bounding sphere, which sits a little off the feet: allow
    // a character's height.
    assert!(
        exact_far <= baked_near + 2.0,
        "an exact instance at {exact_far} is farther than a baked one at {baked_near}"
    );
}
