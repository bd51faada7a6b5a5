//! Which model a palette benchmark runs (`bench palette`, `bench sweep`): a model file, the
//! built-in character or a generated skeleton, and the palette stores to measure it with.

use std::sync::Arc;

use clap::{Args, ValueEnum};
use throng::anim::{PaletteStores, SkinnedModel};
use throng::crowd::{SyntheticShape, synthetic_model};

use super::CliError;
use super::load_args::LoadArgs;

/// Which model a benchmark runs: a file, the built-in one, or a generated one.
#[derive(Debug, Args)]
pub(super) struct ModelArgs {
    /// Model: `builtin` (default) or a model file (`.m3d`, `.gltf`/`.glb`, `.fbx`,
    /// `.sdkmesh`, `.x`; any other file Assimp reads when built with the `assimp` feature).
    pub(super) model: Option<String>,
    /// Clip name or index (default: `walk` if the model has one, else the first clip; a
    /// generated model has `even` and `uneven`).
    #[arg(long)]
    pub(super) clip: Option<String>,
    /// Instead of MODEL, a generated model of this many joints (1 to 1024): a chain or tree
    /// animated by an evenly keyed clip (`even`) and an unevenly keyed one (`uneven`).
    #[arg(long, value_parser = parse_joints, conflicts_with = "model")]
    pub(super) synthetic_joints: Option<usize>,
    /// Shape of a generated model.
    #[arg(long, value_enum, default_value_t = Shape::Tree)]
    pub(super) synthetic_shape: Shape,
    /// Palette stores: `auto` (the crowd's choice: streaming stores for frames of 5 MiB or
    /// more, staged in scratch for batches wider than four lanes), or one kind forced: direct
    /// from the SIMD lanes into every palette of the batch, or staged and copied out lane after
    /// lane.
    #[arg(long, value_enum, default_value_t = Stores::Auto)]
    pub(super) stores: Stores,
    #[command(flatten)]
    pub(super) load: LoadArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Shape {
    /// Joint j's parent is j - 1.
    Chain,
    /// Joint j's parent is (j - 1) / 2.
    Tree,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Stores {
    /// The crowd's choice by frame size.
    Auto,
    /// Direct from the lanes into every palette of the batch, ordinary stores.
    Cached,
    /// Direct from the lanes, streaming stores.
    Streaming,
    /// Staged in scratch, copied out with ordinary stores.
    StagedCached,
    /// Staged in scratch, copied out lane after lane with streaming stores.
    StagedStreaming,
}

impl Stores {
    pub(super) fn kind(self) -> Option<PaletteStores> {
        match self {
            Self::Auto => None,
            Self::Cached => Some(PaletteStores::Cached),
            Self::Streaming => Some(PaletteStores::Streaming),
            Self::StagedCached => Some(PaletteStores::StagedCached),
            Self::StagedStreaming => Some(PaletteStores::StagedStreaming),
        }
    }
}

/// `--synthetic-joints`, `--joints`: 1 to 1024.
pub(super) fn parse_joints(s: &str) -> Result<usize, String> {
    super::numbers::parse_bounded(s, 1, 1024)
}

/// The model and the clip to play (`walk` when there is one and none was named); a generated
/// model of `joints` joints when given, whatever `source` names.
pub(super) fn model_and_clip(
    source: &ModelArgs,
    joints: Option<usize>,
) -> Result<(Arc<SkinnedModel>, usize), CliError> {
    let model = match joints.or(source.synthetic_joints) {
        Some(n) => {
            let shape = match source.synthetic_shape {
                Shape::Chain => SyntheticShape::Chain,
                Shape::Tree => SyntheticShape::Tree,
            };
            synthetic_model(n, shape)?
        }
        None => source.load.load(source.model.as_deref())?,
    };
    let model = Arc::new(model);
    let clip = match source.clip.as_deref() {
        Some(c) => model.resolve_clip(c)?,
        None => model.clip_index("walk").unwrap_or(0),
    };
    Ok((model, clip))
}
