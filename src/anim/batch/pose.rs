//! To-root and palettes for four instances at once: the same top-down pass as
//! `anim::pose`, with every matrix element a vector of four instances.

use glam::{Mat4, Vec4};

use super::{LANES, SoaMat, SoaTransform};
use crate::anim::matrix::Mat3x4;
use crate::anim::skeleton::Skeleton;

/// `T * R * S` for four instances.
#[inline(always)]
fn from_trs(l: &SoaTransform) -> SoaMat {
    let [x, y, z, w] = l.r;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, yy, zz) = (x * x2, y * y2, z * z2);
    let (xy, xz, yz) = (x * y2, x * z2, y * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let [sx, sy, sz] = l.s;
    let one = Vec4::ONE;
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

/// `a * b` for four instances.
#[inline(always)]
fn mul(a: &SoaMat, b: &SoaMat) -> SoaMat {
    let mut c = SoaMat::IDENTITY;
    for r in 0..3 {
        let [a0, a1, a2, a3] = a.m[r];
        for k in 0..3 {
            c.m[r][k] = a0 * b.m[0][k] + a1 * b.m[1][k] + a2 * b.m[2][k];
        }
        c.m[r][3] = a0 * b.m[0][3] + a1 * b.m[1][3] + a2 * b.m[2][3] + a3;
    }
    c
}

/// Computes to-root transforms top-down into `to_root[1..]` and writes lane `l`'s palette
/// (`to_root * offset`) into `out[l]`; every output holds one matrix per joint.
#[inline(always)]
pub(super) fn write_palettes(
    skeleton: &Skeleton,
    locals: &[SoaTransform],
    to_root: &mut [SoaMat],
    out: [&mut [Mat3x4]; LANES],
) {
    let n = skeleton.len();
    to_root[0] = SoaMat::IDENTITY;
    let [o0, o1, o2, o3] = out;
    let outputs = o0
        .iter_mut()
        .zip(o1.iter_mut())
        .zip(o2.iter_mut())
        .zip(o3.iter_mut());
    let joints = locals[..n]
        .iter()
        .zip(&skeleton.parent_slots()[..n])
        .zip(&skeleton.offset_lanes()[..n]);
    for (j, (((local, &slot), offset), (((m0, m1), m2), m3))) in joints.zip(outputs).enumerate() {
        let world = mul(&to_root[slot as usize], &from_trs(local));
        to_root[j + 1] = world;
        let palette = mul(&world, offset);
        // Row r of every lane: transpose the row's four column vectors.
        for r in 0..3 {
            let [c0, c1, c2, c3] = palette.m[r];
            let rows = Mat4::from_cols(c0, c1, c2, c3).transpose();
            store_streaming(&mut m0.rows[r], rows.x_axis);
            store_streaming(&mut m1.rows[r], rows.y_axis);
            store_streaming(&mut m2.rows[r], rows.z_axis);
            store_streaming(&mut m3.rows[r], rows.w_axis);
        }
    }
}

/// Stores `v` without first reading the destination's cache line into the cache: palettes are
/// written once per frame and read by the consumer (the GPU), never by this thread, and a
/// crowd's palettes outgrow the caches. [`finish_streaming`] orders these stores before the
/// frame is handed over.
#[inline(always)]
fn store_streaming(dst: &mut Vec4, v: Vec4) {
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
