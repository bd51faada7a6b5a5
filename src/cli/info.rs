//! `throng info [MODEL] [--json]`

use clap::Args;
use serde::Serialize;
use throng::anim::SkinnedModel;
use throng::asset;

use super::CliError;
use super::output::print_json;

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Model: `builtin` (default), a `.m3d` file, or a `.gltf`/`.glb` file.
    model: Option<String>,
    #[command(flatten)]
    load: super::load_args::LoadArgs,
    /// Print JSON: {"format", "joints", "clips": [{"name", "duration"}], "vertices",
    /// "triangles", "subsets": [{"material", "vertices", "triangles"}], "bounds": {"min", "max"}}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ClipInfo {
    name: String,
    duration: f32,
}

#[derive(Serialize)]
struct SubsetInfo {
    material: String,
    vertices: u32,
    triangles: u32,
}

#[derive(Serialize)]
struct BoundsInfo {
    min: [f32; 3],
    max: [f32; 3],
}

#[derive(Serialize)]
struct ModelInfo {
    format: String,
    joints: usize,
    clips: Vec<ClipInfo>,
    vertices: usize,
    triangles: usize,
    subsets: Vec<SubsetInfo>,
    bounds: BoundsInfo,
}

fn describe(model: &SkinnedModel) -> ModelInfo {
    let mesh = model.mesh();
    let bounds = mesh.bounds().map_or(
        BoundsInfo {
            min: [0.0; 3],
            max: [0.0; 3],
        },
        |b| BoundsInfo {
            min: b.min.into(),
            max: b.max.into(),
        },
    );
    ModelInfo {
        format: model.format().to_string(),
        joints: model.joint_count(),
        clips: model
            .clips()
            .iter()
            .map(|c| ClipInfo {
                name: c.name().to_string(),
                duration: c.duration(),
            })
            .collect(),
        vertices: mesh.vertices.len(),
        triangles: mesh.triangle_count(),
        subsets: mesh
            .subsets
            .iter()
            .map(|s| SubsetInfo {
                material: mesh.materials[s.material].name.clone(),
                vertices: s.vertex_count,
                triangles: s.index_count / 3,
            })
            .collect(),
        bounds,
    }
}

pub fn run(args: &InfoArgs) -> Result<(), CliError> {
    let model = asset::load_model_with(args.model.as_deref(), &args.load.options())?;
    let info = describe(&model);
    if args.json {
        return print_json(&info);
    }
    println!("model      {} ({})", model.name(), info.format);
    println!("joints     {}", info.joints);
    println!("clips      {}", info.clips.len());
    for (i, c) in info.clips.iter().enumerate() {
        println!("  {i:>3}  {:<24} {:>8.3} s", c.name, c.duration);
    }
    println!("vertices   {}", info.vertices);
    println!("triangles  {}", info.triangles);
    println!("subsets    {}", info.subsets.len());
    for (i, s) in info.subsets.iter().enumerate() {
        println!(
            "  {i:>3}  {:<24} {:>7} vertices {:>7} triangles",
            s.material, s.vertices, s.triangles
        );
    }
    let [x0, y0, z0] = info.bounds.min;
    let [x1, y1, z1] = info.bounds.max;
    println!("bounds     min ({x0:.4}, {y0:.4}, {z0:.4})  max ({x1:.4}, {y1:.4}, {z1:.4})");
    Ok(())
}
