//! Looking up and blending baked frames performs no heap allocation: `frame_at` and `sample`
//! run once per instance and frame. One test in this binary, so nothing else allocates while
//! it counts.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{peak_of, serial};
use throng::anim::{Mat3x4, bake_clip};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn frame_at_and_sample_do_not_allocate() {
    let _serial = serial();
    let model = throng::asset::builtin::model().expect("builtin");
    let baked = bake_clip(&model, 1, 30.0).expect("bake");
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    let ((), peak) = peak_of(|| {
        for k in 0..1000 {
            let t = k as f32 * 0.0031 - 0.5;
            let (f, w) = baked.frame_at(t);
            assert!(f + 1 < baked.frames() && (0.0..=1.0).contains(&w));
            baked.sample(t, &mut out);
        }
        baked.sample(f32::NAN, &mut out);
    });
    assert_eq!(peak, 0, "frame_at or sample allocated {peak} bytes");
}
