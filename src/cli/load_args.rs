//! `--loader`: which loader reads the model file, and `--max-memory`: the cap on what one
//! load may hold, for the commands that inspect one model.

use clap::{Args, ValueEnum};
use throng::asset::budget::DEFAULT_MAX_MEMORY;
use throng::asset::{LoadOptions, Loader};

/// How the model file is read.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Which loader reads the model: `auto` picks the native loader of the extension (Assimp,
    /// when built with the `assimp` feature, for other extensions); `assimp` forces Assimp,
    /// to compare it with a native loader.
    #[arg(long, value_enum, default_value_t = LoaderArg::Auto)]
    loader: LoaderArg,
    /// Cap, in bytes, on the memory one model load may hold; below it a load's budget is
    /// 64 MiB plus 32 bytes per input byte (README, "Input safety"). A file that needs more
    /// is refused with one line saying what needed how much.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MEMORY, value_parser = parse_max_memory)]
    max_memory: u64,
}

/// `--max-memory`: a whole number of bytes, at least 1.
fn parse_max_memory(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("at least one byte is needed".into()),
        Err(_) => Err(format!("'{s}' is not a whole number of bytes")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LoaderArg {
    Auto,
    Assimp,
}

impl LoadArgs {
    /// The load options these arguments ask for.
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            loader: match self.loader {
                LoaderArg::Auto => Loader::Auto,
                LoaderArg::Assimp => Loader::Assimp,
            },
            max_memory: self.max_memory,
            ..LoadOptions::default()
        }
    }
}
