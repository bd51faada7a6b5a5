//! Whether a picture shows the characters a scene put in it: against the same frame drawn
//! with the crowd left out, through the same camera, which pixels differ, whether they lie
//! where the characters stand (their bind pose's box where each stands, projected), and
//! whether each character's chest differs.

use glam::{Mat4, Vec3, Vec4};
use throng::anim::{Bounds, Mat3x4};

/// A pixel shows something the frame without characters does not when a channel differs by
/// more than this.
const SHOWS: u8 = 24;
/// Pixels added round each character's projected box: its limbs swing past the bind pose's
/// box, and its edges are blended.
const MARGIN: i32 = 1;

/// What [`shown`] found.
#[derive(Debug)]
pub struct Shown {
    /// Characters wholly in view.
    pub in_view: usize,
    /// Pixels that differ from the frame without the characters.
    pub differing: usize,
    /// Of those, the ones within a character's box.
    pub on_characters: usize,
    /// Characters in view whose chest (60% up their box) differs, within a pixel.
    pub chests: usize,
}

/// Compares `picture` (RGBA8, `width` x `height`) with `background` (the same frame without
/// the characters) for characters standing at `worlds` with bind-pose box `rest`, seen
/// through `view_proj`.
pub fn shown(
    picture: &[u8],
    background: &[u8],
    (width, height): (u32, u32),
    view_proj: Mat4,
    worlds: &[Mat3x4],
    rest: &Bounds,
) -> Shown {
    let project = |p: Vec3| {
        let clip = view_proj * Vec4::new(p.x, p.y, p.z, 1.0);
        (clip.w > 0.0).then(|| {
            (
                (clip.x / clip.w * 0.5 + 0.5) * width as f32,
                (clip.y / clip.w * 0.5 + 0.5) * height as f32,
            )
        })
    };
    let (w, h) = (width as i32, height as i32);
    let mut characters = Vec::new();
    for world in worlds {
        let corners: Option<Vec<(f32, f32)>> = (0..8)
            .map(|k| {
                project(world.transform_point3(Vec3::new(
                    if k & 1 == 0 { rest.min.x } else { rest.max.x },
                    if k & 2 == 0 { rest.min.y } else { rest.max.y },
                    if k & 4 == 0 { rest.min.z } else { rest.max.z },
                )))
            })
            .collect();
        let middle = 0.5 * (rest.min + rest.max);
        let chest = Vec3::new(
            middle.x,
            rest.min.y + 0.6 * (rest.max.y - rest.min.y),
            middle.z,
        );
        let (Some(corners), Some(chest)) = (corners, project(world.transform_point3(chest))) else {
            continue;
        };
        let fold = |f: fn(f32, f32) -> f32, start: f32, pick: fn(&(f32, f32)) -> f32| {
            corners.iter().map(pick).fold(start, f)
        };
        let b = (
            fold(f32::min, f32::MAX, |c| c.0).floor() as i32 - MARGIN,
            fold(f32::min, f32::MAX, |c| c.1).floor() as i32 - MARGIN,
            fold(f32::max, f32::MIN, |c| c.0).ceil() as i32 + MARGIN,
            fold(f32::max, f32::MIN, |c| c.1).ceil() as i32 + MARGIN,
        );
        if b.0 >= 0 && b.1 >= 0 && b.2 < w && b.3 < h {
            characters.push((b, (chest.0 as i32, chest.1 as i32)));
        }
    }
    let shows = |x: i32, y: i32| {
        if !(0..w).contains(&x) || !(0..h).contains(&y) {
            return false;
        }
        let at = 4 * (y as usize * width as usize + x as usize);
        let (a, b) = (&picture[at..at + 4], &background[at..at + 4]);
        (0..3).any(|c| a[c].abs_diff(b[c]) > SHOWS)
    };
    let (mut differing, mut on_characters) = (0, 0);
    for y in 0..h {
        for x in 0..w {
            if shows(x, y) {
                differing += 1;
                on_characters += usize::from(
                    characters
                        .iter()
                        .any(|(b, _)| (b.0..=b.2).contains(&x) && (b.1..=b.3).contains(&y)),
                );
            }
        }
    }
    let chests = characters
        .iter()
        .filter(|(_, (x, y))| (-1..=1).any(|dy| (-1..=1).any(|dx| shows(x + dx, y + dy))))
        .count();
    Shown {
        in_view: characters.len(),
        differing,
        on_characters,
        chests,
    }
}
