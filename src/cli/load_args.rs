//! The flags that limit how models are read, shared by every command that loads one.

use clap::Args;
use throng::asset::{self, LoadOptions, source::DEFAULT_MAX_FILE_SIZE};

/// `--max-file-size`.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Largest file read, in bytes: the model and every file it refers to (buffers,
    /// textures). Larger files are refused before they are read.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_SIZE, value_parser = parse_bytes)]
    max_file_size: u64,
}

impl LoadArgs {
    /// The loader options these flags ask for.
    pub fn options(&self) -> LoadOptions {
        // Limits without a flag keep their defaults.
        #[allow(clippy::needless_update)]
        LoadOptions {
            max_file_size: self.max_file_size,
            ..LoadOptions::default()
        }
    }

    /// Loads `builtin` (or nothing named) or a model file under these options.
    pub fn load(&self, spec: Option<&str>) -> Result<throng::anim::SkinnedModel, asset::LoadError> {
        asset::load_model_with(spec, &self.options())
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
