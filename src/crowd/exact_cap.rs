//! A frame's exact palettes within what the consumer can bind: when more instances are near
//! enough to need exact palettes than the palette range holds, the farthest of those that
//! have baked frames read them instead, so the frame is drawn (a little coarser at the back)
//! rather than refused.

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
}
