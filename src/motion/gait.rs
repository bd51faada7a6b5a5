//! Which clip a pedestrian plays and how fast, from how fast it moves: standing below a
//! threshold, walking with the clip's rate equal to the speed over the clip's stride speed (so
//! the planted foot stays put), running above a faster threshold. The thresholds up lie above
//! those down, so a speed hovering near one does not flip the clip every frame.

use crate::anim::SkinnedModel;
use crate::scene::{StanceProfile, stride_speed};

/// A way of moving, each played by one clip of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    /// Standing (the idle clip at its own pace).
    Stand,
    /// Walking.
    Walk,
    /// Running.
    Run,
}

impl Gait {
    /// The three gaits, in order of speed.
    pub const ALL: [Gait; 3] = [Gait::Stand, Gait::Walk, Gait::Run];

    /// Its index in [`Gait::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name, as `--clips` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Gait::Stand => "stand",
            Gait::Walk => "walk",
            Gait::Run => "run",
        }
    }
}

/// The speeds (metres per second) at which the gait changes. Defaults from the walking
/// literature: people stand below about 0.2 m/s and change from walking to running near
/// 2 m/s (the preferred transition speed measured on treadmills is 1.9-2.2 m/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaitSpeeds {
    /// A standing pedestrian starts walking above this.
    pub walk_above: f32,
    /// A walking pedestrian stops below this.
    pub stand_below: f32,
    /// A walking pedestrian starts running above this.
    pub run_above: f32,
    /// A running pedestrian walks again below this.
    pub walk_below: f32,
}

impl Default for GaitSpeeds {
    fn default() -> Self {
        Self {
            walk_above: 0.25,
            stand_below: 0.15,
            run_above: 2.3,
            walk_below: 1.9,
        }
    }
}

impl GaitSpeeds {
    /// The gait at `speed` for a pedestrian that was in `from` (a model without a run clip
    /// walks at any speed: `can_run` false).
    pub fn next(&self, from: Gait, speed: f32, can_run: bool) -> Gait {
        let g = match from {
            Gait::Stand if speed > self.run_above => Gait::Run,
            Gait::Stand if speed > self.walk_above => Gait::Walk,
            Gait::Walk if speed < self.stand_below => Gait::Stand,
            Gait::Walk if speed > self.run_above => Gait::Run,
            Gait::Run if speed < self.stand_below => Gait::Stand,
            Gait::Run if speed < self.walk_below => Gait::Walk,
            g => g,
        };
        if g == Gait::Run && !can_run {
            Gait::Walk
        } else {
            g
        }
    }

    /// The gait a pedestrian first seen at `speed` starts in (midway between the thresholds).
    pub fn first(&self, speed: f32, can_run: bool) -> Gait {
        if speed > 0.5 * (self.run_above + self.walk_below) && can_run {
            Gait::Run
        } else if speed > 0.5 * (self.walk_above + self.stand_below) {
            Gait::Walk
        } else {
            Gait::Stand
        }
    }
}

/// A model's clip for each gait and the speed each carries it at (model units per second at
/// playback rate 1, measured from its planted feet).
#[derive(Clone, Debug, PartialEq)]
pub struct GaitClips {
    /// Per gait (in [`Gait::ALL`] order), the clip's index in the model.
    pub clips: [usize; 3],
    /// Per gait, the clip's stride speed (0 for one that does not walk).
    pub strides: [f32; 3],
    /// Whether the model has a clip of its own to run with (else it walks faster).
    pub can_run: bool,
    /// Per gait, how fast the planted foot slides back at each moment of the clip.
    pub stances: [StanceProfile; 3],
}

/// The names a clip of each gait is found by, in order of preference (case-insensitive, a
/// clip whose name contains the word).
const NAMES: [&[&str]; 3] = [&["idle", "stand", "survey"], &["walk"], &["run"]];

/// Why a model's clips cannot be mapped to gaits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GaitError(pub String);

