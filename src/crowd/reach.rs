//! What the choice between exact palettes and baked frames reads of each member ([`Reach`]),
//! computed when the member changes rather than every frame: kept beside the members, a tenth
//! of their size, so that a frame's choice reads 2 MB at 100,000 characters instead of the
//! 16 MB the members take.

use glam::Vec4;

use super::baked::BakedLibrary;
use super::members::Member;
use super::model_bounds::{BoundsTable, clip_bounds_of};

/// What the choice between exact palettes and baked frames reads of a member: its bounds as
/// a world-space sphere (xyz: centre, w: radius) and how far its baked frames may put a
/// vertex, in world units (infinite when a clip it shows has none: it can only be exact).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Reach {
    pub(crate) sphere: Vec4,
    pub(crate) error: f32,
}

/// The crowd data a [`Reach`] is computed from.
#[derive(Clone, Copy)]
pub(crate) struct ReachSource<'a> {
    pub(crate) bounds: &'a BoundsTable,
    pub(crate) baked: &'a BakedLibrary,
}

impl ReachSource<'_> {
    /// The reach of `m` as it stands.
    pub(crate) fn of(&self, m: &Member) -> Reach {
        let mb = self.bounds.of_model(m.model);
        let (now, from) = clip_bounds_of(&m.anim, mb);
        let table = |b: u32| self.baked.entry((mb.base + b) as usize);
        let error = match (table(now), table(from)) {
            (Some(a), Some(b)) => a.error.max(b.error) * m.scale,
            _ => f32::INFINITY,
        };
        let sphere = self.bounds.sphere_around(mb, now, from);
        Reach {
            sphere: m
                .world
                .transform_point3(sphere.truncate())
                .extend(sphere.w * m.scale),
            error,
        }
    }
}

/// Every member's reach, and which are out of date.
#[derive(Default)]
pub(crate) struct Reaches {
    /// Per member. Refreshed by the update for every member, and by
    /// [`Reaches::refresh`] for the members touched since.
    list: Vec<Reach>,
    /// Members changed since their reach was computed, each once (however often it was
    /// touched): so the list never outgrows the crowd, and its room, kept as large as the
    /// members', never grows in a frame.
    touched: Vec<u32>,
    /// Per member, whether it is in `touched`.
    marked: Vec<bool>,
    /// Every reach needs computing again (the baked frames changed).
    stale: bool,
}

impl Reaches {
    /// The reach of a member just spawned.
    pub(crate) fn push(&mut self, reach: Reach) {
        self.list.push(reach);
        self.marked.push(false);
        // Grown with the members (which grow only while the crowd is larger than ever).
        if self.touched.capacity() < self.list.capacity() {
            self.touched
                .reserve(self.list.capacity() - self.touched.len());
        }
    }

    /// Member `i` left the crowd and the last member took its index (`Vec::swap_remove`).
    pub(crate) fn swap_remove(&mut self, i: usize) {
        self.list.swap_remove(i);
        let moved_from = self.list.len() as u32;
        for t in &mut self.touched {
            if *t == moved_from {
                *t = i as u32;
            }
        }
        let len = self.list.len() as u32;
        self.touched.retain(|&t| t < len);
        self.marked.swap_remove(i);
        // The moved member's mark came along; the entries now naming `i` are marked again,
        // once each.
        for &t in &self.touched {
            self.marked[t as usize] = false;
        }
        let marked = &mut self.marked;
        self.touched
            .retain(|&t| !std::mem::replace(&mut marked[t as usize], true));
    }

    /// Member `i` may have changed (its clip, fade or place): its reach needs computing again.
    pub(crate) fn touch(&mut self, i: usize) {
        if let Some(m) = self.marked.get_mut(i)
            && !*m
        {
            *m = true;
            self.touched.push(i as u32);
        }
    }

    /// Forgets which members were touched.
    fn clear_touched(&mut self) {
        for &t in &self.touched {
            self.marked[t as usize] = false;
        }
        self.touched.clear();
    }

    /// Every reach needs computing again (the baked frames changed).
    pub(crate) fn invalidate_all(&mut self) {
        self.stale = true;
    }

    /// Every reach, by member.
    pub(crate) fn all(&self) -> &[Reach] {
        &self.list
    }

    /// Every reach, for the caller to compute again, all of them: none is out of date after.
    pub(crate) fn rewrite_all(&mut self) -> &mut [Reach] {
        self.clear_touched();
        self.stale = false;
        &mut self.list
    }

    /// Brings every reach up to date: all of them after baking, else those of the members
    /// touched since the last update or refresh.
    pub(crate) fn refresh(&mut self, members: &[Member], source: &ReachSource<'_>) {
        if self.stale {
            for (m, r) in members.iter().zip(self.list.iter_mut()) {
                *r = source.of(m);
            }
            self.stale = false;
        } else {
            for &i in &self.touched {
                self.list[i as usize] = source.of(&members[i as usize]);
            }
        }
        self.clear_touched();
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3, Vec3A};

