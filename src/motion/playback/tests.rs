use std::sync::Arc;

use glam::{DVec2, Vec3};

use super::*;
use crate::anim::{PoseScratch, SkinnedModel};
use crate::motion::gait::{Gait, GaitClips, GaitSpeeds};
use crate::motion::heading::{DEFAULT_TURN_RATE, wrap};
use crate::motion::track_path::TrackPath;
use crate::motion::trajectory::{Format, Sample, Track, Trajectories};
use crate::scene::{bind_positions, foot_joints, footprint, standing_basis};

/// Output frames per second of the tests' playback.
const FPS: f64 = 60.0;

fn builtin() -> Arc<SkinnedModel> {
    Arc::new(crate::asset::load_model(None).expect("builtin"))
}

fn settings(smooth: f64) -> PlaybackSettings {
    PlaybackSettings {
        smooth,
        turn_rate: DEFAULT_TURN_RATE,
        fade: 0.25,
        speeds: GaitSpeeds::default(),
        default_height: 1.75,
        height_variety: 0.0,
        origin: DVec2::new(100.0, 50.0),
        color_by: None,
    }
}

/// A crowd of `model` and the playback of `peds` in it.
/// A pedestrian of a test: its id, its samples and its height.
struct Ped {
    id: u64,
    samples: Vec<(f64, DVec2)>,
    height: Option<f32>,
}

impl Ped {
    /// Its whole path.
    fn path(&self) -> TrackPath {
        TrackPath::new(self.samples.iter().copied())
    }
}

/// The store of `peds`, as a file read whole.
fn store_of(peds: Vec<Ped>) -> TrackStore {
    let tracks = peds
        .into_iter()
        .map(|p| Track {
            id: p.id,
            samples: p
                .samples
                .into_iter()
                .map(|(time, at)| Sample {
                    time,
                    position: at.to_array(),
                    height: p.height,
                })
                .collect(),
        })
        .collect();
    TrackStore::from_trajectories(&Trajectories {
        file: "test".into(),
        format: Format::Csv,
        frame_rate: None,
        tracks,
        geometry: None,
    })
}

fn play(model: &Arc<SkinnedModel>, peds: Vec<Ped>, smooth: f64) -> (Crowd, Playback) {
    let mut crowd = Crowd::new(1).expect("crowd");
    let id = crowd.add_model(model.clone());
    let gaits = GaitClips::of(model, &[None, None, None]).expect("gaits");
    let m = PlayModel {
        id,
        standing: standing_basis(model),
        height: footprint(model).1,
        gaits,
        looks: Vec::new(),
        ramp: Vec::new(),
    };
    let mut playback = Playback::new(store_of(peds), vec![m], settings(smooth), 0);
    playback.reserve(&mut crowd).expect("reserve");
    (crowd, playback)
}

/// A pedestrian that stands 2 s, walks 4 s at 1.3 m/s, runs 3 s at 3.2 m/s, walks 2 s at
/// 1.3 m/s and stands 2 s, along +x of the file from (100, 50), sampled at 25 Hz.
fn stand_walk_run_stop(id: u64) -> Ped {
    let legs = [(2.0, 0.0), (4.0, 1.3), (3.0, 3.2), (2.0, 1.3), (2.0, 0.0)];
    let mut samples = Vec::new();
    let (mut t, mut x) = (0.0f64, 100.0f64);
    for (duration, speed) in legs {
        let steps = (duration * 25.0) as usize;
        for _ in 0..steps {
            samples.push((t, DVec2::new(x, 50.0)));
            t += 0.04;
            x += speed * 0.04;
        }
    }
    samples.push((t, DVec2::new(x, 50.0)));
    Ped {
        id,
        samples,
        height: None,
    }
}

