//! Eight instances per vector with AVX2 ([`F32x8`]), sixteen with AVX-512 ([`F32x16`]).
//!
//! Each is plain floats with element-wise operations written as loops. They are used only by
//! batch kernels compiled for the matching instruction set (and only called after the
//! processor was checked for it), where every loop becomes one 256-bit or 512-bit
//! instruction: no intrinsics (which LLVM declines to inline through generic code) and no
//! `unsafe`. One macro writes both widths, so they cannot drift apart; the alignment is the
//! vector's size so that no value straddles a cache line.

// Indexed loops over the lanes are the shape LLVM turns into single vector instructions;
// iterator chains here were not always inlined into the kernel.
#![allow(clippy::needless_range_loop)]

use std::ops::{Add, Div, Mul, Sub};

use glam::Vec4;

use super::{Lanes, Real, gather_four, scatter_four, store_row, transpose};
use crate::anim::matrix::Mat3x4;

macro_rules! lane_vector {
    ($(#[$doc:meta])* $name:ident, $n:literal, $align:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[repr(C, align($align))]
        pub(crate) struct $name([f32; $n]);

        impl Default for $name {
            #[inline(always)]
            fn default() -> Self {
                Self([0.0; $n])
            }
        }

        impl $name {
            #[inline(always)]
            fn map(self, f: impl Fn(f32) -> f32) -> Self {
                let mut r = [0.0; $n];
                for i in 0..$n {
                    r[i] = f(self.0[i]);
                }
                Self(r)
            }

            #[inline(always)]
            fn zip(self, o: Self, f: impl Fn(f32, f32) -> f32) -> Self {
                let mut r = [0.0; $n];
                for i in 0..$n {
                    r[i] = f(self.0[i], o.0[i]);
                }
                Self(r)
            }
        }

        impl Add for $name {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.zip(rhs, |a, b| a + b)
            }
        }

        impl Sub for $name {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.zip(rhs, |a, b| a - b)
            }
        }

        impl Mul for $name {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.zip(rhs, |a, b| a * b)
            }
        }

        impl Div for $name {
            type Output = Self;
            #[inline(always)]
            fn div(self, rhs: Self) -> Self {
                self.zip(rhs, |a, b| a / b)
            }
        }

        impl Real for $name {
            #[inline(always)]
            fn splat(x: f32) -> Self {
                Self([x; $n])
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                self.map(f32::sqrt)
            }
            #[inline(always)]
            fn clamp(self, lo: f32, hi: f32) -> Self {
                // Written as compares (not f32::clamp) so that it maps onto max/min
                // instructions.
                self.map(|x| {
                    let x = if x > lo { x } else { lo };
                    if x < hi { x } else { hi }
                })
            }
        }

        impl Lanes for $name {
            const N: usize = $n;

            #[inline(always)]
            fn floor(self) -> Self {
                self.map(f32::floor)
            }

            #[inline(always)]
            fn load(values: &[f32]) -> Self {
                let mut r = [0.0; $n];
                r.copy_from_slice(&values[..$n]);
                Self(r)
            }

            #[inline(always)]
            fn select_gt(self, limit: f32, a: Self, b: Self) -> Self {
                let mut r = [0.0; $n];
                for i in 0..$n {
                    r[i] = if self.0[i] > limit { a.0[i] } else { b.0[i] };
                }
                Self(r)
            }

            #[inline(always)]
            fn widen(v: Vec4) -> Self {
                let h = v.to_array();
                let mut r = [0.0; $n];
                for i in 0..$n {
                    r[i] = h[i % 4];
                }
                Self(r)
            }

            #[inline(always)]
            fn gather(frames: &[&[Vec4]], i: usize) -> [Self; 4] {
                Self::gather_x86(frames, i)
            }

            #[inline(always)]
            fn scatter_row<const STREAM: bool>(
                columns: [Self; 4],
                out: &mut [Mat3x4],
                joints: usize,
                j: usize,
                r: usize,
            ) {
                Self::scatter_x86::<STREAM>(columns, out, joints, j, r)
            }
        }

        impl $name {
            /// [`Lanes::gather`] by quarters ([`gather_four`]), joined into whole vectors.
            #[inline(always)]
            fn gather_by_quarters(frames: &[&[Vec4]], i: usize) -> [Self; 4] {
                let mut c = [[0.0; $n]; 4];
                for q in (0..$n).step_by(4) {
                    let t = gather_four(frames, q, i);
                    for (column, part) in c.iter_mut().zip(t) {
                        column[q..q + 4].copy_from_slice(&part.to_array());
                    }
                }
                c.map(Self)
            }

            /// [`Lanes::scatter_row`] by quarters, as [`Self::gather_by_quarters`].
            #[inline(always)]
            fn scatter_by_quarters<const STREAM: bool>(
                columns: [Self; 4],
                out: &mut [Mat3x4],
                joints: usize,
                j: usize,
                r: usize,
            ) {
                for q in (0..$n).step_by(4) {
                    let part = columns.map(|c| Vec4::from_slice(&c.0[q..q + 4]));
                    scatter_four::<STREAM>(part, out, q, joints, j, r);
                }
            }
        }
    };
}

lane_vector!(
    /// Eight floats, one per instance (AVX2).
    F32x8,
    8,
    32
);

lane_vector!(
    /// Sixteen floats, one per instance (AVX-512).
    F32x16,
    16,
    64
);

/// `impl_x86_transposes!(Type, "feature", module)`: [`Lanes::gather`] and
/// [`Lanes::scatter_row`] through `module`'s shuffles (see `transpose.rs`) where the processor
/// has `feature`, by quarters otherwise.
macro_rules! impl_x86_transposes {
    ($name:ident, $feature:tt, $module:ident) => {
        impl $name {
            #[inline(always)]
            fn gather_x86(frames: &[&[Vec4]], i: usize) -> [Self; 4] {
                if !std::arch::is_x86_feature_detected!($feature) {
                    return Self::gather_by_quarters(frames, i);
                }
                // SAFETY: the processor has the feature, checked just above (a cached flag).
                let [x, y, z, w] = unsafe { transpose::$module::gather(frames, i) };
                [Self(x), Self(y), Self(z), Self(w)]
            }

            #[inline(always)]
            fn scatter_x86<const STREAM: bool>(
                columns: [Self; 4],
                out: &mut [Mat3x4],
                joints: usize,
                j: usize,
                r: usize,
            ) {
                if !std::arch::is_x86_feature_detected!($feature) {
                    return Self::scatter_by_quarters::<STREAM>(columns, out, joints, j, r);
                }
                let [c0, c1, c2, c3] = columns;
                // SAFETY: as in `gather_x86`.
                let rows = unsafe { transpose::$module::rows(&[c0.0, c1.0, c2.0, c3.0]) };
                for (l, row) in rows.into_iter().enumerate() {
                    store_row::<STREAM>(&mut out[l * joints + j].rows[r], row);
                }
            }
        }
    };
}

impl_x86_transposes!(F32x8, "avx2", avx2);
impl_x86_transposes!(F32x16, "avx512f", avx512);
