//! Eight instances per vector with AVX2.
//!
//! `F32x8` is eight plain floats with element-wise operations written as loops. Used only by
//! the batch's AVX2 kernel, which is compiled for AVX2 and only called after
//! `is_x86_feature_detected!("avx2")`, every loop becomes one 256-bit instruction there: no
//! intrinsics (which LLVM declines to inline through generic code) and no `unsafe`.

// Indexed loops over the eight lanes are the shape LLVM turns into single 256-bit
// instructions; iterator chains here were not always inlined into the kernel.
#![allow(clippy::needless_range_loop)]

use std::ops::{Add, Div, Mul, Sub};

use glam::{Mat4, Vec4};

use super::{Lanes, Real, store_row};
use crate::anim::matrix::Mat3x4;

/// Eight floats, one per instance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct F32x8([f32; 8]);

impl F32x8 {
    #[inline(always)]
    fn map(self, f: impl Fn(f32) -> f32) -> Self {
        let mut r = [0.0; 8];
        for i in 0..8 {
            r[i] = f(self.0[i]);
        }
        Self(r)
    }

    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(f32, f32) -> f32) -> Self {
        let mut r = [0.0; 8];
        for i in 0..8 {
            r[i] = f(self.0[i], o.0[i]);
        }
        Self(r)
    }
}

macro_rules! binary {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for F32x8 {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                self.zip(rhs, |a, b| a $op b)
            }
        }
    };
}

binary!(Add, add, +);
binary!(Sub, sub, -);
binary!(Mul, mul, *);
binary!(Div, div, /);

impl Real for F32x8 {
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Self([x; 8])
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        self.map(f32::sqrt)
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        // Written as compares (not f32::clamp) so that it maps onto max/min instructions.
        self.map(|x| {
            let x = if x > lo { x } else { lo };
            if x < hi { x } else { hi }
        })
    }
}

impl Lanes for F32x8 {
    const N: usize = 8;

    #[inline(always)]
    fn floor(self) -> Self {
        self.map(f32::floor)
    }

    #[inline(always)]
    fn load(values: &[f32]) -> Self {
        let mut r = [0.0; 8];
        r.copy_from_slice(&values[..8]);
        Self(r)
    }

    #[inline(always)]
    fn select_gt(self, limit: f32, a: Self, b: Self) -> Self {
        let mut r = [0.0; 8];
        for i in 0..8 {
            r[i] = if self.0[i] > limit { a.0[i] } else { b.0[i] };
        }
        Self(r)
    }

    #[inline(always)]
    fn widen(v: Vec4) -> Self {
        let h = v.to_array();
        Self([h[0], h[1], h[2], h[3], h[0], h[1], h[2], h[3]])
    }

    #[inline(always)]
    fn gather(frames: &[&[Vec4]], i: usize) -> [Self; 4] {
        // Two 4x4 SSE transposes (SSE is baseline, so they inline anywhere), then each pair of
        // halves becomes one 256-bit value.
        let lo =
            Mat4::from_cols(frames[0][i], frames[1][i], frames[2][i], frames[3][i]).transpose();
        let hi =
            Mat4::from_cols(frames[4][i], frames[5][i], frames[6][i], frames[7][i]).transpose();
        [
            join(lo.x_axis, hi.x_axis),
            join(lo.y_axis, hi.y_axis),
            join(lo.z_axis, hi.z_axis),
            join(lo.w_axis, hi.w_axis),
        ]
    }

    #[inline(always)]
    fn scatter_row<const STREAM: bool>(
        columns: [Self; 4],
        out: &mut [Mat3x4],
        joints: usize,
        j: usize,
        r: usize,
    ) {
        let [c0, c1, c2, c3] = columns;
        for (half, base) in [(0usize, 0usize), (4, 4)] {
            let part = |c: F32x8| Vec4::new(c.0[half], c.0[half + 1], c.0[half + 2], c.0[half + 3]);
            let rows = Mat4::from_cols(part(c0), part(c1), part(c2), part(c3)).transpose();
            let lanes = [rows.x_axis, rows.y_axis, rows.z_axis, rows.w_axis];
            for (l, row) in lanes.into_iter().enumerate() {
                store_row::<STREAM>(&mut out[(base + l) * joints + j].rows[r], row);
            }
        }
    }
}

/// Lanes 0..4 from `lo` and 4..8 from `hi`.
#[inline(always)]
fn join(lo: Vec4, hi: Vec4) -> F32x8 {
    F32x8([lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w])
}