#[test]
fn gaits_and_rates_follow_the_speed() {
    let model = builtin();
    let (mut crowd, mut playback) = play(&model, vec![stand_walk_run_stop(7)], 0.0);
    let gaits = playback.models()[0].gaits.clone();
    let mut seen = Vec::new();
    let frames = (12.9 * FPS) as usize;
    for f in 0..=frames {
        let t = f as f64 / FPS;
        playback.advance_to(&mut crowd, t).expect("step");
        let m = playback.member(0).expect("present");
        if seen.last() != Some(&m.gait) {
            seen.push(m.gait);
        }
        let rate = crowd.instance(0).speed();
        let steady = gaits.steady_rate(m.gait, m.speed, m.scale);
        let most = (3.0 * steady).min(crate::motion::MAX_RATE);
        assert!(
            rate >= 0.25 * steady - 1e-5 && rate <= most + 1e-5,
            "t {t}: rate {rate}, steady {steady}"
        );
        // Mid-leg: the gait of the leg's speed, walking and running at speed / stride.
        for (mid, gait, speed) in [
            (1.0, Gait::Stand, 0.0),
            (4.0, Gait::Walk, 1.3),
            (7.5, Gait::Run, 3.2),
            (12.6, Gait::Stand, 0.0),
        ] {
            if (t - mid).abs() < 1e-9 {
                assert_eq!(m.gait, gait, "t {t}");
                assert!((m.speed - speed).abs() < 1e-3, "t {t}: {}", m.speed);
                if gait != Gait::Stand {
                    // Around the steady rate of speed over stride.
                    let stride = gaits.strides[gait.index()] * m.scale;
                    let steady = speed / stride;
                    assert!(
                        rate >= 0.25 * steady - 1e-4 && rate <= 3.0 * steady + 1e-4,
                        "t {t}: {rate}"
                    );
                }
            }
        }
    }
    assert_eq!(
        seen,
        [Gait::Stand, Gait::Walk, Gait::Run, Gait::Walk, Gait::Stand]
    );
}

/// Stance-foot sliding over a playback: for every frame outside cross-fades, the lowest foot
/// joint, when within 3 cm of the lowest that joint stands in the clip playing (its planted
/// height: a joint is not the sole), and how fast it moves horizontally to the next frame. Returns (median,
/// 95th percentile) in m/s, and how many frames counted.
fn stance_slide(
    crowd: &mut Crowd,
    playback: &mut Playback,
    model: &SkinnedModel,
    times: impl Iterator<Item = f64>,
) -> (f32, f32, usize) {
    let feet = foot_joints(model);
    let bind = bind_positions(model);
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![crate::anim::Mat3x4::IDENTITY; joints];
    // Per frame: time, whether fading, its clip, each foot's position.
    let mut frames: Vec<(f64, bool, usize, Vec<Vec3>)> = Vec::new();
    for t in times {
        playback.advance_to(crowd, t).expect("step");
        if playback.present() == 0 {
            continue;
        }
        let inst = crowd.instance(0);
        inst.evaluate(&mut scratch, &mut palette);
        let world = crowd.world(0);
        let at: Vec<Vec3> = feet
            .iter()
            .map(|&j| world.transform_point3(palette[j].transform_point3(bind[j])))
            .collect();
        frames.push((t, inst.fade_weight().is_some(), inst.clip(), at));
    }
    // Each joint's planted height in each clip: the lowest it stands there.
    let planted = |clip: usize, f: usize| {
        frames
            .iter()
            .filter(|fr| fr.2 == clip)
            .map(|fr| fr.3[f].y)
            .fold(f32::INFINITY, f32::min)
    };
    let mut speeds = Vec::new();
    for pair in frames.windows(2) {
        let ((t0, fade0, c0, p0), (t1, fade1, c1, p1)) = (&pair[0], &pair[1]);
        if *fade0 || *fade1 || c0 != c1 {
            continue;
        }
        let above = |p: &[Vec3], f: usize| p[f].y - planted(*c0, f);
        let lowest = (0..feet.len())
            .min_by(|&a, &b| above(p0, a).total_cmp(&above(p0, b)))
            .expect("feet");
        if above(p0, lowest) <= 0.03 && above(p1, lowest) <= 0.03 {
            let d = Vec3::new(
                p1[lowest].x - p0[lowest].x,
                0.0,
                p1[lowest].z - p0[lowest].z,
            );
            speeds.push(d.length() / (t1 - t0) as f32);
        }
    }
    speeds.sort_by(f32::total_cmp);
    assert!(!speeds.is_empty(), "no stance frames");
    let pick = |q: f32| speeds[((speeds.len() - 1) as f32 * q) as usize];
    (pick(0.5), pick(0.95), speeds.len())
}

