//! `--loader`: which loader reads the model file, for the commands that inspect one model.

use clap::{Args, ValueEnum};
use throng::asset::{LoadOptions, Loader};

/// How the model file is read.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Which loader reads the model: `auto` picks the native loader of the extension (Assimp,
    /// when built with the `assimp` feature, for other extensions); `assimp` forces Assimp,
    /// to compare it with a native loader.
    #[arg(long, value_enum, default_value_t = LoaderArg::Auto)]
    loader: LoaderArg,
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
            ..LoadOptions::default()
        }
    }
}
