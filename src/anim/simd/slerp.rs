//! The slerp weights, written once for one value (`f32`) and for every lane type (one
//! instance per lane): the per-instance sampler and the batch sampler share them bit for bit.

use super::Real;

/// `sin(x) / x` for `x` in `[0, pi/2]`, as a polynomial in `x^2`: exact to f32 rounding and,
/// unlike the quotient, well behaved at 0.
#[inline(always)]
pub(crate) fn sinc<R: Real>(x: R) -> R {
    let x2 = x * x;
    // Taylor coefficients (-1)^k / (2k+1)!; the first omitted term is below 1e-9 at x = pi/2.
    let p = R::splat(1.0 / 6_227_020_800.0);
    let p = p * x2 - R::splat(1.0 / 39_916_800.0);
    let p = p * x2 + R::splat(1.0 / 362_880.0);
    let p = p * x2 - R::splat(1.0 / 5_040.0);
    let p = p * x2 + R::splat(1.0 / 120.0);
    let p = p * x2 - R::splat(1.0 / 6.0);
    p * x2 + R::splat(1.0)
}

/// `acos(d)` for `d` in `[0, 1]` (Abramowitz and Stegun 4.4.46, absolute error below 2e-8).
/// The coefficients keep their published digits.
#[allow(clippy::excessive_precision)]
#[inline(always)]
pub(crate) fn acos_unit<R: Real>(d: R) -> R {
    let d = d.clamp(0.0, 1.0);
    let p = R::splat(-0.001_262_491_1);
    let p = p * d + R::splat(0.006_670_090_1);
    let p = p * d - R::splat(0.017_088_125_6);
    let p = p * d + R::splat(0.030_891_881_0);
    let p = p * d - R::splat(0.050_174_304_6);
    let p = p * d + R::splat(0.088_978_987_4);
    let p = p * d - R::splat(0.214_598_801_6);
    let p = p * d + R::splat(1.570_796_305_0);
    (R::splat(1.0) - d).sqrt() * p
}

/// Weights `(wa, wb)` such that `wa * a + wb * b` is the slerp at fraction `f` between unit
/// quaternions `a` and `b` whose dot product `d` is not negative.
///
/// `sin((1-f)t)/sin t` and `sin(f t)/sin t` are written as `(1-f) sinc((1-f)t)/sinc t` and
/// `f sinc(f t)/sinc t`, which stay exact as the angle `t` goes to 0, so no branch is needed
/// for nearly equal keys. Divisions rather than one reciprocal: at `f = 0` (a key time) the
/// weights come out as exactly 1 and 0, so sampling at a key returns the key bit for bit.
#[inline(always)]
pub(crate) fn slerp_weights<R: Real>(d: R, f: R) -> (R, R) {
    let (theta, s) = arc(d);
    slerp_weights_on_arc(theta, s, f)
}

/// The angle `theta = acos(d)` between two keys whose dot product is `d`, and `sinc(theta)`:
/// the part of [`slerp_weights`] that depends only on the keys, not on the fraction, so a
/// sampler can compute it once per key pair.
#[inline(always)]
pub(crate) fn arc<R: Real>(d: R) -> (R, R) {
    let theta = acos_unit(d);
    (theta, sinc(theta))
}

/// [`slerp_weights`] from the keys' [`arc`]: the same operations, so the same bits.
#[inline(always)]
pub(crate) fn slerp_weights_on_arc<R: Real>(theta: R, s: R, f: R) -> (R, R) {
    let g = R::splat(1.0) - f;
    (g * sinc(g * theta) / s, f * sinc(f * theta) / s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    #[test]
    fn sinc_and_acos_are_accurate() {
        for i in 0..=1000 {
            let x = i as f32 / 1000.0 * std::f32::consts::FRAC_PI_2;
            let want = if x == 0.0 {
                1.0
            } else {
                (x as f64).sin() / x as f64
            };
            assert!((sinc(x) as f64 - want).abs() < 2e-7, "sinc({x})");
            let d = i as f32 / 1000.0;
            assert!(
                (acos_unit(d) as f64 - (d as f64).acos()).abs() < 2e-7,
                "acos({d})"
            );
        }
    }

    /// The batch sampler stores each key pair's arc and finishes the weights per lane: that
    /// must be the one-step computation bit for bit, whatever the arc was computed in.
    #[test]
    fn weights_from_a_stored_arc_are_the_same_bits() {
        for i in 0..=200 {
            let d = i as f32 / 200.0;
            let (theta, s) = arc(d);
            for k in 0..=16 {
                let f = k as f32 / 16.0;
                let one_step = slerp_weights(d, f);
                let from_arc = slerp_weights_on_arc(theta, s, f);
                let lanes =
                    slerp_weights_on_arc(Vec4::splat(theta), Vec4::splat(s), Vec4::splat(f));
                assert_eq!(one_step.0.to_bits(), from_arc.0.to_bits(), "d {d} f {f}");
                assert_eq!(one_step.1.to_bits(), from_arc.1.to_bits(), "d {d} f {f}");
                assert_eq!(
                    (lanes.0[2].to_bits(), lanes.1[2].to_bits()),
                    (one_step.0.to_bits(), one_step.1.to_bits())
                );
            }
        }
    }

    #[test]
    fn lanes_match_scalars_bit_for_bit() {
        let d = Vec4::new(0.0, 0.3, 0.999_999, 1.0);
        let f = Vec4::new(0.0, 0.25, 0.5, 1.0);
        let (wa, wb) = slerp_weights(d, f);
        for l in 0..4 {
            let (sa, sb) = slerp_weights(d[l], f[l]);
            assert_eq!(
                (wa[l].to_bits(), wb[l].to_bits()),
                (sa.to_bits(), sb.to_bits())
            );
        }
    }
}