#[test]
fn feet_slide_less_at_the_stride_rate_than_at_a_wrong_one() {
    // The built-in's procedural feet roll and scuff, so even the right rate leaves some
    // slide (robot.glb's walk stays within the goal: tests/motion_feet.rs); a rate that
    // ignores the stride leaves much more.
    let model = builtin();
    let times = || (0..=(12.9 * FPS) as usize).map(|f| f as f64 / FPS);
    let (mut crowd, mut playback) = play(&model, vec![stand_walk_run_stop(3)], 0.0);
    let (median, _, n) = stance_slide(&mut crowd, &mut playback, &model, times());
    assert!(n > 300, "{n} stance frames");
    assert!(median <= 0.15, "median {median} m/s");
    // The fault: clips played as if their stride were half again as long.
    let (mut crowd, mut playback) = play(&model, vec![stand_walk_run_stop(3)], 0.0);
    for s in &mut playback.present.models_mut()[0].gaits.strides {
        *s *= 1.5;
    }
    for s in &mut playback.present.models_mut()[0].gaits.stances {
        *s = crate::scene::StanceProfile::default();
    }
    let (wrong, _, _) = stance_slide(&mut crowd, &mut playback, &model, times());
    assert!(
        wrong > 2.0 * median,
        "a wrong rate slides: median {wrong} m/s against {median}"
    );
}

#[test]
fn smooth_zero_keeps_the_file_positions_and_interpolates_linearly() {
    let model = builtin();
    let ped = stand_walk_run_stop(1);
    let path = ped.path();
    let (mut crowd, mut playback) = play(&model, vec![ped], 0.0);
    for f in 0..=(13.0 * 25.0) as usize {
        // Every sample time, and halfway to the next.
        for t in [f as f64 * 0.04, f as f64 * 0.04 + 0.02] {
            if t > path.end() {
                continue;
            }
            playback.advance_to(&mut crowd, t).expect("step");
            let root = playback.to_file(crowd.world(0).translation());
            let want = path.position(t);
            let off = DVec2::new(root[0], root[1]) - want;
            assert!(off.length() < 1e-3, "t {t}: {root:?} against {want}");
        }
    }
}

#[test]
fn heading_turns_at_most_its_rate_and_is_kept_while_standing() {
    let model = builtin();
    // Walk east 3 s, turn back west at once for 3 s, then stand.
    let mut samples = Vec::new();
    for k in 0..=75 {
        samples.push((k as f64 * 0.04, DVec2::new(k as f64 * 0.052, 0.0)));
    }
    for k in 1..=75 {
        samples.push((
            3.0 + k as f64 * 0.04,
            DVec2::new(3.9 - k as f64 * 0.052, 0.0),
        ));
    }
    samples.push((8.0, DVec2::new(0.0, 0.0)));
    let ped = Ped {
        id: 9,
        samples,
        height: Some(1.6),
    };
    let (mut crowd, mut playback) = play(&model, vec![ped], 0.5);
    let dt = 1.0 / FPS;
    let mut last: Option<f32> = None;
    let mut most = 0.0f32;
    for f in 0..=(8.0 * FPS) as usize {
        playback
            .advance_to(&mut crowd, f as f64 * dt)
            .expect("step");
        let m = playback.member(0).expect("present");
        if let Some(h) = last {
            let turned = wrap(m.heading - h).abs();
            most = most.max(turned);
            assert!(
                turned <= DEFAULT_TURN_RATE * dt as f32 + 1e-5,
                "turned {turned}"
            );
        }
        last = Some(m.heading);
        // The file's height: 1.6 m against the model's own.
        assert!((m.scale * footprint(&model).1 - 1.6).abs() < 1e-4);
    }
    assert!(
        most > 0.5 * DEFAULT_TURN_RATE * dt as f32,
        "it did turn: {most}"
    );
    // Facing west (world -x: heading -pi/2) by the end, standing.
    let h = last.expect("heading");
    assert!(wrap(h + std::f32::consts::FRAC_PI_2).abs() < 0.05, "{h}");
}

/// A pedestrian present from `from` to `to` seconds, standing at `x`.
fn span(id: u64, from: f64, to: f64, x: f64) -> Ped {
    Ped {
        id,
        samples: vec![(from, DVec2::new(x, 0.0)), (to, DVec2::new(x, 1.0))],
        height: None,
    }
}

