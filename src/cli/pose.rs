//! `throng pose [MODEL] --clip NAME|INDEX --time SECONDS [--json] [--obj FILE]`

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel, SkinnedVertex, skin_vertices};

use super::load_args::LoadArgs;
use super::output::{print_json, say, shown};
use super::{CliError, parse_time};

#[derive(Debug, Args)]
pub struct PoseArgs {
    /// Model: `builtin` (default) or a model file (`.m3d`, `.gltf`/`.glb`, `.fbx`,
    /// `.sdkmesh`, `.x`; any other file Assimp reads when built with the `assimp` feature).
    model: Option<String>,
    #[command(flatten)]
    load: LoadArgs,
    /// Clip name, or its index when no clip has that name.
    #[arg(long)]
    clip: String,
    /// Time in seconds on the clip's own timeline (0 to its last key; clamped to that range).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_time)]
    time: f32,
    /// Print JSON: {"clip", "time", "joints": [{"name", "parent", "palette": [12 numbers]}]},
    /// joints in the source's order, `parent` an index into that list or -1, `palette` the
    /// 3x4 matrix row by row (column vectors, translation at positions 3, 7 and 11).
    #[arg(long)]
    json: bool,
    /// Also write the mesh skinned with this palette as a Wavefront OBJ file.
    #[arg(long, value_name = "FILE")]
    obj: Option<PathBuf>,
}

#[derive(Serialize)]
struct JointPose {
    name: String,
    parent: i64,
    palette: [f32; 12],
}

#[derive(Serialize)]
struct Pose {
    clip: String,
    time: f32,
    joints: Vec<JointPose>,
}

pub fn run(args: &PoseArgs) -> Result<(), CliError> {
    let model = args.load.load(args.model.as_deref())?;
    let clip_index = model.resolve_clip(&args.clip)?;
    let clip = &model.clips()[clip_index];
    let time = args.time.clamp(0.0, clip.end());
    let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
    let mut scratch = PoseScratch::new(model.joint_count());
    model.evaluate(clip_index, time, &mut scratch, &mut palette);

    if let Some(path) = &args.obj {
        write_obj(&model, &palette, path)?;
    }
    let pose = source_order_pose(&model, clip.name(), time, &palette);
    if args.json {
        return print_json(&pose);
    }
    say!(
        "clip {} at {time} s ({} joints)",
        shown(&pose.clip),
        pose.joints.len()
    )?;
    for (i, j) in pose.joints.iter().enumerate() {
        let p = &j.palette;
        say!("{i:>4} {:<28} parent {:>4}", shown(&j.name), j.parent)?;
        for r in 0..3 {
            let row = &p[r * 4..r * 4 + 4];
            say!(
                "       [{:>11.6} {:>11.6} {:>11.6} {:>11.6}]",
                row[0],
                row[1],
                row[2],
                row[3]
            )?;
        }
    }
    Ok(())
}

/// The palette with joints listed in the source file's order.
fn source_order_pose(model: &SkinnedModel, clip: &str, time: f32, palette: &[Mat3x4]) -> Pose {
    let skeleton = model.skeleton();
    let joints = skeleton
        .index_from_source()
        .into_iter()
        .map(|j| JointPose {
            name: skeleton.names()[j].clone(),
            parent: skeleton
                .parent(j)
                .map_or(-1, |p| skeleton.source_index(p) as i64),
            palette: palette[j].to_array(),
        })
        .collect();
    Pose {
        clip: clip.to_string(),
        time,
        joints,
    }
}

fn write_obj(model: &SkinnedModel, palette: &[Mat3x4], path: &PathBuf) -> Result<(), CliError> {
    let mesh = model.mesh();
    let mut skinned = vec![SkinnedVertex::default(); mesh.vertices.len()];
    skin_vertices(&mesh.vertices, palette, &mut skinned);
    let io = |source| CliError::Io {
        context: format!("writing {}", shown(&path.display().to_string())),
        source,
    };
    let file = std::fs::File::create(path).map_err(io)?;
    let mut w = BufWriter::new(file);
    (|| -> std::io::Result<()> {
        writeln!(w, "# throng pose of {}", shown(model.name()))?;
        for (v, s) in mesh.vertices.iter().zip(&skinned) {
            let (p, n) = (s.position, s.normal);
            writeln!(w, "v {} {} {}", p.x, p.y, p.z)?;
            writeln!(w, "vn {} {} {}", n.x, n.y, n.z)?;
            writeln!(w, "vt {} {}", v.uv[0], 1.0 - v.uv[1])?;
        }
        for subset in &mesh.subsets {
            // A name is one OBJ line whatever it holds.
            writeln!(w, "g {}", shown(&mesh.materials[subset.material].name))?;
            let range =
                subset.index_start as usize..(subset.index_start + subset.index_count) as usize;
            for tri in mesh.indices[range].chunks_exact(3) {
                let [a, b, c] = [tri[0] + 1, tri[1] + 1, tri[2] + 1];
                writeln!(w, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}")?;
            }
        }
        w.flush()
    })()
    .map_err(io)
}
