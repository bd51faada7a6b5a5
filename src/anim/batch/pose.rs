//! To-root and palettes for a batch: the same top-down pass as `anim::pose`, with every
//! matrix element a vector of instances.

use glam::Vec4;

use super::lanes::Lanes;
use super::{SoaMat, SoaTransform};
use crate::anim::matrix::Mat3x4;
use crate::anim::skeleton::Skeleton;

/// `T * R * S` for every lane.
#[inline(always)]
fn from_trs<L: Lanes>(l: &SoaTransform<L>) -> SoaMat<L> {
    let [x, y, z, w] = l.r;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, yy, zz) = (x * x2, y * y2, z * z2);
    let (xy, xz, yz) = (x * y2, x * z2, y * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let [sx, sy, sz] = l.s;
    let one = L::splat(1.0);
    SoaMat {
        m: [
            [
                (one - (yy + zz)) * sx,
                (xy - wz) * sy,
                (xz + wy) * sz,
                l.t[0],
            ],
            [
                (xy + wz) * sx,
                (one - (xx + zz)) * sy,
                (yz - wx) * sz,
                l.t[1],
            ],
            [
                (xz - wy) * sx,
                (yz + wx) * sy,
                (one - (xx + yy)) * sz,
                l.t[2],
            ],
        ],
    }
}

/// `a * b` for every lane, `b`'s element `(i, k)` given by `b(i, k)`.
#[inline(always)]
fn mul<L: Lanes>(a: &SoaMat<L>, b: impl Fn(usize, usize) -> L) -> SoaMat<L> {
    let mut c = SoaMat::identity();
    for r in 0..3 {
        let [a0, a1, a2, a3] = a.m[r];
        for k in 0..3 {
            c.m[r][k] = a0 * b(0, k) + a1 * b(1, k) + a2 * b(2, k);
        }
        c.m[r][3] = a0 * b(0, 3) + a1 * b(1, 3) + a2 * b(2, 3) + a3;
    }
    c
}

/// Computes to-root transforms top-down into `to_root[1..]` and writes every lane's palette
/// (`to_root * offset`); lane `l`'s palette is `out[l * joints..(l + 1) * joints]`, written
/// with streaming stores when `STREAM`.
#[inline(always)]
pub(super) fn write_palettes<L: Lanes, const STREAM: bool>(
    skeleton: &Skeleton,
    locals: &[SoaTransform<L>],
    to_root: &mut [SoaMat<L>],
    out: &mut [Mat3x4],
) {
    let n = skeleton.len();
    assert_eq!(out.len(), n * L::N, "one palette per lane");
    to_root[0] = SoaMat::identity();
    let joints = locals[..n]
        .iter()
        .zip(&skeleton.parent_slots()[..n])
        .zip(&skeleton.offset_lanes()[..n]);
    for (j, ((local, &slot), offset)) in joints.enumerate() {
        let local = from_trs(local);
        let world = mul(&to_root[slot as usize], |i, k| local.m[i][k]);
        to_root[j + 1] = world;
        let palette = mul(&world, |i, k| L::widen(offset.m[i][k]));
        for (r, columns) in palette.m.into_iter().enumerate() {
            L::scatter_row::<STREAM>(columns, out, n, j, r);
        }
    }
}

/// [`write_palettes`] with the store kind chosen at run time (one branch per batch).
#[inline(always)]
pub(super) fn write_palettes_with<L: Lanes>(
    skeleton: &Skeleton,
    locals: &[SoaTransform<L>],
    to_root: &mut [SoaMat<L>],
    out: &mut [Mat3x4],
    streaming: bool,
) {
    if streaming {
        write_palettes::<L, true>(skeleton, locals, to_root, out);
    } else {
        write_palettes::<L, false>(skeleton, locals, to_root, out);
    }
}

/// Stores a palette row: with `STREAM`, without first reading the destination's cache line
/// (palettes are written once per frame and never read back by this thread; when a crowd's
/// palettes outgrow the caches this saves the read); otherwise an ordinary store, which keeps
/// small crowds' palettes in cache for whoever reads them next. [`finish_streaming`] orders
/// streaming stores before the frame is handed over.
#[inline(always)]
pub(super) fn store_row<const STREAM: bool>(dst: &mut Vec4, v: Vec4) {
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
