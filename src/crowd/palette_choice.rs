//! The choice, every frame and for every instance, between an exact palette (evaluated on the
//! CPU into the ring slot) and baked frames (shared by every instance of a clip): by the
//! animation mode, and in [`AnimationMode::Auto`] by whether the baked frames' error could
//! show in the camera's view ([`AnimationView`]), within the cap on exact palettes
//! ([`ExactCap`]). The exact palettes are then placed one after another in slot order.

use rayon::prelude::*;

use super::exact_cap::ExactCap;
use super::members::Members;
use super::reach::Reach;
use super::slot_order::Entry;
use super::visibility::AnimationView;
use super::workers::{INSTANCES_PER_TASK, Workers};

/// Where palettes come from (`--animation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnimationMode {
    /// Every instance's palette is evaluated on the CPU each frame.
    Exact,
    /// Every instance whose clip is baked reads the baked frames.
    Baked,
    /// Near instances exact, far ones baked: exact where the baked frames' error could show
    /// in the camera's view (see [`AnimationView`]).
    #[default]
    Auto,
}

/// How many instances of the last frame had exact palettes and how many baked frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimationCounts {
    /// Palettes evaluated on the CPU.
    pub exact: usize,
    /// Palettes read from baked frames.
    pub baked: usize,
    /// Palette matrices written into the ring.
    pub palette_matrices: usize,
}

/// What decides between exact palettes and baked frames this frame.
struct Rule<'a> {
    reach: &'a [Reach],
    any_baked: bool,
    mode: AnimationMode,
    view: Option<AnimationView>,
}

impl Rule<'_> {
    /// Whether every instance is exact whatever it plays.
    fn all_exact(&self) -> bool {
        match self.mode {
            AnimationMode::Exact => true,
            AnimationMode::Baked => !self.any_baked,
            AnimationMode::Auto => !self.any_baked || self.view.is_none(),
        }
    }

    /// Fills `exact` for the members from `first` on.
    fn classify(&self, first: usize, exact: &mut [bool]) {
        for (r, x) in self.reach[first..].iter().zip(exact.iter_mut()) {
            *x = self.needs_exact(r);
        }
    }

    fn needs_exact(&self, r: &Reach) -> bool {
        if r.error.is_infinite() {
            // A clip without frames (not baked, or the bind pose) can only be exact.
            return true;
        }
        match (self.mode, &self.view) {
            (AnimationMode::Baked, _) => false,
            (_, Some(view)) => view.needs_exact(r.sphere.truncate(), r.sphere.w, r.error),
            (_, None) => true,
        }
    }
}

/// The choice between exact and baked palettes, its settings and its last result; see the
/// module documentation.
pub(crate) struct PaletteChoice {
    /// Where palettes come from.
    mode: AnimationMode,
    /// The camera of the next frame, for [`AnimationMode::Auto`].
    view: Option<AnimationView>,
    /// Per slot position, this frame: exact palette (true) or baked frames.
    exact: Vec<bool>,
    /// The same per member (decided in member order).
    by_member: Vec<bool>,
    /// The last frame's counts.
    counts: AnimationCounts,
    cap: ExactCap,
}

impl Default for PaletteChoice {
    /// Every palette exact, with no cap, until a renderer or caller chooses.
    fn default() -> Self {
        Self {
            mode: AnimationMode::Exact,
            view: None,
            exact: Vec::new(),
            by_member: Vec::new(),
            counts: AnimationCounts::default(),
            cap: ExactCap::default(),
        }
    }
}

impl PaletteChoice {
    /// Where palettes come from from the next frame on.
    pub(crate) fn set_mode(&mut self, mode: AnimationMode) {
        self.mode = mode;
    }

    /// Where palettes come from.
    pub(crate) fn mode(&self) -> AnimationMode {
        self.mode
    }

    /// The camera of the next frame (without one, every instance is exact).
    pub(crate) fn set_view(&mut self, view: Option<AnimationView>) {
        self.view = view;
    }

    /// The most exact palette matrices one frame may hold.
    pub(crate) fn set_max_exact_matrices(&mut self, max: usize) {
        self.cap.set_max(max);
    }

    /// How the last frame's palettes were made.
    pub(crate) fn counts(&self) -> AnimationCounts {
        self.counts
    }

    /// Per slot position of the last choice: exact (true) or baked.
    pub(crate) fn exact(&self) -> &[bool] {
        &self.exact
    }

    /// Decides, for every member, between an exact palette and baked frames, from its
    /// `reach` (by member) and whether anything is baked at all; then sets the palette base
    /// of every position of `entries` (slot order, current), the exact palettes one after
    /// another. Returns the palette matrices the frame writes.
    pub(crate) fn choose(
        &mut self,
        members: &Members,
        entries: &mut [Entry],
        reach: &[Reach],
        any_baked: bool,
        workers: &mut Workers,
    ) -> usize {
        let all = members.all();
        self.by_member.resize(all.len(), true);
        self.exact.resize(entries.len(), true);
        let rule = Rule {
            reach,
            any_baked,
            mode: self.mode,
            view: self.view,
        };
        let all_exact = rule.all_exact();
        let by_member = &mut self.by_member[..all.len()];
        if all_exact {
            // Nothing to decide.
        } else if workers.serial_pass(by_member.len()) {
            rule.classify(0, by_member);
        } else {
            workers.run(|| {
                by_member
                    .par_chunks_mut(INSTANCES_PER_TASK)
                    .enumerate()
                    .for_each(|(k, out)| rule.classify(k * INSTANCES_PER_TASK, out));
            });
        }
        if !all_exact && let Some(view) = &self.view {
            let eye = view.scale.eye;
            self.cap.apply(
                by_member,
                members.joints(),
                |i| all[i].joints,
                |i| {
                    let r = &reach[i];
                    r.error
                        .is_finite()
                        .then(|| eye.distance_squared(r.sphere.truncate()))
                },
            );
        }
        let mut base = 0u32;
        let mut exact_count = 0;
        let exact = &mut self.exact[..entries.len()];
        for (e, x) in entries.iter_mut().zip(exact.iter_mut()) {
            *x = all_exact || by_member[e.member as usize];
            e.palette_base = base;
            if *x {
                base += all[e.member as usize].joints;
                exact_count += 1;
            }
        }
        self.counts = AnimationCounts {
            exact: exact_count,
            baked: entries.len() - exact_count,
            palette_matrices: base as usize,
        };
        base as usize
    }
}

