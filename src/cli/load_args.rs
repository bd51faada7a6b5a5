//! The flags that say how models are read, shared by every command that loads one:
//! `--max-file-size` and `--max-memory` (limits), `--loader` (which loader reads the file) and
//! `--anim` (an SDKMESH model's animation file).

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use throng::anim::SkinnedModel;
use throng::asset::{self, LoadOptions, Loader, source::DEFAULT_MAX_FILE_SIZE};

/// How model files are read.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Largest file read, in bytes: the model and every file it refers to (buffers, images,
    /// textures). Larger files are refused before they are read.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_SIZE, value_parser = parse_bytes)]
    max_file_size: u64,
    /// Which loader reads the model: `auto` picks the native loader of the extension (Assimp,
    /// when built with the `assimp` feature, for other extensions); `assimp` forces Assimp,
    /// to compare it with a native loader.
    #[arg(long, value_enum, default_value_t = LoaderArg::Auto)]
    loader: LoaderArg,
    /// Animation file of a `.sdkmesh` model (default: MODEL.sdkmesh_anim beside it); other
    /// formats refuse it.
    #[arg(long, value_name = "FILE")]
    anim: Option<PathBuf>,
    /// The memory one model load may hold, in bytes (default: 64 MiB plus 32 bytes per input
    /// byte, at most 4 GiB; docs/input-safety.md). A file that needs more is refused with
    /// one line saying what needed how much; a texture that needs more is left out with a
    /// warning. Raise it for a model that needs more, lower it to hold a load to less.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    max_memory: Option<u64>,
    /// Skip making the mesh's coarser levels of detail at load (faster loading; every instance
    /// then draws the full mesh).
    #[arg(long)]
    no_lods: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LoaderArg {
    Auto,
    Assimp,
}

impl LoadArgs {
    /// The load options these arguments ask for (limits without a flag keep their defaults).
    pub fn options(&self) -> LoadOptions {
        // Written so that a limit added to `LoadOptions` without a flag keeps its default.
        #[allow(clippy::needless_update)]
        LoadOptions {
            max_file_size: self.max_file_size,
            loader: match self.loader {
                LoaderArg::Auto => Loader::Auto,
                LoaderArg::Assimp => Loader::Assimp,
            },
            anim: self.anim.clone(),
            max_memory: self.max_memory,
            lods: !self.no_lods,
            ..LoadOptions::default()
        }
    }

    /// Loads `builtin` (or nothing named) or a model file under these options.
    pub fn load(&self, spec: Option<&str>) -> Result<SkinnedModel, asset::LoadError> {
        asset::load_model_with(spec, &self.options())
    }

    /// Loads `builtin` when no model is named, else each named model.
    pub fn load_models(
        &self,
        names: &[String],
    ) -> Result<Vec<Arc<SkinnedModel>>, asset::LoadError> {
        if names.is_empty() {
            return Ok(vec![Arc::new(self.load(None)?)]);
        }
        names
            .iter()
            .map(|n| Ok(Arc::new(self.load(Some(n))?)))
            .collect()
    }
}

/// A whole number of bytes, at least 1.
fn parse_bytes(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("at least one byte is needed".into()),
        Err(_) => Err(format!("'{s}' is not a whole number of bytes")),
    }
}
