//! The SIMD vocabulary every width of the animation core is written in: [`Real`] (a float or
//! a vector of floats), [`Lanes`] (one float per instance of a batch: `Vec4` everywhere,
//! [`F32x8`] with AVX2, [`F32x16`] with AVX-512), the structure-of-arrays transform and matrix types whose lanes are
//! instances, the streaming palette stores, and the slerp weights written once for all of them.
//!
//! A leaf: it knows only glam and [`Mat3x4`](crate::anim::Mat3x4)'s row layout, so the samplers, the hierarchy pass
//! and the batch can all build on it without depending on each other.

mod lanes;
mod slerp;
#[cfg(target_arch = "x86_64")]
mod transpose;
#[cfg(target_arch = "x86_64")]
mod wide;

pub use lanes::MAX_LANES;
pub(crate) use lanes::{
    Lanes, Real, SoaMat, SoaTransform, finish_streaming, gather_four, scatter_four, store_row,
};
pub(crate) use slerp::{arc, slerp_weights, slerp_weights_on_arc};
#[cfg(target_arch = "x86_64")]
pub(crate) use wide::{F32x8, F32x16};