impl GaitClips {
    /// The model's clips for standing, walking and running: those `named` (per gait, a clip
    /// name or index given by `--clips`), else found by name (idle|stand|survey, walk, run;
    /// of several matches the first that treads forward for walk and run). A model needs a
    /// walking clip; without a standing clip it stands in its walk, frozen; without a running
    /// clip it walks faster.
    pub fn of(model: &SkinnedModel, named: &[Option<String>; 3]) -> Result<Self, GaitError> {
        let mut clips = [None; 3];
        for g in Gait::ALL {
            if let Some(name) = &named[g.index()] {
                let c = model.resolve_clip(name).map_err(|e| {
                    GaitError(format!(
                        "--clips {}={name}: {}: {e}",
                        g.name(),
                        model.name()
                    ))
                })?;
                clips[g.index()] = Some(c);
            }
        }
        for g in Gait::ALL {
            if clips[g.index()].is_some() {
                continue;
            }
            clips[g.index()] = find(model, g);
        }
        let walk = clips[1].ok_or_else(|| {
            GaitError(format!(
                "{} has no clip named like walk (its clips: {}); name one with --clips \
                 walk=NAME",
                model.name(),
                clip_names(model)
            ))
        })?;
        let stand = clips[0].unwrap_or(walk);
        let can_run = clips[2].is_some();
        let run = clips[2].unwrap_or(walk);
        let clips = [stand, walk, run];
        let mut strides = clips.map(|c| stride_speed(model, c));
        // Standing is played at its own pace, whatever its feet do.
        strides[0] = 0.0;
        let stances = [
            StanceProfile::default(),
            StanceProfile::of(model, walk),
            StanceProfile::of(model, run),
        ];
        Ok(Self {
            clips,
            strides,
            can_run,
            stances,
        })
    }

    /// The playback rate of `gait` at `speed` (metres per second) for a character scaled by
    /// `scale` (stride speeds are in model units), `time` seconds into its clip: speed over the
    /// planted foot's backward speed at that moment, so the foot stays put all through its
    /// stance (within a quarter and three times the steady rate, so a foot that barely moves
    /// in the clip does not stall or race it); speed over the stride speed while no foot is
    /// planted. 1 for standing and for a clip that does not tread. A standing clip that is
    /// the walk itself (a model without an idle) is frozen.
    pub fn rate(&self, gait: Gait, speed: f32, scale: f32, time: f32) -> f32 {
        let stride = self.strides[gait.index()] * scale;
        let steady = match gait {
            Gait::Stand if self.clips[0] == self.clips[1] => return 0.0,
            Gait::Stand => return 1.0,
            _ if stride > 1e-6 => speed / stride,
            _ => return 1.0,
        };
        let rate = match self.stances[gait.index()].at(time) {
            Some(back) if back * scale > 1e-6 => {
                (speed / (back * scale)).clamp(0.25 * steady, 3.0 * steady)
            }
            _ => steady,
        };
        rate.min(MAX_RATE)
    }

    /// The playback rate of `gait` over a step of `dt` seconds in which a character scaled by
    /// `scale` went `distance` metres forward, its clip at `time`: the rate that brings the
    /// clip to where its planted foot has slid back by the same distance, so the foot stays
    /// where it was in the world whatever the step's length (within a quarter and three times
    /// the steady rate, as [`GaitClips::rate`]). Standing, a zero step or a clip without a
    /// profile take [`GaitClips::rate`] at `speed`.
    pub fn step_rate(
        &self,
        gait: Gait,
        (distance, dt): (f32, f32),
        speed: f32,
        scale: f32,
        time: f32,
    ) -> f32 {
        if gait == Gait::Stand || !(dt > 0.0) || !(scale > 0.0) {
            return self.rate(gait, speed, scale, time);
        }
        let steady = self.steady_rate(gait, speed, scale);
        match self.stances[gait.index()].time_after(time, distance / scale) {
            Some(later) => ((later - time) / dt)
                .clamp(0.25 * steady, 3.0 * steady)
                .min(MAX_RATE),
            None => self.rate(gait, speed, scale, time),
        }
    }

    /// The steady rate of `gait` at `speed`: speed over the stride speed (see
    /// [`GaitClips::rate`]).
    pub fn steady_rate(&self, gait: Gait, speed: f32, scale: f32) -> f32 {
        let stride = self.strides[gait.index()] * scale;
        match gait {
            Gait::Stand if self.clips[0] == self.clips[1] => 0.0,
            Gait::Stand => 1.0,
            _ if stride > 1e-6 => (speed / stride).min(MAX_RATE),
            _ => 1.0,
        }
    }
}

/// The fastest a clip is played: above it the feet slide rather than the legs blur (a file's
/// glitch can ask for 20 m/s).
pub const MAX_RATE: f32 = 4.0;

/// The first clip named like `gait`; for walk and run, preferably one that treads forward.
fn find(model: &SkinnedModel, gait: Gait) -> Option<usize> {
    let lower: Vec<String> = model
        .clips()
        .iter()
        .map(|c| c.name().to_lowercase())
        .collect();
    for word in NAMES[gait.index()] {
        let matches: Vec<usize> = (0..lower.len())
            .filter(|&c| lower[c].contains(word))
            .collect();
        if matches.is_empty() {
            continue;
        }
        if gait == Gait::Stand {
            return matches.first().copied();
        }
        let treading = matches
            .iter()
            .copied()
            .find(|&c| stride_speed(model, c) > 0.0);
        return treading.or(matches.first().copied());
    }
    None
}

