//! Sampling one clip for a batch of instances at once, one instance per SIMD lane: the
//! lane version of [`ClipSampler::sample`], over the same key groups.

use glam::Vec4;

use super::{ClipSampler, GroupKind, KeyGroup};
use crate::anim::simd::{Lanes, MAX_LANES, SoaTransform, slerp_weights_on_arc};

/// Each lane's frame of one group (its keys at one key time); only the first `L::N` are used.
type Frames<'a> = [&'a [Vec4]; MAX_LANES];

/// The part `range` of every lane's frame.
#[inline(always)]
fn cut<'a>(frames: &Frames<'a>, lanes: usize, range: std::ops::Range<usize>) -> Frames<'a> {
    let mut out: Frames<'a> = [&[]; MAX_LANES];
    for (o, f) in out.iter_mut().zip(&frames[..lanes]) {
        *o = &f[range.clone()];
    }
    out
}

/// Lane frames split by property: (translations, rotations, scales).
#[inline(always)]
fn split<'a>(
    g: &KeyGroup,
    frames: &Frames<'a>,
    lanes: usize,
    per_key: usize,
) -> (Frames<'a>, Frames<'a>, Frames<'a>) {
    let nt = g.translations.len() * per_key;
    let nr = g.rotations.len() * per_key;
    let ns = g.scales.len() * per_key;
    (
        cut(frames, lanes, 0..nt),
        cut(frames, lanes, nt..nt + nr),
        cut(frames, lanes, nt + nr..nt + nr + ns),
    )
}

#[inline(always)]
fn gather<L: Lanes>(frames: &Frames<'_>, i: usize) -> [L; 4] {
    L::gather(&frames[..L::N], i)
}

#[inline(always)]
fn lerp<L: Lanes>(a: L, b: L, f: L) -> L {
    a * (L::splat(1.0) - f) + b * f
}

#[inline(always)]
fn lerp3<L: Lanes>(a: [L; 4], b: [L; 4], f: L) -> [L; 3] {
    [
        lerp(a[0], b[0], f),
        lerp(a[1], b[1], f),
        lerp(a[2], b[2], f),
    ]
}

#[inline(always)]
fn splat<L: Lanes>(v: Vec4) -> [L; 4] {
    [L::splat(v.x), L::splat(v.y), L::splat(v.z), L::splat(v.w)]
}

#[inline(always)]
fn xyz<L: Lanes>(v: [L; 4]) -> [L; 3] {
    [v[0], v[1], v[2]]
}

impl ClipSampler {
    /// Samples every joint for a batch of `L::N` instances, instance `l` at `times[l]`, into
    /// the first joint-count entries of `out` (the sampling stage's length rule, as
    /// [`ClipSampler::sample`]).
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the joint count.
    #[inline(always)]
    pub(crate) fn sample_lanes<L: Lanes>(
        &self,
        times: &[f32; MAX_LANES],
        out: &mut [SoaTransform<L>],
    ) {
        let out = &mut out[..self.joints];
        for g in &self.groups {
            if g.kind == GroupKind::Constant {
                write_constant(g, &self.data[g.base..][..g.stride], out);
                continue;
            }
            let timeline = &self.timelines[g.timeline];
            let mut a: Frames<'_> = [&[]; MAX_LANES];
            let mut b: Frames<'_> = [&[]; MAX_LANES];
            let mut fraction = [0.0f32; MAX_LANES];
            let mut span = [0.0f32; MAX_LANES];
            for l in 0..L::N {
                let (k, f) = timeline.locate(times[l]);
                a[l] = &self.data[g.base + k * g.stride..][..g.stride];
                b[l] = &self.data[g.base + (k + 1) * g.stride..][..g.stride];
                fraction[l] = f;
                span[l] = timeline.times[k + 1] - timeline.times[k];
            }
            let f = L::load(&fraction);
            match g.kind {
                GroupKind::Linear => interpolate::<L, false>(g, &a, &b, f, out),
                GroupKind::Step => interpolate::<L, true>(g, &a, &b, f.floor(), out),
                GroupKind::Cubic => interpolate_cubic(g, &a, &b, f, L::load(&span), out),
                GroupKind::Constant => {}
            }
        }
    }
}

#[inline(always)]
fn write_constant<L: Lanes>(g: &KeyGroup, a: &[Vec4], out: &mut [SoaTransform<L>]) {
    let (ta, rest) = a.split_at(g.translations.len());
    let (ra, sa) = rest.split_at(g.rotations.len());
    for (&j, v) in g.translations.iter().zip(ta) {
        out[j as usize].t = xyz(splat(*v));
    }
    for (&j, v) in g.rotations.iter().zip(ra) {
        out[j as usize].r = splat(*v);
    }
    for (&j, v) in g.scales.iter().zip(sa) {
        out[j as usize].s = xyz(splat(*v));
    }
}

