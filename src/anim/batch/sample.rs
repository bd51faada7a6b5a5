//! Sampling one clip for four instances at once (see the module above).

use glam::{Mat4, Vec4};

use super::{LANES, SoaTransform};
use crate::anim::lanes::slerp_weights;
use crate::anim::sampler::{ClipSampler, GroupKind, KeyGroup};

/// Each lane's frame of one group (its keys for one key time), cut to one property's entries.
type Frames<'a> = [&'a [Vec4]; LANES];

/// Entry `i` of every lane's frame, as one vector per component: the four lanes' keys are
/// loaded and transposed.
#[inline(always)]
fn gather(frames: &Frames<'_>, i: usize) -> [Vec4; 4] {
    let m = Mat4::from_cols(frames[0][i], frames[1][i], frames[2][i], frames[3][i]).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}

/// The part `range` of every lane's frame.
#[inline(always)]
fn cut<'a>(frames: &Frames<'a>, range: std::ops::Range<usize>) -> Frames<'a> {
    (*frames).map(|f| &f[range.clone()])
}

/// Lane frames split by property: (translations, rotations, scales).
#[inline(always)]
fn split<'a>(
    g: &KeyGroup,
    frames: &Frames<'a>,
    per_key: usize,
) -> (Frames<'a>, Frames<'a>, Frames<'a>) {
    let nt = g.translations.len() * per_key;
    let nr = g.rotations.len() * per_key;
    let ns = g.scales.len() * per_key;
    (
        cut(frames, 0..nt),
        cut(frames, nt..nt + nr),
        cut(frames, nt + nr..nt + nr + ns),
    )
}

#[inline(always)]
fn lerp(a: Vec4, b: Vec4, f: Vec4) -> Vec4 {
    a * (Vec4::ONE - f) + b * f
}

#[inline(always)]
fn splat(v: Vec4) -> [Vec4; 4] {
    [
        Vec4::splat(v.x),
        Vec4::splat(v.y),
        Vec4::splat(v.z),
        Vec4::splat(v.w),
    ]
}

#[inline(always)]
fn xyz(v: [Vec4; 4]) -> [Vec4; 3] {
    [v[0], v[1], v[2]]
}

impl ClipSampler {
    /// Samples every joint for four instances at `times` into `out` (one entry per joint).
    #[inline(always)]
    pub(crate) fn sample_lanes(&self, times: [f32; LANES], out: &mut [SoaTransform]) {
        assert_eq!(out.len(), self.joints, "one output transform per joint");
        for g in &self.groups {
            if g.kind == GroupKind::Constant {
                write_constant(g, &self.data[g.base..][..g.stride], out);
                continue;
            }
            let timeline = &self.timelines[g.timeline];
            let mut key = [0usize; LANES];
            let mut fraction = [0.0f32; LANES];
            let mut span = [0.0f32; LANES];
            for l in 0..LANES {
                let (k, f) = timeline.locate(times[l]);
                key[l] = k;
                fraction[l] = f;
                span[l] = timeline.times[k + 1] - timeline.times[k];
            }
            let frame = |k: usize| &self.data[g.base + k * g.stride..][..g.stride];
            let a = key.map(frame);
            let b = key.map(|k| frame(k + 1));
            let f = Vec4::from_array(fraction);
            match g.kind {
                GroupKind::Linear => interpolate::<false>(g, &a, &b, f, out),
                GroupKind::Step => interpolate::<true>(g, &a, &b, f.floor(), out),
                GroupKind::Cubic => interpolate_cubic(g, &a, &b, f, Vec4::from_array(span), out),
                GroupKind::Constant => {}
            }
        }
    }
}

#[inline(always)]
fn write_constant(g: &KeyGroup, a: &[Vec4], out: &mut [SoaTransform]) {
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

#[inline(always)]
fn lerp3(a: [Vec4; 4], b: [Vec4; 4], f: Vec4) -> [Vec4; 3] {
    [
        lerp(a[0], b[0], f),
        lerp(a[1], b[1], f),
        lerp(a[2], b[2], f),
    ]
}

/// Lerps translations and scales; rotations are slerped, or for STEP (`f` exactly 0 or 1)
/// lerped, which picks one key bit for bit.
#[inline(always)]
fn interpolate<const STEP: bool>(
    g: &KeyGroup,
    a: &Frames<'_>,
    b: &Frames<'_>,
    f: Vec4,
    out: &mut [SoaTransform],
) {
    let (at, ar, as_) = split(g, a, 1);
    let (bt, br, bs) = split(g, b, 1);
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].t = lerp3(gather(&at, i), gather(&bt, i), f);
    }
    for (i, &j) in g.rotations.iter().enumerate() {
        let (a, b) = (gather(&ar, i), gather(&br, i));
        let (wa, wb) = if STEP {
            (Vec4::ONE - f, f)
        } else {
            slerp_weights(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], f)
        };
        out[j as usize].r = [0, 1, 2, 3].map(|c| a[c] * wa + b[c] * wb);
    }
    for (i, &j) in g.scales.iter().enumerate() {
        out[j as usize].s = lerp3(gather(&as_, i), gather(&bs, i), f);
    }
}

/// glTF's cubic Hermite spline; entries are (in-tangent, value, out-tangent) triples.
#[inline(always)]
fn interpolate_cubic(
    g: &KeyGroup,
    a: &Frames<'_>,
    b: &Frames<'_>,
    s: Vec4,
    dt: Vec4,
    out: &mut [SoaTransform],
) {
    let (s2, s3) = (s * s, s * s * s);
    let h00 = Vec4::splat(2.0) * s3 - Vec4::splat(3.0) * s2 + Vec4::ONE;
    let h10 = (s3 - Vec4::splat(2.0) * s2 + s) * dt;
    let h01 = Vec4::splat(-2.0) * s3 + Vec4::splat(3.0) * s2;
    let h11 = (s3 - s2) * dt;
    // Entry i of a property is the triple at 3i (in-tangent, value, out-tangent).
    let eval = |a: &Frames<'_>, b: &Frames<'_>, i: usize| {
        let (v0, out0) = (gather(a, 3 * i + 1), gather(a, 3 * i + 2));
        let (in1, v1) = (gather(b, 3 * i), gather(b, 3 * i + 1));
        let c = |k: usize| v0[k] * h00 + out0[k] * h10 + v1[k] * h01 + in1[k] * h11;
        ([c(0), c(1), c(2), c(3)], v0)
    };
    let (at, ar, as_) = split(g, a, 3);
    let (bt, br, bs) = split(g, b, 3);
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].t = xyz(eval(&at, &bt, i).0);
    }
    for (i, &j) in g.rotations.iter().enumerate() {
        let (q, key) = eval(&ar, &br, i);
        let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        // Near-zero results (absurd tangents) fall back to the key, as the per-instance path.
        let ok = len.cmpgt(Vec4::splat(1e-6));
        let safe = Vec4::select(ok, len, Vec4::ONE);
        out[j as usize].r = [0, 1, 2, 3].map(|k| Vec4::select(ok, q[k] / safe, key[k]));
    }
    for (i, &j) in g.scales.iter().enumerate() {
        out[j as usize].s = xyz(eval(&as_, &bs, i).0);
    }
}
