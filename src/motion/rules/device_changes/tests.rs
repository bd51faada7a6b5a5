use glam::{Quat, Vec3A};

use super::*;
use crate::anim::Mat3x4;
use crate::crowd::{Look, ModelId, RECORD_LOOK_MASK};
use crate::motion::DeviceClock;
use crate::motion::rules::{WalkPaths, two_models};

/// The GPU's copy of the state, applied as `shaders/crowd_state_apply.comp` applies commands
/// (what a command writes; a played clip only as the clip's index).
fn apply(walkers: &mut Vec<DeviceWalker>, clocks: &mut Vec<DeviceClock>, c: &DeviceCommand) {
    let i = c.instance as usize;
    let from = if c.kind == COMMAND_DESPAWNED {
        c.clip as usize
    } else {
        i
    };
    if walkers.len() <= i.max(from) {
        walkers.resize(i.max(from) + 1, DeviceWalker::default());
        clocks.resize(i.max(from) + 1, DeviceClock::default());
    }
    match c.kind {
        COMMAND_MOVED => walkers[i].start = c.walker.start,
        COMMAND_PLAYED => clocks[i].clips = (clocks[i].clips & !0xffff) | c.clip,
        COMMAND_REPLACED => {
            clocks[i] = DeviceClock {
                distance: clocks[i].distance,
                stride: clocks[i].stride,
                ..c.clock
            };
            walkers[i].flags = c.walker.flags;
        }
        COMMAND_RESTYLED => {
            let mask = RECORD_LOOK_MASK;
            walkers[i].flags = (walkers[i].flags & !mask) | (c.walker.flags & mask);
        }
        COMMAND_SPAWNED => {
            walkers[i] = c.walker;
            clocks[i] = c.clock;
        }
        COMMAND_DESPAWNED => {
            walkers[i] = walkers[from];
            clocks[i] = clocks[from];
        }
        COMMAND_RESLOTTED => walkers[i].slot = c.walker.slot,
        COMMAND_PACED => clocks[i].speed = c.clock.speed,
        other => panic!("unknown command {other}"),
    }
}

/// A small generator of choices (the same sequence every run).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

#[test]
fn spawns_and_despawns_mixed_with_every_other_change_leave_the_copy_as_the_crowd() {
    let (mut crowd, motion) = two_models(40, WalkPaths::InPlace, true);
    let look = crowd.add_look(Look::default()).expect("look");
    let tables = motion.on_device(&crowd).expect("tables");
    let (mut walkers, mut clocks) = (tables.walkers.clone(), tables.clocks.clone());
    let mut changes_of = DeviceChanges::new(&walkers, 16);
    crowd.set_change_tracking(true);
    let mut dice = Dice(7);
    let mut commands = Vec::new();
    let (mut spawned, mut despawned, mut reslotted) = (0, 0, 0);
    for frame in 0..200 {
        for _ in 0..dice.below(24) {
            let n = crowd.len();
            let i = dice.below(n);
            match dice.below(8) {
                0 | 1 if n < 80 => {
                    let at = Vec3A::new(dice.below(50) as f32, 0.0, frame as f32);
                    let world = Mat3x4::from_trs(at, Quat::IDENTITY, Vec3A::ONE);
                    let j = crowd
                        .spawn(ModelId(dice.below(2) as u32), world)
                        .expect("spawn");
                    if dice.below(2) == 0 {
                        crowd.set_look(j, look).expect("look");
                    }
                }
                2 | 3 if n > 0 => {
                    crowd.despawn(i).expect("despawn");
                }
                4 if n > 0 => {
                    let at = Vec3A::new(0.5 * frame as f32, 0.0, i as f32);
                    crowd.set_world(i, Mat3x4::from_trs(at, Quat::IDENTITY, Vec3A::ONE));
                }
                5 if n > 0 => crowd.play(i, dice.below(2), 0.0).expect("play"),
                6 if n > 0 => crowd.instance_mut(i).set_speed(0.25 * dice.below(8) as f32),
                7 if n > 0 => crowd.set_speed(i, 0.5 - 0.25 * dice.below(8) as f32),
                _ => {}
            }
        }
        let changes: Vec<InstanceChange> = crowd.take_changes().collect();
        commands.clear();
        let most = changes_of.commands(&changes, &crowd, &mut commands);
        for c in &commands {
            assert!(
                (c.instance as usize) < most,
                "frame {frame}: {c:?} past {most}"
            );
            spawned += usize::from(c.kind == COMMAND_SPAWNED);
            despawned += usize::from(c.kind == COMMAND_DESPAWNED);
            reslotted += usize::from(c.kind == COMMAND_RESLOTTED);
            apply(&mut walkers, &mut clocks, c);
        }
        let n = crowd.len();
        assert_eq!(changes_of.len(), n, "frame {frame}");
        walkers.truncate(n);
        clocks.truncate(n);
        assert_eq!(walkers.len(), n, "frame {frame}: the copy's length");
        let mut slots: Vec<u32> = walkers.iter().map(|w| w.slot).collect();
        slots.sort_unstable();
        assert_eq!(
            slots,
            (0..n as u32).collect::<Vec<_>>(),
            "frame {frame}: dense"
        );
        for (i, (w, c)) in walkers.iter().zip(&clocks).enumerate() {
            let inst = crowd.instance(i);
            assert_eq!(w.start, *crowd.world(i), "frame {frame}, instance {i}");
            assert_eq!(w.model, crowd.model_of(i).0, "frame {frame}, instance {i}");
            assert_eq!(
                w.flags >> crate::crowd::RECORD_LOOK_SHIFT,
                crowd.look_of(i).0,
                "frame {frame}, instance {i}: look"
            );
            assert_eq!(Some(w.slot), changes_of.slot_of(i));
            assert_eq!(c.clip(), inst.clip(), "frame {frame}, instance {i}: clip");
            assert_eq!(c.speed, inst.speed(), "frame {frame}, instance {i}: speed");
        }
    }
    // The sequence exercised what it claims.
    assert!(spawned > 100 && despawned > 100 && reslotted > 50);
    assert!(commands.capacity() > 0);
}

