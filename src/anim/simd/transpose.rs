//! The transposes between lanes' `Vec4`s and vectors of one component each, written with
//! x86 shuffles: the batch kernels' gather (every lane's key, to one vector per component)
//! and scatter (one vector per palette row element, to every lane's row).
//!
//! Written generically (4x4 SSE transposes joined by quarters) they compiled, at sixteen
//! lanes, to a tangle of 128-, 256- and 512-bit shuffles and stack traffic; here eight
//! unpacks do the whole transpose (robot, 1,000 instances, one thread: 168 -> 221 M joints/s).
//! Pure data movement, so the values and their bits are those of the generic version.
//!
//! The functions are `#[inline(always)]` and not `#[target_feature]`: the intrinsics inline
//! into the kernel (which is compiled for the feature) only when nothing between them and the
//! kernel is a function of its own. Hence `unsafe`: the caller guarantees the feature.
//!
//! Lanes are loaded into 128-bit blocks in the order (k, k+4, k+8, ...), which makes the
//! unpacks leave every component in lane order with no final permute; rows come out of
//! block `b` of result `m` for lane `4b + m`.

// Every function here is only called (inlined) inside `unsafe` blocks whose callers checked the
// processor; the intrinsics' own requirement is that feature.
#![allow(unsafe_op_in_unsafe_fn)]

macro_rules! transposes {
    (
        $module:ident, $lanes:literal, $v:ty, blocks = [$($b:literal),*],
        up = $up:ident, down = $down:ident, insert = $insert:ident, extract = $extract:ident,
        unpacklo = $lo:ident, unpackhi = $hi:ident, unpacklo_pd = $lo_pd:ident,
        unpackhi_pd = $hi_pd:ident, to_pd = $to_pd:ident, to_ps = $to_ps:ident,
        load = $load:ident, store = $store:ident
    ) => {
        pub(crate) mod $module {
            use std::arch::x86_64::*;

            use glam::Vec4;

            /// Lanes `k`, `k + 4`, ... of entry `i`, one per 128-bit block.
            #[inline(always)]
            unsafe fn blocks(frames: &[&[Vec4]], i: usize, k: usize) -> $v {
                let mut v = $up(frames[k][i].into());
                $(v = $insert::<$b>(v, frames[k + 4 * $b][i].into());)*
                v
            }

            /// The transposes' shared middle: eight unpacks (see the module documentation).
            #[inline(always)]
            unsafe fn unpack(q: [$v; 4]) -> [$v; 4] {
                let (t0, t1) = ($lo(q[0], q[1]), $hi(q[0], q[1]));
                let (t2, t3) = ($lo(q[2], q[3]), $hi(q[2], q[3]));
                [
                    $to_ps($lo_pd($to_pd(t0), $to_pd(t2))),
                    $to_ps($hi_pd($to_pd(t0), $to_pd(t2))),
                    $to_ps($lo_pd($to_pd(t1), $to_pd(t3))),
                    $to_ps($hi_pd($to_pd(t1), $to_pd(t3))),
                ]
            }

            /// Entry `i` of every lane's frame as one vector per component (`x`, `y`, `z`,
            /// `w` across lanes).
            ///
            /// # Safety
            ///
            /// The processor must have the module's instruction set.
            #[inline(always)]
            pub(crate) unsafe fn gather(frames: &[&[Vec4]], i: usize) -> [[f32; $lanes]; 4] {
                let q = [
                    blocks(frames, i, 0),
                    blocks(frames, i, 1),
                    blocks(frames, i, 2),
                    blocks(frames, i, 3),
                ];
                let mut columns = [[0.0f32; $lanes]; 4];
                for (column, v) in columns.iter_mut().zip(unpack(q)) {
                    $store(column.as_mut_ptr(), v);
                }
                columns
            }

            /// Every lane's row `[c0, c1, c2, c3]` from four vectors of one element each.
            ///
            /// # Safety
            ///
            /// As [`gather`].
            #[inline(always)]
            pub(crate) unsafe fn rows(columns: &[[f32; $lanes]; 4]) -> [Vec4; $lanes] {
                let c = [
                    $load(columns[0].as_ptr()),
                    $load(columns[1].as_ptr()),
                    $load(columns[2].as_ptr()),
                    $load(columns[3].as_ptr()),
                ];
                let r = unpack(c);
                let mut out = [Vec4::ZERO; $lanes];
                for m in 0..4 {
                    out[m] = $down(r[m]).into();
                    $(out[4 * $b + m] = $extract::<$b>(r[m]).into();)*
                }
                out
            }
        }
    };
}

transposes!(
    avx2,
    8,
    __m256,
    blocks = [1],
    up = _mm256_castps128_ps256,
    down = _mm256_castps256_ps128,
    insert = _mm256_insertf128_ps,
    extract = _mm256_extractf128_ps,
    unpacklo = _mm256_unpacklo_ps,
    unpackhi = _mm256_unpackhi_ps,
    unpacklo_pd = _mm256_unpacklo_pd,
    unpackhi_pd = _mm256_unpackhi_pd,
    to_pd = _mm256_castps_pd,
    to_ps = _mm256_castpd_ps,
    load = _mm256_loadu_ps,
    store = _mm256_storeu_ps
);

transposes!(
    avx512,
    16,
    __m512,
    blocks = [1, 2, 3],
    up = _mm512_castps128_ps512,
    down = _mm512_castps512_ps128,
    insert = _mm512_insertf32x4,
    extract = _mm512_extractf32x4_ps,
    unpacklo = _mm512_unpacklo_ps,
    unpackhi = _mm512_unpackhi_ps,
    unpacklo_pd = _mm512_unpacklo_pd,
    unpackhi_pd = _mm512_unpackhi_pd,
    to_pd = _mm512_castps_pd,
    to_ps = _mm512_castpd_ps,
    load = _mm512_loadu_ps,
    store = _mm512_storeu_ps
);
