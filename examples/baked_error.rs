//! The error of baked animation against exact palettes, per clip and rate, as a Markdown
//! table: the worst joint position error and the worst skinned vertex error, in the model's
//! units, measured at every frame and 16 times between frames.
//!
//!     cargo run --release --example baked_error -- builtin ../shared/assets/m3d/soldier.m3d
//!
//! docs/crowds-at-scale.md carries its output.

use std::process::ExitCode;

use throng::anim::{SkinnedModel, bake_clip, bake_error};

const RATES: [f32; 3] = [15.0, 30.0, 60.0];
const SUBSAMPLES: u32 = 16;

fn load(name: &str) -> Result<SkinnedModel, String> {
    if name == "builtin" {
        throng::asset::builtin::model().map_err(|e| e.to_string())
    } else {
        throng::asset::load_file(std::path::Path::new(name)).map_err(|e| format!("{name}: {e}"))
    }
}

fn height(model: &SkinnedModel) -> f32 {
    throng::anim::bind_bounds(model).map_or(0.0, |b| b.size().y)
}

fn main() -> ExitCode {
    let names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        eprintln!("usage: baked_error MODEL... (builtin or model files)");
        return ExitCode::from(2);
    }
    println!(
        "| model (height) | clip (s) | joint error at 15 / 30 / 60 fps | vertex error at 15 / 30 / 60 fps |"
    );
    println!("| --- | --- | --- | --- |");
    for name in &names {
        let model = match load(name) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("baked_error: {e}");
                return ExitCode::FAILURE;
            }
        };
        let label = std::path::Path::new(name)
            .file_name()
            .map_or(name.clone(), |f| f.to_string_lossy().into_owned());
        for (c, clip) in model.clips().iter().enumerate() {
            let mut joints = Vec::new();
            let mut vertices = Vec::new();
            for fps in RATES {
                let measured = bake_clip(&model, c, fps)
                    .and_then(|baked| bake_error(&model, c, &baked, SUBSAMPLES));
                match measured {
                    Ok(e) => {
                        joints.push(format!("{:.4}", e.joint_position));
                        vertices.push(format!("{:.4}", e.vertex));
                    }
                    Err(e) => {
                        eprintln!("baked_error: {label} {}: {e}", clip.name());
                        return ExitCode::FAILURE;
                    }
                }
            }
            println!(
                "| {label} ({:.2}) | {} ({:.2}) | {} | {} |",
                height(&model),
                clip.name(),
                clip.duration(),
                joints.join(" / "),
                vertices.join(" / ")
            );
        }
    }
    ExitCode::SUCCESS
}