#[test]
fn a_change_to_an_instance_despawned_later_in_the_frame_gives_no_command() {
    let (mut crowd, motion) = two_models(6, WalkPaths::InPlace, true);
    let tables = motion.on_device(&crowd).expect("tables");
    let mut changes_of = DeviceChanges::new(&tables.walkers, 16);
    crowd.set_change_tracking(true);
    crowd.set_world(2, Mat3x4::IDENTITY);
    crowd.set_world(5, Mat3x4::IDENTITY);
    crowd.despawn(2).expect("despawn");
    let changes: Vec<InstanceChange> = crowd.take_changes().collect();
    let mut commands = Vec::new();
    assert_eq!(changes_of.commands(&changes, &crowd, &mut commands), 6);
    let kinds: Vec<(u32, u32)> = commands.iter().map(|c| (c.kind, c.instance)).collect();
    // Instance 5's move is read from where it is now (index 2) and given at index 5, which
    // the removal then copies into 2.
    assert_eq!(kinds[0], (COMMAND_MOVED, 5));
    assert_eq!(kinds[1], (COMMAND_DESPAWNED, 2));
    assert!(kinds[2..].iter().all(|&(k, _)| k == COMMAND_RESLOTTED));
    assert_eq!(changes_of.len(), 5);
}

#[test]
fn changes_are_recorded_only_while_tracked_and_become_commands_in_order() {
    let (mut crowd, motion) = two_models(4, WalkPaths::InPlace, true);
    let tables = motion.on_device(&crowd).expect("tables");
    crowd.set_world(1, Mat3x4::IDENTITY);
    assert_eq!(crowd.take_changes().count(), 0, "not tracked");
    crowd.set_change_tracking(true);
    let to = Mat3x4::from_trs(
        glam::Vec3A::new(1.0, 0.0, 2.0),
        glam::Quat::IDENTITY,
        glam::Vec3A::ONE,
    );
    crowd.set_world(3, to);
    crowd.play(2, 1, 0.25).expect("clip");
    crowd.instance_mut(0).set_speed(-0.5);
    assert!(crowd.play(2, 99, 0.0).is_err(), "no such clip");
    let changes: Vec<InstanceChange> = crowd.take_changes().collect();
    assert_eq!(
        changes,
        [
            InstanceChange::Moved(3),
            InstanceChange::Played {
                instance: 2,
                clip: 1,
                fade: 0.25
            },
            InstanceChange::Replaced(0),
        ]
    );
    let mut commands = Vec::new();
    let mut changes_of = DeviceChanges::new(&tables.walkers, 16);
    assert_eq!(changes_of.commands(&changes, &crowd, &mut commands), 4);
    assert_eq!(commands[0].kind, COMMAND_MOVED);
    assert_eq!(commands[0].walker.start, to);
    assert_eq!(
        (commands[1].kind, commands[1].clip, commands[1].fade),
        (COMMAND_PLAYED, 1, 0.25)
    );
    assert_eq!(
        (commands[2].kind, commands[2].clock.speed),
        (COMMAND_REPLACED, -0.5)
    );
    commands.clear();
    changes_of.commands(&[InstanceChange::Moved(4)], &crowd, &mut commands);
    assert!(commands.is_empty(), "no instance 4");
    crowd.set_change_tracking(false);
    crowd.set_world(1, to);
    assert_eq!(crowd.take_changes().count(), 0);
}
