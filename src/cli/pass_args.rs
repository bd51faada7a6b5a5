//! The flags that switch the renderer's passes, shared by `run` and `bench frame`.

use clap::Args;
use throng::gpu::RenderSettings;

/// `--no-shadows`, `--no-ssao`, `--shadow-size`.
#[derive(Debug, Args)]
pub struct PassArgs {
    /// No shadow pass (the graph culls it).
    #[arg(long)]
    no_shadows: bool,
    /// No ambient occlusion (the graph culls its passes).
    #[arg(long)]
    no_ssao: bool,
    /// Shadow map side in texels (64 to 8192).
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u32).range(64..=8192))]
    shadow_size: u32,
}

impl PassArgs {
    /// The renderer's settings these flags ask for (the prepass always runs).
    pub fn settings(&self) -> RenderSettings {
        RenderSettings {
            shadows: !self.no_shadows,
            ssao: !self.no_ssao,
            prepass: true,
            shadow_size: self.shadow_size,
        }
    }
}