#[test]
fn pedestrians_enter_at_their_first_sample_and_leave_after_their_last() {
    let model = builtin();
    let peds = vec![
        span(1, 0.0, 2.0, 0.0),
        span(2, 1.0, 3.0, 1.0),
        span(3, 1.5, 1.55, 2.0),
        span(4, 2.5, 4.0, 3.0),
    ];
    let (mut crowd, mut playback) = play(&model, peds, 0.0);
    assert_eq!(playback.most_present(), 3);
    let ids = |p: &Playback| {
        let mut v: Vec<u64> = (0..p.present())
            .map(|k| p.member(k).expect("member").id)
            .collect();
        v.sort_unstable();
        v
    };
    let mut entered = 0;
    let mut left = 0;
    for (t, want) in [
        (0.0, vec![1]),
        (0.99, vec![1]),
        (1.0, vec![1, 2]),
        (1.52, vec![1, 2, 3]),
        (2.0, vec![1, 2]),
        (2.01, vec![2]),
        (2.6, vec![2, 4]),
        (3.5, vec![4]),
        (4.0, vec![4]),
        (4.5, vec![]),
    ] {
        let c = playback.advance_to(&mut crowd, t).expect("step");
        entered += c.entered;
        left += c.left;
        assert_eq!(ids(&playback), want, "t {t}");
        assert_eq!(crowd.len(), want.len(), "t {t}");
        // Each crowd index shows its member: same place.
        for k in 0..playback.present() {
            let m = playback.member(k).expect("member");
            let root = playback.to_file(crowd.world(k).translation());
            assert!((DVec2::new(root[0], root[1]) - m.position).length() < 1e-3);
        }
    }
    assert_eq!((entered, left), (4, 4));
    // A step that jumps over pedestrian 3's whole stay never spawns it.
    let (mut crowd, mut playback) = play(&model, vec![span(3, 1.5, 1.55, 2.0)], 0.0);
    playback.advance_to(&mut crowd, 1.0).expect("step");
    let c = playback.advance_to(&mut crowd, 2.0).expect("step");
    assert_eq!((c.entered, c.left, crowd.len()), (0, 0, 0));
    // Seeking back rebuilds the crowd at that time.
    let peds = vec![span(1, 0.0, 2.0, 0.0), span(2, 1.0, 3.0, 1.0)];
    let (mut crowd, mut playback) = play(&model, peds, 0.0);
    playback.advance_to(&mut crowd, 2.5).expect("step");
    assert_eq!(ids(&playback), vec![2]);
    playback.advance_to(&mut crowd, 0.5).expect("seek back");
    assert_eq!(ids(&playback), vec![1]);
    assert_eq!(crowd.len(), 1);
}

#[test]
fn the_same_file_plays_the_same_way() {
    let model = builtin();
    let run = || {
        let (mut crowd, mut playback) = play(
            &model,
            vec![stand_walk_run_stop(5), span(6, 0.5, 9.0, 4.0)],
            1.0,
        );
        let mut out = Vec::new();
        for f in 0..300 {
            playback
                .advance_to(&mut crowd, f as f64 / 30.0)
                .expect("step");
            for i in 0..crowd.len() {
                out.push((
                    crowd.world(i).to_array(),
                    crowd.instance(i).time(),
                    crowd.instance(i).clip(),
                ));
            }
        }
        out
    };
    assert_eq!(run(), run());
}

#[test]
fn a_gap_in_a_track_is_crossed_going_forward_and_found_by_a_seek_into_it() {
    // Samples at 0 and 1 s, then nothing until 30 s (chunks in between hold nothing of it).
    let ped = Ped {
        id: 4,
        samples: [0.0, 1.0, 30.0, 31.0]
            .iter()
            .map(|&t| (t, DVec2::new(100.0 + t, 50.0)))
            .collect(),
        height: None,
    };
    let at = |playback: &Playback| playback.member(0).expect("present").position.x - 100.0;
    let (mut crowd, mut playback) = play(&model_once(), vec![ped], 0.0);
    for f in 0..=(20.0 * 10.0) as usize {
        playback
            .advance_to(&mut crowd, f as f64 * 0.1)
            .expect("step");
    }
    assert!(
        (at(&playback) - 20.0).abs() < 1e-9,
        "forward: {}",
        at(&playback)
    );
    // Back to the middle of the gap: a seek, which reads back to where the gap starts.
    playback.advance_to(&mut crowd, 15.0).expect("seek");
    assert!(
        (at(&playback) - 15.0).abs() < 1e-9,
        "seek: {}",
        at(&playback)
    );
    playback.advance_to(&mut crowd, 30.5).expect("step");
    assert!(
        (at(&playback) - 30.5).abs() < 1e-9,
        "after: {}",
        at(&playback)
    );
}

/// The built-in model, loaded once for the tests that need no other.
fn model_once() -> Arc<SkinnedModel> {
    static MODEL: std::sync::OnceLock<Arc<SkinnedModel>> = std::sync::OnceLock::new();
    MODEL.get_or_init(builtin).clone()
}

