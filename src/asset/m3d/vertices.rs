//! The `Vertices` section. A skinned model's vertices (the header has bones) must all carry
//! `BlendWeights` and `BlendIndices`; a static model's must not, and they are bound to the
//! implicit root joint with weight 1.

use super::header::Header;
use super::reader::{Reader, Result, banner_title};
use crate::anim::Vertex;
use crate::asset::ErrorKind;

/// How far the sum of a vertex's weights may be from 1 before it is renormalized (and counted
/// for the warning). The real files round to 7 digits, which leaves sums within 3e-7 of 1.
const WEIGHT_SUM_TOLERANCE: f32 = 1e-3;

/// The vertices and how many had their weights renormalized.
pub(super) struct Vertices {
    pub(super) vertices: Vec<Vertex>,
    pub(super) renormalized: usize,
}

/// Reads `header.vertices` vertices.
pub(super) fn read(r: &mut Reader, header: &Header) -> Result<Vertices> {
    r.enter(super::VERTICES)?;
    let mut vertices = Vec::with_capacity(header.vertices);
    let mut renormalized = 0;
    for i in 0..header.vertices {
        let (vertex, fixed) =
            read_one(r, header.bones).map_err(|e| e.at_record(format!("vertex {i}")))?;
        vertices.push(vertex);
        renormalized += usize::from(fixed);
    }
    r.end_of_records(header.vertices, "vertices", |t| t == b"Position:")?;
    Ok(Vertices {
        vertices,
        renormalized,
    })
}

/// One vertex, and whether its weights were renormalized.
#[inline]
fn read_one(r: &mut Reader, bones: usize) -> Result<(Vertex, bool)> {
    r.keyword("Position:")?;
    let position = r.floats()?;
    r.keyword("Tangent:")?;
    let tangent = r.floats()?;
    r.keyword("Normal:")?;
    let normal = r.floats()?;
    r.keyword("Tex-Coords:")?;
    let uv = r.floats()?;
    let mut vertex = Vertex {
        position,
        normal,
        tangent,
        uv,
        joints: [0; 4],
        weights: [1.0, 0.0, 0.0, 0.0],
    };
    let next = r.peek();
    let has_blend = next == Some(b"BlendWeights:".as_slice());
    if bones == 0 {
        if has_blend {
            r.word()?;
            return Err(r.error(
                ErrorKind::Invalid,
                "a model without bones (#Bones 0) cannot have blend weights",
            ));
        }
        return Ok((vertex, false));
    }
    let ends_here = next.is_none_or(|t| t == b"Position:" || banner_title(t).is_some());
    if ends_here {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!(
                "a skinned model (#Bones {bones}) needs BlendWeights and BlendIndices on every \
                 vertex"
            ),
        ));
    }
    r.keyword("BlendWeights:")?;
    let weights: [f32; 4] = r.floats()?;
    r.keyword("BlendIndices:")?;
    for j in &mut vertex.joints {
        // `bones <= MAX_JOINTS = u16::MAX`, so an index below it fits in u16.
        *j = r.index(bones, "bone")? as u16;
    }
    let (weights, fixed) = check_weights(r, weights)?;
    vertex.weights = weights;
    Ok((vertex, fixed))
}

/// Rejects negative and all-zero weights; renormalizes sums that are off by more than
/// rounding.
fn check_weights(r: &Reader, weights: [f32; 4]) -> Result<([f32; 4], bool)> {
    if let Some(w) = weights.iter().find(|&&w| w < 0.0) {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("blend weight {w} is negative"),
        ));
    }
    let sum: f32 = weights.iter().sum();
    if !(sum > 0.0) {
        return Err(r.error(
            ErrorKind::Invalid,
            "all four blend weights are 0, so the vertex follows no bone",
        ));
    }
    if !sum.is_finite() {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("the blend weights sum to {sum}"),
        ));
    }
    if (sum - 1.0).abs() <= WEIGHT_SUM_TOLERANCE {
        return Ok((weights, false));
    }
    Ok((weights.map(|w| w / sum), true))
}
