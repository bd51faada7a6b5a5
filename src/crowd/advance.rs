//! The update job: every member's clocks, clip queue and cross-fade advanced, in parallel
//! chunks on the pool for a large crowd; while each member is at hand, its bucket and its
//! reach (what the next choice between exact and baked reads of it) are brought up to date.

use rayon::prelude::*;

use super::members::{Buckets, Member, Members};
use super::reach::{Reach, ReachSource, Reaches};
use super::workers::{INSTANCES_PER_TASK, Workers};

/// Advances every member by `dt` seconds and computes every reach again. Returns whether a
/// member changed bucket (clip or fade state), which the slot order then needs to know.
pub(crate) fn advance(
    members: &mut Members,
    reaches: &mut Reaches,
    source: &ReachSource<'_>,
    workers: &mut Workers,
    dt: f32,
) -> bool {
    let (buckets, members) = members.all_mut();
    let reach = reaches.rewrite_all();
    let advance = |(chunk, reach): (&mut [Member], &mut [Reach])| {
        advance_chunk(chunk, reach, buckets, source, dt)
    };
    if workers.serial_pass(members.len()) {
        advance((members, reach))
    } else {
        let mut changed = false;
        workers.run(|| {
            changed = members
                .par_chunks_mut(INSTANCES_PER_TASK)
                .zip(reach.par_chunks_mut(INSTANCES_PER_TASK))
                .map(advance)
                .reduce(|| false, |a, b| a | b);
        });
        changed
    }
}

/// Advances a chunk of members and their reaches; reports whether one changed bucket.
fn advance_chunk(
    chunk: &mut [Member],
    reach: &mut [Reach],
    buckets: Buckets<'_>,
    source: &ReachSource<'_>,
    dt: f32,
) -> bool {
    let mut changed = false;
    for (m, r) in chunk.iter_mut().zip(reach.iter_mut()) {
        m.anim.advance(dt);
        let bucket = buckets.of(&m.anim, m.model);
        changed |= bucket != m.bucket;
        m.bucket = bucket;
        *r = source.of(m);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Mat3x4;
    use crate::crowd::baked::BakedLibrary;
    use crate::crowd::model_bounds::BoundsTable;
    use crate::crowd::test_models::stick;

    /// `count` members of a two-clip stick, with their reaches and the data they come from.
    fn crowd(count: usize) -> (Members, Reaches, BoundsTable, BakedLibrary) {
        let model = stick(2);
        let mut bounds = BoundsTable::default();
        bounds.add(&model);
        let mut members = Members::default();
        let id = members.add_model(model);
        let mut reaches = Reaches::default();
        for _ in 0..count {
            members.spawn(id, Mat3x4::IDENTITY).expect("spawn");
            reaches.push(Reach::default());
        }
        (members, reaches, bounds, BakedLibrary::default())
    }

    #[test]
    fn clocks_advance_and_a_clip_change_is_reported_once() {
        for threads in [1, 2] {
            let (mut members, mut reaches, bounds, baked) = crowd(5);
            let source = ReachSource {
                bounds: &bounds,
                baked: &baked,
            };
            let mut workers = Workers::new(threads).expect("workers");
            workers.set_serial_below(0, 0);
            assert!(!advance(
                &mut members,
                &mut reaches,
                &source,
                &mut workers,
                0.25
            ));
            assert!(members.all().iter().all(|m| m.anim.time() == 0.25));
            // Every reach is computed: each stick stands in its first clip's sphere.
            let first = source.of(&members.all()[0]);
            assert!(
                reaches.all().iter().all(|r| *r == first),
                "{threads} threads"
            );

            // A clip changed behind the crowd's back: the next update finds the new bucket.
            members.anim_mut(3).play(1, 0.0).expect("clip");
            assert!(advance(
                &mut members,
                &mut reaches,
                &source,
                &mut workers,
                0.1
            ));
            assert_eq!(members.all()[3].bucket, 1);
            assert!(!advance(
                &mut members,
                &mut reaches,
                &source,
                &mut workers,
                0.1
            ));
        }
    }
}