fn clip_names(model: &SkinnedModel) -> String {
    let names: Vec<String> = model
        .clips()
        .iter()
        .map(|c| crate::text::printable(c.name()).into_owned())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Parses `--clips stand=NAME,walk=NAME,run=NAME` (any of the three, in any order).
pub fn parse_clip_names(spec: &str) -> Result<[Option<String>; 3], String> {
    let mut out: [Option<String>; 3] = [None, None, None];
    for part in spec.split(',') {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("'{part}' is not GAIT=CLIP (stand, walk or run)"))?;
        let g = Gait::ALL
            .into_iter()
            .find(|g| g.name() == key.trim())
            .ok_or_else(|| format!("'{key}' is not a gait: stand, walk or run"))?;
        if value.trim().is_empty() {
            return Err(format!("{key}= names no clip"));
        }
        out[g.index()] = Some(value.trim().to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_have_hysteresis() {
        let s = GaitSpeeds::default();
        assert_eq!(s.next(Gait::Stand, 0.2, true), Gait::Stand);
        assert_eq!(s.next(Gait::Stand, 0.3, true), Gait::Walk);
        assert_eq!(s.next(Gait::Walk, 0.2, true), Gait::Walk);
        assert_eq!(s.next(Gait::Walk, 0.1, true), Gait::Stand);
        assert_eq!(s.next(Gait::Walk, 2.0, true), Gait::Walk);
        assert_eq!(s.next(Gait::Walk, 2.5, true), Gait::Run);
        assert_eq!(s.next(Gait::Run, 2.0, true), Gait::Run);
        assert_eq!(s.next(Gait::Run, 1.5, true), Gait::Walk);
        assert_eq!(s.next(Gait::Walk, 3.0, false), Gait::Walk);
        assert_eq!(s.first(0.1, true), Gait::Stand);
        assert_eq!(s.first(1.0, true), Gait::Walk);
        assert_eq!(s.first(3.0, true), Gait::Run);
    }

    #[test]
    fn the_builtin_maps_its_clips_and_rates_follow_the_stride() {
        let model = crate::asset::load_model(None).expect("builtin");
        let g = GaitClips::of(&model, &[None, None, None]).expect("gaits");
        let names: Vec<&str> = g.clips.iter().map(|&c| model.clips()[c].name()).collect();
        assert_eq!(names, ["idle", "walk", "run"]);
        assert!(g.can_run && g.strides[1] > 0.5 && g.strides[2] > g.strides[1]);
        // Twice the stride speed plays the walk twice as fast; a half-size character at the
        // same speed steps twice as often again.
        let r = g.steady_rate(Gait::Walk, 2.0 * g.strides[1], 1.0);
        assert!((r - 2.0).abs() < 1e-5);
        assert!((g.steady_rate(Gait::Walk, g.strides[1], 0.5) - 2.0).abs() < 1e-5);
        assert_eq!(g.rate(Gait::Stand, 0.1, 1.0, 0.3), 1.0);
        // Mid-stance the rate follows the planted foot: speed over its speed then.
        let walk = &g.stances[1];
        let (t, back) = (0..100)
            .map(|k| k as f32 / 100.0)
            .find_map(|t| walk.at(t).map(|b| (t, b)))
            .expect("a planted moment");
        let r = g.rate(Gait::Walk, 1.2, 1.0, t);
        assert!(
            (r - (1.2 / back).clamp(0.25 * 1.2 / g.strides[1], 3.0 * 1.2 / g.strides[1])).abs()
                < 1e-5
        );
        // Named overrides, and a clip that does not exist.
        let named = parse_clip_names("stand=walk, run=idle").expect("parse");
        let g = GaitClips::of(&model, &named).expect("named");
        assert_eq!(g.clips, [1, 1, 0]);
        assert_eq!(g.rate(Gait::Stand, 0.0, 1.0, 0.0), 0.0);
        let bad = parse_clip_names("walk=nope").expect("parse");
        let e = GaitClips::of(&model, &bad).expect_err("unknown clip");
        assert!(e.0.contains("walk=nope"), "{e}");
        assert!(parse_clip_names("hop=walk").is_err());
        assert!(parse_clip_names("walk").is_err());
    }
}
