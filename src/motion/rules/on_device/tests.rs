use super::*;
use crate::crowd::ModelId;
use crate::motion::rules::WalkPaths;

use crate::motion::rules::two_models as crowd;

#[test]
fn records_keep_the_crowds_model_ranges_and_clocks_start_where_the_crowd_is() {
    let (mut crowd, mut motion) = crowd(20, WalkPaths::Lanes, true);
    for _ in 0..30 {
        motion.advance(&mut crowd, 1.0 / 30.0).expect("advance");
    }
    let tables = motion.on_device(&crowd).expect("tables");
    assert_eq!(tables.walkers.len(), 20);
    let mut slots: Vec<u32> = tables.walkers.iter().map(|w| w.slot).collect();
    slots.sort_unstable();
    assert_eq!(slots, (0..20).collect::<Vec<u32>>(), "each record once");
    for (i, w) in tables.walkers.iter().enumerate() {
        let range = crowd.model_range(ModelId(w.model));
        assert!(range.contains(&(w.slot as usize)), "instance {i}");
        let clock = &tables.clocks[i];
        let inst = crowd.instance(i);
        assert_eq!((clock.clip(), clock.time), (inst.clip(), inst.time()));
        assert_eq!(clock.fade().map(|f| f.0), inst.fade_source().map(|f| f.0));
    }
    // Model 1 has one clip fewer; its clips follow model 0's.
    assert_eq!(tables.models[1].first_clip, tables.models[0].clips);
    assert_eq!(tables.models[1].clips + 1, tables.models[0].clips);
    // Walking clips carry walkers at a speed; the first model's clip table says which.
    assert!(tables.clips.iter().any(|c| c.walk_speed > 0.0));
    // Every turn of a round goes to a different instance.
    let mut turns: Vec<u32> = tables.walkers.iter().map(|w| w.turn).collect();
    turns.sort_unstable();
    assert_eq!(turns, (0..20).collect::<Vec<u32>>());
}

#[test]
fn a_step_hands_out_the_schedules_turns_and_the_route() {
    let (crowd, mut motion) = crowd(240, WalkPaths::Rings, true);
    // 240 instances, one change each per 4 s: one turn a frame at 60 frames a second.
    let mut given = 0;
    for frame in 0..240 {
        let step = motion.advance_on_device(crowd.len(), 1.0 / 60.0);
        assert_eq!(step.count, 240);
        assert_eq!(step.route, ROUTE_RINGS);
        assert!(step.route_a > 0.0);
        assert!(step.turn < 240, "frame {frame}");
        given += step.changes;
    }
    assert!(
        (239..=240).contains(&given),
        "{given} turns in one interval"
    );
    assert_eq!(motion.clip_changes().changes, u64::from(given));
    let (crowd, mut motion) = super::tests::crowd(4, WalkPaths::InPlace, true);
    assert_eq!(
        motion.advance_on_device(crowd.len(), 0.1).route,
        ROUTE_IN_PLACE
    );
}

#[test]
fn a_crowd_the_gpu_cannot_advance_is_refused_with_the_reason() {
    let (crowd, motion) = crowd(4, WalkPaths::Lanes, false);
    let e = motion.on_device(&crowd).expect_err("nothing baked");
    assert!(e.to_string().contains("is not baked"), "{e}");

    let (mut crowd, motion) = super::tests::crowd(4, WalkPaths::Lanes, true);
    crowd.instance_mut(2).enqueue(1, 0.2).expect("queue");
    let e = motion.on_device(&crowd).expect_err("a queue");
    assert!(e.to_string().contains("instance 2 has clips queued"), "{e}");
}
