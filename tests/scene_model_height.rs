//! Models of very different sizes in one crowd stand at comparable heights: matched to the
//! tallest when their heights differ more than twice, or scaled to a stated height; feet stay
//! on the ground, and the grid's pitch follows the scaled footprints.

mod common;

use std::sync::Arc;

use throng::anim::SkinnedModel;
use throng::scene::{CrowdLayout, ModelHeight, crowd_bounds};

fn load(relative: &str) -> Arc<SkinnedModel> {
    let path = common::shared_asset(relative);
    Arc::new(throng::asset::load_file(&path).unwrap_or_else(|e| panic!("{relative}: {e}")))
}

/// Each model's standing height (bottom and top) in the crowd `layout` places.
fn standing(layout: CrowdLayout, models: &[Arc<SkinnedModel>]) -> Vec<(f32, f32)> {
    let placed = layout.place(models);
    (0..models.len())
        .map(|m| {
            let own: Vec<_> = placed.iter().filter(|p| p.model == m).copied().collect();
            let b = crowd_bounds(&own, models).expect("vertices");
            (b.min.y, b.max.y)
        })
        .collect()
}

#[test]
fn heights_that_differ_more_than_twice_are_matched() {
    // CesiumMan stands 1.5 tall, the robot 4.5.
    let models = [load("gltf/CesiumMan.glb"), load("gltf/robot.glb")];
    let native = CrowdLayout {
        height: ModelHeight::Native,
        ..CrowdLayout::new(8, 1)
    };
    let h = standing(native, &models);
    let ratio = (h[1].1 - h[1].0) / (h[0].1 - h[0].0);
    assert!(ratio > 2.5, "as the files make them: {h:?}");

    let matched = CrowdLayout::new(8, 1);
    assert_eq!(matched.height, ModelHeight::Matched, "the default");
    let h = standing(matched, &models);
    for &(bottom, top) in &h {
        // The layout stands a model on its first frame's feet; the bind pose measured here
        // may sit a little off.
        assert!(bottom.abs() < 0.01 * top, "feet on the ground: {h:?}");
        assert!(
            (top - h[1].1).abs() < 0.02 * h[1].1,
            "as tall as the robot: {h:?}"
        );
    }
    // Wider footprints, wider grid.
    assert!(matched.cell_size(&models) >= native.cell_size(&models));

    let fixed = CrowdLayout {
        height: ModelHeight::Fixed(1.8),
        ..CrowdLayout::new(8, 1)
    };
    for &(bottom, top) in &standing(fixed, &models) {
        assert!(
            bottom.abs() < 0.02 && (top - 1.8).abs() < 0.04,
            "{bottom} to {top}"
        );
    }
}

#[test]
fn heights_within_twice_stand_as_they_are() {
    assert_eq!(ModelHeight::Matched.scales(&[1.5, 2.9]), [1.0, 1.0]);
    assert_eq!(ModelHeight::Matched.scales(&[1.0, 4.0]), [4.0, 1.0]);
    assert_eq!(ModelHeight::Native.scales(&[1.0, 4.0]), [1.0, 1.0]);
    assert_eq!(ModelHeight::Fixed(2.0).scales(&[1.0, 4.0]), [2.0, 0.5]);
    // A model with no height keeps its size.
    assert_eq!(
        ModelHeight::Matched.scales(&[0.0, 1.0, 3.0]),
        [1.0, 3.0, 1.0]
    );
}
