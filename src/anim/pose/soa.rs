//! Local-to-palette for a batch: the same top-down pass as [`super::local_to_palette`], with
//! every matrix element a vector of instances ([`Lanes`]).

use glam::Vec4;

use crate::anim::matrix::Mat3x4;
use crate::anim::simd::{Lanes, SoaMat, SoaTransform};
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
/// (`to_root * offset`, `offsets` being the skeleton's offsets splatted across lanes); lane
/// `l`'s palette is `out[l * joints..(l + 1) * joints]`, written with streaming stores when
/// `STREAM`.
///
/// Length rule (the one every stage follows): inputs and outputs may be longer than needed and
/// only their first entries are read or written; shorter panics.
#[inline(always)]
fn local_to_palette<L: Lanes, const STREAM: bool>(
    skeleton: &Skeleton,
    offsets: &[SoaMat<Vec4>],
    locals: &[SoaTransform<L>],
    to_root: &mut [SoaMat<L>],
    out: &mut [Mat3x4],
) {
    let n = skeleton.len();
    let out = &mut out[..n * L::N];
    to_root[0] = SoaMat::identity();
    let joints = locals[..n]
        .iter()
        .zip(&skeleton.parent_slots()[..n])
        .zip(&offsets[..n]);
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

/// [`local_to_palette`] with the store kind chosen at run time (one branch per batch).
#[inline(always)]
pub(crate) fn local_to_palette_with<L: Lanes>(
    skeleton: &Skeleton,
    offsets: &[SoaMat<Vec4>],
    locals: &[SoaTransform<L>],
    to_root: &mut [SoaMat<L>],
    out: &mut [Mat3x4],
    streaming: bool,
) {
    if streaming {
        local_to_palette::<L, true>(skeleton, offsets, locals, to_root, out);
    } else {
        local_to_palette::<L, false>(skeleton, offsets, locals, to_root, out);
    }
}
