//! A frame's exact palettes within what the consumer can bind: when more instances are near
//! enough to need exact palettes than the palette range holds, the farthest of those that
//! have baked frames read them instead, so the frame is drawn (a little coarser at the back)
//! rather than refused.

/// The cap on a frame's exact palette matrices, and what applying it keeps between frames.
pub(crate) struct ExactCap {
    /// The most exact palette matrices one frame may hold (what the consumer can bind).
    max: usize,
    /// Instances that could read baked frames instead, when the cap is reached (kept to avoid
    /// reallocating).
    candidates: Vec<Candidate>,
    /// Whether the cap has been reported (once per crowd).
    reported: bool,
}

impl Default for ExactCap {
    /// No cap.
    fn default() -> Self {
        Self {
            max: usize::MAX,
            candidates: Vec::new(),
            reported: false,
        }
    }
}

impl ExactCap {
    /// The most exact palette matrices one frame may hold.
    pub(crate) fn set_max(&mut self, max: usize) {
        self.max = max;
    }

    /// Turns the farthest of the instances exact in `exact` (by instance) to baked until the
    /// exact ones' matrices fit the cap, and warns the first time it does. Instance `i` takes
    /// `joints(i)` matrices, and `fallback_distance_sq(i)` is its squared distance from the
    /// eye if it has baked frames to read instead (`None`: it can only be exact). `all` is
    /// every instance's matrices together: a cap at or above it cannot bind, and the count is
    /// skipped. No allocation once the candidates have grown to the crowd.
    pub(crate) fn apply(
        &mut self,
        exact: &mut [bool],
        all: usize,
        joints: impl Fn(usize) -> u32,
        fallback_distance_sq: impl Fn(usize) -> Option<f32>,
    ) {
        if self.max >= all {
            return;
        }
        let wanted = || {
            exact
                .iter()
                .enumerate()
                .filter(|(_, x)| **x)
                .map(|(i, _)| i)
        };
        let total: usize = wanted().map(|i| joints(i) as usize).sum();
        if total <= self.max {
            return;
        }
        self.candidates.clear();
        self.candidates.extend(wanted().filter_map(|i| {
            fallback_distance_sq(i).map(|distance_sq| Candidate {
                distance_sq,
                index: i as u32,
                joints: joints(i),
            })
        }));
        let (left, turned) = cap_exact(exact, &mut self.candidates, total, self.max);
        if !self.reported {
            self.reported = true;
            log::warn!(
                "{total} exact palette matrices wanted, {} fit the device: the {turned} \
                 farthest of the instances that need them read baked frames instead \
                 ({left} exact matrices)",
                self.max
            );
        }
    }
}

/// One instance that could give up its exact palette: squared distance from the eye, its
/// index, and the palette matrices it frees.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Candidate {
    pub distance_sq: f32,
    pub index: u32,
    pub joints: u32,
}

/// Turns the farthest of `candidates` from exact to baked in `exact` until the exact
/// instances' matrices (`total`) are at most `cap`; returns the matrices left and how many
/// instances were turned. `candidates` is reordered (no allocation).
pub(crate) fn cap_exact(
    exact: &mut [bool],
    candidates: &mut [Candidate],
    mut total: usize,
    cap: usize,
) -> (usize, usize) {
    if total <= cap {
        return (total, 0);
    }
    candidates.sort_unstable_by(|a, b| b.distance_sq.total_cmp(&a.distance_sq));
    let mut turned = 0;
    for c in candidates.iter() {
        if total <= cap {
            break;
        }
        if let Some(x) = exact.get_mut(c.index as usize)
            && *x
        {
            *x = false;
            total -= c.joints as usize;
            turned += 1;
        }
    }
    (total, turned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_farthest_give_way_first_until_it_fits() {
        let mut exact = vec![true; 5];
        let mut candidates: Vec<Candidate> = [9.0, 1.0, 25.0, 4.0, 16.0]
            .iter()
            .enumerate()
            .map(|(i, &d)| Candidate {
                distance_sq: d,
                index: i as u32,
                joints: 10,
            })
            .collect();
        let (left, turned) = cap_exact(&mut exact, &mut candidates, 50, 25);
        assert_eq!((left, turned), (20, 3));
        // Distances 25, 16 and 9 gave way; 1 and 4 stay exact.
        assert_eq!(exact, [false, true, false, true, false]);
        // Within the cap: nothing changes.
        let mut exact = vec![true; 2];
        assert_eq!(cap_exact(&mut exact, &mut candidates[..0], 20, 25), (20, 0));
        assert_eq!(exact, [true, true]);
    }

    #[test]
    fn only_instances_with_baked_frames_give_way_and_only_past_the_cap() {
        // Instance k is k units away and takes 10 matrices; instance 3 has no baked frames.
        let distance_sq = |i: usize| (i != 3).then_some((i * i) as f32);
        let joints = |_| 10;
        let mut cap = ExactCap::default();
        let mut exact = vec![true, false, true, true, true];
        cap.apply(&mut exact, 50, joints, distance_sq);
        assert_eq!(exact, [true, false, true, true, true], "no cap");

        cap.set_max(25);
        cap.apply(&mut exact, 50, joints, distance_sq);
        // 40 wanted: the farthest that can, 4 then 2, give way; 3 cannot.
        assert_eq!(exact, [true, false, false, true, false]);
        assert!(cap.reported);

        // A cap above every instance's matrices together skips the count.
        let mut exact = vec![true; 5];
        cap.apply(&mut exact, 25, joints, distance_sq);
        assert_eq!(exact, [true; 5]);
    }
}
