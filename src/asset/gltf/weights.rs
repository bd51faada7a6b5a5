//! Joint influences of skinned vertices: `JOINTS_n` / `WEIGHTS_n` sets mapped through the
//! primitive's skin into the skeleton, reduced to the four largest, and normalized.

use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;

/// How far a weight sum may be from 1 before it is worth a warning. Quantized weights
/// (normalized bytes) routinely miss 1 by a few 1/255ths; those are renormalized silently.
const SUM_TOLERANCE: f32 = 0.01;

/// One vertex's joints (skeleton indices) and their weights.
pub(super) type Influence = ([u16; 4], [f32; 4]);

/// The influence sets of one primitive: each set is (joint indices, weights), 4 per vertex.
pub(super) struct Sets {
    /// `JOINTS_n` values (indices into the skin's joint list), flattened.
    pub joints: Vec<Vec<u32>>,
    /// `WEIGHTS_n` values, flattened.
    pub weights: Vec<Vec<f32>>,
}

/// Joints (skeleton indices) and weights of every vertex. `skin` maps skin joint indices to
/// skeleton joints. A joint index past the skin is an error even with a zero weight (the
/// specification requires every index in range), and so are weights whose sum is not finite
/// (they cannot be renormalized); a vertex whose weights are all zero is bound to its first
/// listed joint (warned once).
pub(super) fn influences(
    ctx: &mut Ctx,
    section: &str,
    sets: &Sets,
    count: usize,
    skin: &[u16],
    skin_name: &str,
) -> Result<Vec<Influence>, LoadError> {
    let mut out = Vec::with_capacity(count);
    let mut all: Vec<(u16, f32)> = Vec::with_capacity(4 * sets.joints.len());
    for v in 0..count {
        all.clear();
        let mut first_joint = None;
        for (set, (joints, weights)) in sets.joints.iter().zip(&sets.weights).enumerate() {
            for slot in 0..4 {
                let (j, w) = (joints[4 * v + slot], weights[4 * v + slot]);
                let record = || format!("vertex {v}");
                if !w.is_finite() {
                    return Err(ctx
                        .error(
                            ErrorKind::NonFinite,
                            section,
                            format!("WEIGHTS_{set} has a weight that is not finite"),
                        )
                        .at_record(record()));
                }
                if w < 0.0 {
                    return Err(ctx
                        .error(
                            ErrorKind::Invalid,
                            section,
                            format!("WEIGHTS_{set} has the negative weight {w}"),
                        )
                        .at_record(record()));
                }
                let Some(joint) = skin.get(j as usize).copied() else {
                    return Err(ctx
                        .error(
                            ErrorKind::IndexOutOfRange,
                            section,
                            format!(
                                "JOINTS_{set} uses joint {j}, but {skin_name} has {} joints",
                                skin.len()
                            ),
                        )
                        .at_record(record()));
                };
                if first_joint.is_none() {
                    first_joint = Some(joint);
                }
                if w == 0.0 {
                    continue;
                }
                all.push((joint, w));
            }
        }
        // Judged before dropping influences: a sum below 1 caused by dropping is expected.
        let total: f32 = all.iter().map(|&(_, w)| w).sum();
        if !total.is_finite() {
            return Err(ctx
                .error(
                    ErrorKind::NonFinite,
                    section,
                    "the weights sum to infinity, so they cannot be normalized",
                )
                .at_record(format!("vertex {v}")));
        }
        if all.len() > 4 {
            // Largest first; ties keep the file's order (stable sort).
            all.sort_by(|a, b| b.1.total_cmp(&a.1));
            all.truncate(4);
            ctx.warn_once(
                "more than four influences",
                format!("{section}: vertices with more than four joint influences keep the four largest, renormalized"),
            );
        }
        let sum: f32 = all.iter().map(|&(_, w)| w).sum();
        let mut joints = [0u16; 4];
        let mut weights = [0f32; 4];
        if !(sum > 0.0) {
            ctx.warn_once(
                "zero weights",
                format!("{section}: vertex {v} has no non-zero weight; such vertices follow their first listed joint"),
            );
            joints[0] = first_joint.or(skin.first().copied()).unwrap_or(0);
            weights[0] = 1.0;
        } else {
            if (total - 1.0).abs() > SUM_TOLERANCE {
                ctx.warn_once(
                    "weight sum",
                    format!("{section}: vertex {v} has weights summing to {total}; weights are renormalized"),
                );
            }
            for (k, &(j, w)) in all.iter().enumerate() {
                joints[k] = j;
                weights[k] = w / sum;
            }
        }
        out.push((joints, weights));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_influences_keep_the_four_largest() {
        let mut ctx = Ctx::new("t.gltf", 0);
        let sets = Sets {
            joints: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
            weights: vec![vec![0.05, 0.3, 0.05, 0.1], vec![0.2, 0.1, 0.15, 0.05]],
        };
        let skin: Vec<u16> = (10..18).collect();
        let out = influences(&mut ctx, "s", &sets, 1, &skin, "skins[0]").expect("valid");
        let (j, w) = out[0];
        assert_eq!(j, [11, 14, 16, 13]);
        let kept = 0.3 + 0.2 + 0.15 + 0.1;
        for (a, b) in w
            .iter()
            .zip([0.3 / kept, 0.2 / kept, 0.15 / kept, 0.1 / kept])
        {
            assert!((a - b).abs() < 1e-6);
        }
        assert_eq!(ctx.into_warnings().len(), 1);
    }

    #[test]
    fn a_weighted_joint_past_the_skin_is_an_error() {
        let mut ctx = Ctx::new("t.gltf", 0);
        let sets = Sets {
            joints: vec![vec![0, 9, 0, 0]],
            weights: vec![vec![0.5, 0.5, 0.0, 0.0]],
        };
        let err =
            influences(&mut ctx, "s", &sets, 1, &[0, 1], "skins[0]").expect_err("out of range");
        assert_eq!(err.kind, ErrorKind::IndexOutOfRange);
        // The specification requires every index in range, weighted or not.
        let sets = Sets {
            joints: vec![vec![0, 9, 0, 0]],
            weights: vec![vec![1.0, 0.0, 0.0, 0.0]],
        };
        let err = influences(&mut ctx, "s", &sets, 1, &[0, 1], "skins[0]").expect_err("range");
        assert_eq!(err.kind, ErrorKind::IndexOutOfRange);
    }

    #[test]
    fn weights_summing_to_infinity_are_refused() {
        let mut ctx = Ctx::new("t.gltf", 0);
        let sets = Sets {
            joints: vec![vec![0, 1, 0, 0]],
            weights: vec![vec![3e38, 3e38, 0.0, 0.0]],
        };
        let err = influences(&mut ctx, "s", &sets, 1, &[0, 1], "skins[0]").expect_err("inf");
        assert_eq!(err.kind, ErrorKind::NonFinite);
    }
}