#[cfg(test)]
mod tests {
    use glam::camera::rh::{proj::vulkan, view::look_at_mat4};
    use glam::{Vec3, Vec4};

    use super::*;
    use crate::anim::Mat3x4;
    use crate::crowd::slot_order::SlotOrder;
    use crate::crowd::test_models::stick;
    use crate::crowd::visibility::{Frustum, ViewScale};

    /// From the origin down -z, 90 degrees, 200 pixels high: 100 pixels per unit one unit
    /// away, so an error of 0.01 covers half a pixel at 2 units.
    fn view() -> AnimationView {
        let view_proj = vulkan::perspective(std::f32::consts::FRAC_PI_2, 1.0, 0.1, 100.0)
            * look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
        AnimationView {
            frustum: Frustum::from_clip(view_proj),
            scale: ViewScale::new(Vec3::ZERO, std::f32::consts::FRAC_PI_2, 200),
            max_error_px: 0.5,
        }
    }

    /// Six instances of a two-joint model, each a sphere of radius 0.5 on the view axis at
    /// the given z with a baked error of 0.01 (the fifth has no baked frames): in slot order,
    /// with the choice's inputs.
    struct Scene {
        members: Members,
        order: SlotOrder,
        reach: Vec<Reach>,
        workers: Workers,
    }

    const AT_Z: [f32; 6] = [-1.0, -2.0, -3.0, -10.0, -50.0, 1.0];

    fn scene() -> Scene {
        let mut members = Members::default();
        let id = members.add_model(stick(1));
        let reach = AT_Z
            .iter()
            .enumerate()
            .map(|(i, &z)| {
                members.spawn(id, Mat3x4::IDENTITY).expect("spawn");
                Reach {
                    sphere: Vec4::new(0.0, 0.0, z, 0.5),
                    error: if i == 4 { f32::INFINITY } else { 0.01 },
                }
            })
            .collect();
        let order = SlotOrder::built(&mut members);
        Scene {
            members,
            order,
            reach,
            workers: Workers::new(1).expect("no pool"),
        }
    }

    /// A choice in [`AnimationMode::Auto`] seeing [`view`].
    fn auto() -> PaletteChoice {
        let mut choice = PaletteChoice::default();
        choice.set_mode(AnimationMode::Auto);
        choice.set_view(Some(view()));
        choice
    }

    fn choose(choice: &mut PaletteChoice, s: &mut Scene, any_baked: bool) -> usize {
        let entries = s.order.entries_mut();
        choice.choose(&s.members, entries, &s.reach, any_baked, &mut s.workers)
    }

    #[test]
    fn near_instances_in_view_are_exact_the_rest_baked() {
        let mut s = scene();
        let mut choice = auto();
        let matrices = choose(&mut choice, &mut s, true);
        // 1 and 2 units away: the error shows. 3, 10: it does not. 50: nothing baked to read.
        // Behind the eye: out of view.
        assert_eq!(choice.exact(), [true, true, false, false, true, false]);
        assert_eq!(matrices, 3 * 2);
        let counts = choice.counts();
        assert_eq!((counts.exact, counts.baked), (3, 3));
        assert_eq!(counts.palette_matrices, 6);
        // Exact palettes follow one another; baked positions take no palette space.
        let bases: Vec<u32> = s.order.entries().iter().map(|e| e.palette_base).collect();
        assert_eq!(bases, [0, 2, 4, 4, 4, 6]);
    }

    #[test]
    fn the_mode_and_the_view_can_make_every_instance_exact_or_baked() {
        let mut s = scene();
        let mut choice = PaletteChoice::default();
        assert_eq!(choice.mode(), AnimationMode::Exact, "the default");
        choice.set_view(Some(view()));
        assert_eq!(choose(&mut choice, &mut s, true), 12);
        assert_eq!(choice.exact(), [true; 6]);

        choice.set_mode(AnimationMode::Baked);
        choose(&mut choice, &mut s, true);
        assert_eq!(choice.exact(), [false, false, false, false, true, false]);
        // Nothing baked: exact whatever the mode.
        choose(&mut choice, &mut s, false);
        assert_eq!(choice.exact(), [true; 6]);

        // Auto without a camera: exact.
        choice.set_mode(AnimationMode::Auto);
        choice.set_view(None);
        choose(&mut choice, &mut s, true);
        assert_eq!(choice.exact(), [true; 6]);
    }

    #[test]
    fn past_the_cap_the_farthest_that_can_read_baked_frames_do() {
        let mut s = scene();
        let mut choice = auto();
        choice.set_max_exact_matrices(4);
        // Three want exact palettes (6 matrices): the one 2 units away gives way, the one
        // without baked frames cannot.
        assert_eq!(choose(&mut choice, &mut s, true), 4);
        assert_eq!(choice.exact(), [true, false, false, false, true, false]);
    }
}
