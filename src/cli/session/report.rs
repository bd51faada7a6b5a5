//! The lines a session says about its models when it starts: clips that walk by root motion,
//! and the scales that made the models stand the same height.

use std::sync::Arc;

use throng::anim::SkinnedModel;
use throng::scene::{ModelHeight, RootMotion, footprint};

/// `robot: Robot_Walking (1.23 units/s) walks by root motion`, one line per model with such
/// clips (`A (..), B (..) walk by ...` for several); speeds in world units, after the model's
/// scale, as walkers move.
pub(super) fn root_motion_lines(
    models: &[Arc<SkinnedModel>],
    scales: &[f32],
    motions: &[Vec<RootMotion>],
) -> Vec<String> {
    models
        .iter()
        .zip(scales)
        .zip(motions)
        .filter(|(_, found)| !found.is_empty())
        .map(|((model, scale), found)| {
            let clips: Vec<String> = found
                .iter()
                .map(|m| {
                    let name = model.clips().get(m.clip).map_or("", |c| c.name());
                    let off = m.off_forward().to_degrees();
                    // A travel off forward is dropped but for its forward part: say so.
                    let aside = if off > 10.0 {
                        format!(", travelling {off:.0} degrees off forward")
                    } else {
                        String::new()
                    };
                    format!(
                        "{} ({:.2} units/s{aside})",
                        throng::text::printable(name),
                        m.speed() * scale
                    )
                })
                .collect();
            format!(
                "{}: {} {} by root motion",
                throng::text::printable(model.name()),
                clips.join(", "),
                if found.len() == 1 { "walks" } else { "walk" }
            )
        })
        .collect()
}

/// `models scaled to stand H tall (why): name xS, ...` when a scale is not 1.
pub(super) fn scale_line(
    height: ModelHeight,
    models: &[Arc<SkinnedModel>],
    scales: &[f32],
) -> Option<String> {
    if scales.iter().all(|&s| s == 1.0) {
        return None;
    }
    let stand = models
        .iter()
        .zip(scales)
        .map(|(m, s)| footprint(m).1 * s)
        .fold(0.0, f32::max);
    let why = match height {
        ModelHeight::Fixed(_) => "--model-height".to_string(),
        _ => format!(
            "their heights differ more than {}x; --model-height H sets one",
            throng::scene::MATCH_RATIO
        ),
    };
    let each: Vec<String> = models
        .iter()
        .zip(scales)
        .map(|(m, s)| format!("{} x{s:.4}", throng::text::printable(m.name())))
        .collect();
    Some(format!(
        "models scaled to stand {stand:.3} tall ({why}): {}",
        each.join(", ")
    ))
}