    use super::*;
    use crate::anim::Mat3x4;
    use crate::crowd::baked::BakeSettings;
    use crate::crowd::members::Members;
    use crate::crowd::test_models::stick;
    use crate::crowd::visibility::max_scale;

    /// A crowd of one stick model with three members, its bounds, and its clips baked or not.
    fn crowd(baked: bool) -> (Members, BoundsTable, BakedLibrary) {
        let model = stick(2);
        let mut members = Members::default();
        let mut bounds = BoundsTable::default();
        bounds.add(&model);
        let id = members.add_model(model.clone());
        for _ in 0..3 {
            members.spawn(id, Mat3x4::IDENTITY).expect("spawn");
        }
        let library = if baked {
            BakedLibrary::bake(&[model], |_| 3, BakeSettings::default()).0
        } else {
            BakedLibrary::default()
        };
        (members, bounds, library)
    }

    #[test]
    fn the_sphere_is_placed_and_scaled_with_the_member_and_so_is_the_error() {
        let (mut members, bounds, library) = crowd(true);
        let world = Mat3x4::from_trs(
            Vec3A::new(10.0, 0.0, -4.0),
            Quat::from_rotation_y(1.0),
            Vec3A::splat(2.0),
        );
        members.set_world(1, world);
        let source = ReachSource {
            bounds: &bounds,
            baked: &library,
        };
        let r = source.of(&members.all()[1]);
        let model_sphere = sphere_of_clip(&bounds, 0);
        let centre = world.transform_point3(model_sphere.truncate());
        assert!(r.sphere.truncate().distance(centre) < 1e-5, "{r:?}");
        assert!((r.sphere.w - 2.0 * model_sphere.w).abs() < 1e-5);
        let error = library.entry(0).expect("baked").error;
        assert!((r.error - error * max_scale(&world)).abs() < 1e-6);

        // Without baked frames: exact only.
        let unbaked = BakedLibrary::default();
        let source = ReachSource {
            bounds: &bounds,
            baked: &unbaked,
        };
        assert!(source.of(&members.all()[1]).error.is_infinite());
    }

    fn sphere_of_clip(bounds: &BoundsTable, clip: u32) -> Vec4 {
        bounds.sphere_around(bounds.of_model(0), clip, clip)
    }

    #[test]
    fn only_touched_members_are_computed_again_until_everything_is_stale() {
        let (mut members, bounds, library) = crowd(false);
        let source = ReachSource {
            bounds: &bounds,
            baked: &library,
        };
        let mut reaches = Reaches::default();
        for m in members.all() {
            reaches.push(source.of(m));
        }
        let moved = |x: f32| Mat3x4::from_trs(Vec3A::new(x, 0.0, 0.0), Quat::IDENTITY, Vec3A::ONE);
        let x = |reaches: &Reaches, i: usize| reaches.all()[i].sphere.x;
        let x0 = x(&reaches, 0);
        members.set_world(0, moved(5.0));
        members.set_world(2, moved(7.0));
        reaches.touch(2);
        reaches.refresh(members.all(), &source);
        assert_eq!(x(&reaches, 0), x0, "not touched: kept");
        assert_eq!(x(&reaches, 2), x0 + 7.0);
        reaches.invalidate_all();
        reaches.refresh(members.all(), &source);
        assert_eq!(x(&reaches, 0), x0 + 5.0);

        // The update computes every reach again: nothing is left to refresh after it.
        members.set_world(1, moved(9.0));
        reaches.touch(1);
        for r in reaches.rewrite_all() {
            r.sphere = Vec3::ZERO.extend(1.0);
        }
        reaches.refresh(members.all(), &source);
        assert_eq!(x(&reaches, 1), 0.0);
    }

    #[test]
    fn a_member_touched_often_is_listed_once_and_despawns_keep_the_list_true() {
        let mut r = Reaches::default();
        for _ in 0..4 {
            r.push(Reach::default());
        }
        let room = r.touched.capacity();
        assert!(room >= 4);
        for i in [1, 1, 3, 1, 3, 0] {
            r.touch(i);
        }
        assert_eq!(r.touched, [1, 3, 0]);
        // 1 leaves: the last (3) takes its index; 3's entry names 1 now, 1's own is dropped
        // as a duplicate.
        r.swap_remove(1);
        assert_eq!(r.touched, [1, 0]);
        assert_eq!(r.marked, [true, true, false]);
        r.touch(1);
        r.touch(2);
        assert_eq!(r.touched, [1, 0, 2]);
        r.clear_touched();
        assert!(r.touched.is_empty() && r.marked.iter().all(|m| !m));
        assert_eq!(r.touched.capacity(), room, "touching never grew the list");
    }
}
