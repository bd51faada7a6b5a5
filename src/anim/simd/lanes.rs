//! The vocabulary itself: [`Real`], [`Lanes`], the structure-of-arrays transform and matrix,
//! the gathers and scatters of four instances, and the streaming palette stores.

use std::ops::{Add, Div, Mul, Sub};

use glam::{Mat4, Vec4};

use crate::anim::matrix::Mat3x4;

/// The most instances one lane vector holds (sixteen, in one vector of AVX-512).
pub const MAX_LANES: usize = 16;

/// A float or a vector of floats with lane-wise arithmetic.
pub(crate) trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    fn splat(x: f32) -> Self;
    fn sqrt(self) -> Self;
    fn clamp(self, lo: f32, hi: f32) -> Self;
}

impl Real for f32 {
    #[inline(always)]
    fn splat(x: f32) -> Self {
        x
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        f32::clamp(self, lo, hi)
    }
}

impl Real for Vec4 {
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Vec4::splat(x)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Vec4::sqrt(self)
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        self.max(Vec4::splat(lo)).min(Vec4::splat(hi))
    }
}

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
    /// streaming stores (see [`store_row`]).
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
        gather_four(frames, 0, i)
    }

    #[inline(always)]
    fn scatter_row<const STREAM: bool>(
        columns: [Self; 4],
        out: &mut [Mat3x4],
        joints: usize,
        j: usize,
        r: usize,
    ) {
        scatter_four::<STREAM>(columns, out, 0, joints, j, r);
    }
}

/// Entry `i` of lanes `first..first + 4`'s frames, one `Vec4` per component (a 4x4 SSE
/// transpose: SSE is baseline, so it inlines anywhere). Wider lane types use it by quarters
/// where their own shuffles are not available.
#[inline(always)]
pub(crate) fn gather_four(frames: &[&[Vec4]], first: usize, i: usize) -> [Vec4; 4] {
    let f = &frames[first..first + 4];
    let m = Mat4::from_cols(f[0][i], f[1][i], f[2][i], f[3][i]).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}

/// Stores row `r` of joint `j` of lanes `first..first + 4` from one `Vec4` per element (the
/// inverse of [`gather_four`]).
#[inline(always)]
pub(crate) fn scatter_four<const STREAM: bool>(
    columns: [Vec4; 4],
    out: &mut [Mat3x4],
    first: usize,
    joints: usize,
    j: usize,
    r: usize,
) {
    let [c0, c1, c2, c3] = columns;
    let rows = Mat4::from_cols(c0, c1, c2, c3).transpose();
    let lanes = [rows.x_axis, rows.y_axis, rows.z_axis, rows.w_axis];
    for (l, row) in lanes.into_iter().enumerate() {
        store_row::<STREAM>(&mut out[(first + l) * joints + j].rows[r], row);
    }
}

/// Local transforms of a batch's instances for one joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SoaTransform<L> {
    pub(crate) t: [L; 3],
    pub(crate) r: [L; 4],
    pub(crate) s: [L; 3],
}

impl<L: Lanes> Default for SoaTransform<L> {
    fn default() -> Self {
        Self {
            t: [L::default(); 3],
            r: [L::default(); 4],
            s: [L::default(); 3],
        }
    }
}

/// A 3x4 affine matrix of a batch's instances: `m[row][column]`, lanes are instances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SoaMat<L> {
    pub(crate) m: [[L; 4]; 3],
}

impl<L: Lanes> SoaMat<L> {
    #[inline(always)]
    pub(crate) fn identity() -> Self {
        let (o, z) = (L::splat(1.0), L::splat(0.0));
        Self {
            m: [[o, z, z, z], [z, o, z, z], [z, z, o, z]],
        }
    }
}

impl SoaMat<Vec4> {
    /// The same matrix in every lane.
    pub(crate) fn splat(a: &Mat3x4) -> Self {
        Self {
            m: a.rows.map(|row| [0, 1, 2, 3].map(|c| Vec4::splat(row[c]))),
        }
    }
}

/// Stores a palette row: with `STREAM`, without first reading the destination's cache line
/// (palettes are written once per frame and never read back by this thread; when a crowd's
/// palettes outgrow the caches this saves the read); otherwise an ordinary store, which keeps
/// small crowds' palettes in cache for whoever reads them next. [`finish_streaming`] orders
/// streaming stores before the frame is handed over.
#[inline(always)]
pub(crate) fn store_row<const STREAM: bool>(dst: &mut Vec4, v: Vec4) {
    if !STREAM {
        *dst = v;
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `dst` is a valid, exclusive, 16-byte aligned `Vec4` (glam aligns Vec4 to 16 on
    // x86-64, as `_mm_stream_ps` requires); SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_stream_ps((dst as *mut Vec4).cast::<f32>(), v.into());
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *dst = v;
    }
}

/// Makes the streaming stores of this thread visible before anything that follows (the end
/// of the task, then the frame's hand-over to the consumer).
#[inline]
pub(crate) fn finish_streaming() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}
