//! What a batch computes with: a vector holding one float per instance. `Vec4` (four
//! instances) works on every target; `avx::F32x8` (eight) where AVX2 is available.

use glam::{Mat4, Vec4};

use super::pose::store_row;
use crate::anim::lanes::Real;
use crate::anim::matrix::Mat3x4;

/// One float per instance of a batch, with the few operations beyond arithmetic that the
/// kernels need: loading keys across instances and storing palette rows back per instance.
pub(crate) trait Lanes: Real + Default {
    /// Instances per vector.
    const N: usize;
    /// Lane-wise floor.
    fn floor(self) -> Self;
    /// Lane `l` is `values[l]` (`values` holds at least `N`).
    fn load(values: &[f32]) -> Self;
    /// Lane-wise `if self > limit { a } else { b }`.
    fn select_gt(self, limit: f32, a: Self, b: Self) -> Self;
    /// A `Vec4` whose four lanes are equal, widened to `N` lanes (offset matrices are kept
    /// splatted as `Vec4`s).
    fn widen(v: Vec4) -> Self;
    /// Entry `i` of every lane's frame (`frames[l]` is lane `l`'s), as one vector per
    /// component: the instances' keys loaded and transposed.
    fn gather(frames: &[&[Vec4]], i: usize) -> [Self; 4];
    /// Stores row `r` of joint `j` of every lane: `columns` are the row's four elements
    /// across lanes; lane `l`'s palette starts at `out[l * joints]`. `STREAM` picks
    /// streaming stores (see `pose::store_row`).
    fn scatter_row<const STREAM: bool>(
        columns: [Self; 4],
        out: &mut [Mat3x4],
        joints: usize,
        j: usize,
        r: usize,
    );
}

impl Lanes for Vec4 {
    const N: usize = 4;

    #[inline(always)]
    fn floor(self) -> Self {
        Vec4::floor(self)
    }

    #[inline(always)]
    fn load(values: &[f32]) -> Self {
        Vec4::from_slice(values)
    }

    #[inline(always)]
    fn select_gt(self, limit: f32, a: Self, b: Self) -> Self {
        Vec4::select(self.cmpgt(Vec4::splat(limit)), a, b)
    }

    #[inline(always)]
    fn widen(v: Vec4) -> Self {
        v
    }

    #[inline(always)]
    fn gather(frames: &[&[Vec4]], i: usize) -> [Self; 4] {
        let m = Mat4::from_cols(frames[0][i], frames[1][i], frames[2][i], frames[3][i]).transpose();
        [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
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
        let rows = Mat4::from_cols(c0, c1, c2, c3).transpose();
        let lanes = [rows.x_axis, rows.y_axis, rows.z_axis, rows.w_axis];
        for (l, row) in lanes.into_iter().enumerate() {
            store_row::<STREAM>(&mut out[l * joints + j].rows[r], row);
        }
    }
}
