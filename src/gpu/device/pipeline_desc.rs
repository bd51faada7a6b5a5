//! What a pipeline is made of ([`PipelineDesc`]): shader file names in `shaders/` and
//! fixed-function state. Equal descriptions make the same pipeline.

use ash::vk;
use std::hash::{Hash, Hasher};

use super::error::GpuError;
use super::shaders::named;
use super::spirv::{Reflection, reflect};

/// Which vertex input a graphics pipeline takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexInput {
    /// [`Vertex`](crate::anim::Vertex) from binding 0.
    Skinned,
    /// Skinned positions only (position, joints and weights of [`Vertex`](crate::anim::Vertex)).
    SkinnedPosition,
    /// Skinned positions and the texture coordinate (what the shadow pass reads to clip an
    /// alpha-clipped material).
    SkinnedPositionUv,
    /// [`Vertex`](crate::anim::Vertex) without its tangent (what a shader that maps no normal texture reads).
    SkinnedNoTangent,
    /// None: positions come from the vertex index.
    Generated,
    /// None, assembled as a triangle strip: a quad in four vertices, not six (the impostor
    /// cards, whose passes are bound by how many vertices they shade).
    GeneratedStrip,
}

/// Constant and slope-scaled depth bias.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthBias {
    /// Constant factor.
    pub constant: f32,
    /// Slope factor.
    pub slope: f32,
}

impl Eq for DepthBias {}

impl Hash for DepthBias {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.constant.to_bits().hash(state);
        self.slope.to_bits().hash(state);
    }
}

/// How a graphics pipeline uses its depth attachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthState {
    /// Depth target format.
    pub format: vk::Format,
    /// Depth compare (LESS, or EQUAL after a prepass).
    pub compare: vk::CompareOp,
    /// Whether depth is written.
    pub write: bool,
    /// Depth bias (the shadow pass).
    pub bias: Option<DepthBias>,
}

/// Which triangles a pipeline discards by facing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Culling {
    /// Back faces (the default for characters).
    #[default]
    Back,
    /// Front faces: shows what wrongly wound triangles would (for tests and debugging).
    Front,
    /// None: both sides drawn (open meshes, the ground).
    None,
}

/// The most colour targets a pipeline draws into (the camera's passes with the ambient
/// occlusion applied after them: lit colour, ambient light, normals).
pub const MAX_COLOR_TARGETS: usize = 3;

/// A graphics pipeline's shaders and fixed-function state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphicsDesc {
    /// The vertex shader's file name in `shaders/`.
    pub vertex: &'static str,
    /// The fragment shader's (`None`: depth only).
    pub fragment: Option<&'static str>,
    /// Vertex input.
    pub input: VertexInput,
    /// Colour target format (`None`: no colour attachment).
    pub color: Option<vk::Format>,
    /// The formats of further colour targets, drawn at locations 1, 2, ... (at most
    /// [`MAX_COLOR_TARGETS`] in all).
    pub more_colors: &'static [vk::Format],
    /// The depth test (`None`: no depth attachment).
    pub depth: Option<DepthState>,
    /// Which faces to cull (the front face is dynamic state: it flips with mirrored
    /// transforms).
    pub culling: Culling,
    /// Samples per pixel of the attachments it renders to.
    pub samples: vk::SampleCountFlags,
}

/// What a pipeline is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipelineKind {
    /// Drawing.
    Graphics(GraphicsDesc),
    /// A compute shader, by file name in `shaders/`.
    Compute(&'static str),
}

/// A pipeline's description: its debug name and what it is made of. Equal descriptions make
/// the same pipeline ([`PipelineCache`](super::pipeline::PipelineCache)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineDesc {
    /// Debug name.
    pub name: &'static str,
    /// Shaders and state.
    pub kind: PipelineKind,
}

impl PipelineDesc {
    /// The shader file names, in stage order.
    pub fn shaders(&self) -> impl Iterator<Item = &'static str> {
        let (first, second) = match self.kind {
            PipelineKind::Graphics(g) => (g.vertex, g.fragment),
            PipelineKind::Compute(c) => (c, None),
        };
        std::iter::once(first).chain(second)
    }

    /// What each of its shaders declares.
    pub fn reflect(&self) -> Result<Vec<Reflection>, GpuError> {
        self.shaders()
            .map(|shader| {
                let spirv = named(shader).ok_or_else(|| {
                    GpuError::Other(format!("no shader was compiled from shaders/{shader}"))
                })?;
                reflect(shader, spirv).map_err(GpuError::Other)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::device::pipeline_layout::LayoutDesc;

    #[test]
    fn every_compiled_shader_pair_a_pipeline_could_use_merges() {
        // The real pairs the passes draw with.
        for (vertex, fragment) in [
            ("skinned.vert", Some("skinned.frag")),
            ("skinned.vert", Some("skinned_apart.frag")),
            ("skinned.vert", Some("depth_normal.frag")),
            ("shadow.vert", None),
            ("skinned_once.vert", Some("skinned.frag")),
            ("skinned_once.vert", Some("skinned_apart.frag")),
            ("skinned_once.vert", Some("depth_normal.frag")),
            ("shadow_once.vert", None),
            ("ground.vert", Some("ground.frag")),
            ("ground.vert", Some("ground_apart.frag")),
            ("ground.vert", Some("ground_normal.frag")),
            ("fullscreen.vert", Some("debug_view.frag")),
            ("fullscreen.vert", Some("ambient_composite.frag")),
        ] {
            let desc = PipelineDesc {
                name: "test",
                kind: PipelineKind::Graphics(GraphicsDesc {
                    vertex,
                    fragment,
                    input: VertexInput::Generated,
                    color: None,
                    more_colors: &[],
                    depth: None,
                    culling: Culling::None,
                    samples: vk::SampleCountFlags::TYPE_1,
                }),
            };
            let stages = desc.reflect().expect("reflects");
            LayoutDesc::merge(vertex, &stages).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