#[test]
fn a_long_file_is_held_a_window_at_a_time_and_a_seek_reads_only_around_it() {
    // 40 pedestrians at a time, each walking 60 s at 10 Hz, one entering every 1.5 s for
    // ten minutes: 400 pedestrians, 240,000 samples.
    let peds: Vec<Ped> = (0..400u64)
        .map(|k| {
            let t0 = k as f64 * 1.5;
            Ped {
                id: k,
                samples: (0..=600)
                    .map(|s| {
                        let t = t0 + s as f64 * 0.1;
                        (
                            t,
                            DVec2::new(100.0 + 1.2 * (t - t0), 50.0 + k as f64 % 20.0),
                        )
                    })
                    .collect(),
                height: None,
            }
        })
        .collect();
    let (mut crowd, mut playback) = play(&model_once(), peds, 1.5);
    // Present, about 40; each holds its window (0.75 s behind, 1 s ahead) and up to two
    // chunks of 2 s at 10 Hz: at most 60 samples. The file's 240,000 are never all held.
    let mut most_held = 0;
    for f in 0..(600.0 * 2.0) as usize {
        playback
            .advance_to(&mut crowd, f as f64 * 0.5)
            .expect("step");
        let (held, _) = playback.held_samples();
        most_held = most_held.max(held);
        assert!(
            held <= 60 * (playback.present() + 4),
            "{held} held at frame {f}"
        );
    }
    assert!(most_held > 20 * 40, "{most_held}: the window is held");
    // A seek back to 100 s reads the chunks around it, not the 50 before.
    let (_, before) = playback.held_samples();
    playback.advance_to(&mut crowd, 100.0).expect("back");
    let (_, after) = playback.held_samples();
    assert!(after - before <= 4, "a seek read {} chunks", after - before);
    let m = playback.member(0).expect("present");
    let path_x = 100.0 + 1.2 * (100.0 - (m.id as f64 * 1.5));
    assert!(
        (m.position.x - path_x).abs() < 1e-9,
        "{} against {path_x}",
        m.position.x
    );
}

#[test]
fn a_follower_steps_exactly_as_its_pedestrian_in_the_whole_playback() {
    let model = model_once();
    // Walking a circle from 1 s to 6 s, then nothing until 9 s (a gap of chunks), then on.
    let circling = || Ped {
        id: 7,
        samples: (0..=250)
            .filter(|k| !(126..225).contains(k))
            .map(|k| {
                let t = 1.0 + k as f64 * 0.04;
                let a = t * 0.4;
                (t, DVec2::new(100.0 + 3.0 * a.cos(), 50.0 + 3.0 * a.sin()))
            })
            .collect(),
        height: Some(1.62),
    };
    let peds = || {
        vec![
            span(1, 0.0, 4.0, 2.0),
            stand_walk_run_stop(5),
            circling(),
            span(9, 3.0, 12.0, 1.0),
        ]
    };
    let (mut crowd, mut playback) = play(&model, peds(), 1.0);
    let mut followers: Vec<Follower> = [5, 7]
        .iter()
        .map(|&id| {
            Follower::new(&playback, &crowd, id)
                .expect("follower")
                .expect("present in the file")
        })
        .collect();
    assert!(Follower::new(&playback, &crowd, 8).expect("none").is_none());
    // Forward at 30 frames a second, a seek back into the gap's start, and on again.
    let times = (0..360)
        .map(|f| f as f64 / 30.0)
        .chain((0..90).map(|f| 5.5 + f as f64 / 30.0));
    let mut seen = [0; 2];
    for t in times {
        playback.advance_to(&mut crowd, t).expect("step");
        for (follower, seen) in followers.iter_mut().zip(&mut seen) {
            follower.advance_to(t).expect("follower step");
            let alone = follower.state();
            let id = follower.id();
            let whole = (0..playback.present())
                .filter_map(|k| playback.member(k))
                .find(|m| m.id == id);
            assert_eq!(alone.is_some(), whole.is_some(), "{id} at {t}");
            if let (Some(a), Some(w)) = (alone, whole) {
                assert_eq!(
                    (a.position, a.heading, a.speed, a.gait, a.scale),
                    (w.position, w.heading, w.speed, w.gait, w.scale),
                    "{id} at {t}"
                );
                *seen += 1;
            }
        }
    }
    // Both were followed through most of their stay.
    assert!(seen[0] > 300 && seen[1] > 200, "{seen:?}");
}