/// Lerps translations and scales; rotations are slerped, or for STEP (`f` exactly 0 or 1)
/// lerped, which picks one key bit for bit.
#[inline(always)]
fn interpolate<L: Lanes, const STEP: bool>(
    g: &KeyGroup,
    a: &Frames<'_>,
    b: &Frames<'_>,
    f: L,
    out: &mut [SoaTransform<L>],
) {
    let (at, ar, as_) = split(g, a, L::N, 1);
    let (bt, br, bs) = split(g, b, L::N, 1);
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].t = lerp3(gather(&at, i), gather(&bt, i), f);
    }
    if STEP {
        for (i, &j) in g.rotations.iter().enumerate() {
            let (a, b): ([L; 4], [L; 4]) = (gather(&ar, i), gather(&br, i));
            out[j as usize].r = mix4(&a, &b, L::splat(1.0) - f, f);
        }
    } else {
        // Two rotations per arc entry (the sampler's module documentation).
        let arcs = cut(a, L::N, g.arcs());
        for (pair, joints) in g.rotations.chunks(2).enumerate() {
            let arc: [L; 4] = gather(&arcs, pair);
            for (half, &j) in joints.iter().enumerate() {
                let i = 2 * pair + half;
                let (a, b): ([L; 4], [L; 4]) = (gather(&ar, i), gather(&br, i));
                let (wa, wb) = slerp_weights_on_arc(arc[2 * half], arc[2 * half + 1], f);
                out[j as usize].r = mix4(&a, &b, wa, wb);
            }
        }
    }
    for (i, &j) in g.scales.iter().enumerate() {
        out[j as usize].s = lerp3(gather(&as_, i), gather(&bs, i), f);
    }
}

/// glTF's cubic Hermite spline; entries are (in-tangent, value, out-tangent) triples.
#[inline(always)]
fn interpolate_cubic<L: Lanes>(
    g: &KeyGroup,
    a: &Frames<'_>,
    b: &Frames<'_>,
    s: L,
    dt: L,
    out: &mut [SoaTransform<L>],
) {
    let (s2, s3) = (s * s, s * s * s);
    let (one, two, three) = (L::splat(1.0), L::splat(2.0), L::splat(3.0));
    let h00 = two * s3 - three * s2 + one;
    let h10 = (s3 - two * s2 + s) * dt;
    let h01 = three * s2 - two * s3;
    let h11 = (s3 - s2) * dt;
    let h = [h00, h10, h01, h11];
    let (at, ar, as_) = split(g, a, L::N, 3);
    let (bt, br, bs) = split(g, b, L::N, 3);
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].t = xyz(hermite(&at, &bt, i, &h).0);
    }
    for (i, &j) in g.rotations.iter().enumerate() {
        let (q, key) = hermite(&ar, &br, i, &h);
        let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        // Near-zero results (absurd tangents) fall back to the key, as the per-instance path.
        let safe = len.select_gt(1e-6, len, one);
        let unit = |k: usize| len.select_gt(1e-6, q[k] / safe, key[k]);
        out[j as usize].r = [unit(0), unit(1), unit(2), unit(3)];
    }
    for (i, &j) in g.scales.iter().enumerate() {
        out[j as usize].s = xyz(hermite(&as_, &bs, i, &h).0);
    }
}

/// Entry `i` of a cubic property (the triple at `3i`: in-tangent, value, out-tangent) with the
/// Hermite basis `h` = (h00, h10, h01, h11); also returns the first key's value.
#[inline(always)]
fn hermite<L: Lanes>(a: &Frames<'_>, b: &Frames<'_>, i: usize, h: &[L; 4]) -> ([L; 4], [L; 4]) {
    let (v0, out0): ([L; 4], [L; 4]) = (gather(a, 3 * i + 1), gather(a, 3 * i + 2));
    let (in1, v1): ([L; 4], [L; 4]) = (gather(b, 3 * i), gather(b, 3 * i + 1));
    let c = |k: usize| v0[k] * h[0] + out0[k] * h[1] + v1[k] * h[2] + in1[k] * h[3];
    ([c(0), c(1), c(2), c(3)], v0)
}

/// `a * wa + b * wb` component by component. A function rather than a closure, and spelled
/// out rather than an array `map`: closures were not reliably inlined into the vector
/// kernels (at sixteen lanes the rotation blend became a call per component).
#[inline(always)]
fn mix4<L: Lanes>(a: &[L; 4], b: &[L; 4], wa: L, wb: L) -> [L; 4] {
    [
        a[0] * wa + b[0] * wb,
        a[1] * wa + b[1] * wb,
        a[2] * wa + b[2] * wb,
        a[3] * wa + b[3] * wb,
    ]
}
