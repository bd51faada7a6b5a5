//! `throng info [MODEL] [--json]`

use clap::Args;
use serde::Serialize;
use throng::anim::SkinnedModel;
use throng::asset::LoadOptions;
use throng::asset::vertex_reuse::{self, VertexReuse};

use super::CliError;
use super::load_args::LoadArgs;
use super::output::{print_json, say, shown};

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Model: `builtin` (default) or a model file (`.m3d`, `.gltf`/`.glb`, `.fbx`,
    /// `.sdkmesh`, `.x`; any other file Assimp reads when built with the `assimp` feature).
    model: Option<String>,
    #[command(flatten)]
    load: LoadArgs,
    /// Print JSON: {"format", "loader", "joints", "clips": [{"name", "duration"}], "vertices",
    /// "triangles", "vertex_reuse": {"vertices_as_read", "vertices", "shaded_per_triangle_as_read",
    /// "shaded_per_triangle"}, "subsets": [{"material", "vertices", "triangles", "alpha_clip"}], "lods":
    /// [{"triangles", "error"}], "bounds": {"min", "max"}}.
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
    /// Whether its material discards texels of low alpha (in every pass, the shadow's too).
    alpha_clip: bool,
}

/// One coarser level of the mesh.
#[derive(Serialize)]
struct LodInfo {
    triangles: usize,
    /// How far it may stray from the full mesh, model units.
    error: f32,
}

/// What vertex reuse did at load.
#[derive(Serialize)]
struct ReuseInfo {
    /// Vertices as the file had them.
    vertices_as_read: usize,
    /// After identical ones were merged.
    vertices: usize,
    /// Vertices a 16-entry post-transform cache shades per triangle, as read (3: no reuse).
    shaded_per_triangle_as_read: f32,
    /// And after the triangles were ordered for it.
    shaded_per_triangle: f32,
}

#[derive(Serialize)]
struct BoundsInfo {
    min: [f32; 3],
    max: [f32; 3],
}

#[derive(Serialize)]
struct ModelInfo {
    format: String,
    /// Which loader read it (`ufbx`, `Assimp`, `native`, `generated`).
    loader: &'static str,
    joints: usize,
    clips: Vec<ClipInfo>,
    vertices: usize,
    triangles: usize,
    vertex_reuse: ReuseInfo,
    subsets: Vec<SubsetInfo>,
    lods: Vec<LodInfo>,
    bounds: BoundsInfo,
}

fn describe(model: &SkinnedModel, reuse: &VertexReuse) -> ModelInfo {
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
        loader: throng::asset::loader_of(model.format()),
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
        vertex_reuse: ReuseInfo {
            vertices_as_read: reuse.vertices_before,
            vertices: reuse.vertices_after,
            shaded_per_triangle_as_read: reuse.acmr_before,
            shaded_per_triangle: reuse.acmr_after,
        },
        subsets: mesh
            .subsets
            .iter()
            .map(|s| SubsetInfo {
                material: mesh.materials[s.material].name.clone(),
                vertices: s.vertex_count,
                triangles: s.index_count / 3,
                alpha_clip: mesh.materials[s.material].alpha_clip,
            })
            .collect(),
        lods: model
            .lods()
            .iter()
            .map(|l| LodInfo {
                triangles: l.indices.len() / 3,
                error: l.error,
            })
            .collect(),
        bounds,
    }
}

pub fn run(args: &InfoArgs) -> Result<(), CliError> {
    // Loaded as the file has it, then reworked for vertex reuse here (as every other load does
    // it), so that both can be shown.
    let options = LoadOptions {
        reuse_vertices: false,
        ..args.load.options()
    };
    let mut model = throng::asset::load_model_with(args.model.as_deref(), &options)?;
    let (mesh, lods, reuse) = vertex_reuse::optimize(model.mesh(), model.lods());
    model
        .replace_mesh(mesh)
        .and_then(|_| model.set_lods(lods))
        .map_err(|e| throng::asset::LoadError::from_anim(model.name(), "vertex reuse", e))?;
    let info = describe(&model, &reuse);
    if args.json {
        return print_json(&info);
    }
    say!(
        "model      {} ({})",
        shown(model.name()),
        shown(&info.format)
    )?;
    say!("loader     {}", info.loader)?;
    say!("joints     {}", info.joints)?;
    say!("clips      {}", info.clips.len())?;
    for (i, c) in info.clips.iter().enumerate() {
        say!("  {i:>3}  {:<24} {:>8.3} s", shown(&c.name), c.duration)?;
    }
    let r = &info.vertex_reuse;
    say!(
        "vertices   {} ({} as read: identical ones merged; {:.2} shaded per triangle, {:.2} as \
         read)",
        info.vertices,
        r.vertices_as_read,
        r.shaded_per_triangle,
        r.shaded_per_triangle_as_read
    )?;
    say!("triangles  {}", info.triangles)?;
    say!("subsets    {}", info.subsets.len())?;
    for (i, s) in info.subsets.iter().enumerate() {
        say!(
            "  {i:>3}  {:<24} {:>7} vertices {:>7} triangles{}",
            shown(&s.material),
            s.vertices,
            s.triangles,
            if s.alpha_clip { "  alpha clip" } else { "" }
        )?;
    }
    say!(
        "lods       {} coarser levels (--no-lods skips them)",
        info.lods.len()
    )?;
    for (i, l) in info.lods.iter().enumerate() {
        say!(
            "  {:>3}  {:>7} triangles  {:>5.1}%  error {:.4}",
            i + 1,
            l.triangles,
            100.0 * l.triangles as f64 / info.triangles.max(1) as f64,
            l.error
        )?;
    }
    let [x0, y0, z0] = info.bounds.min;
    let [x1, y1, z1] = info.bounds.max;
    say!("bounds     min ({x0:.4}, {y0:.4}, {z0:.4})  max ({x1:.4}, {y1:.4}, {z1:.4})")
}
