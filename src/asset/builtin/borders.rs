//! Material borders cut into the surface: a triangle whose corners wear different materials is
//! split where the material changes along its edges (found by bisection on the surface), so a
//! collar, a belt or a cuff is a smooth line rather than the grid's staircase. A cut point is
//! shared by both triangles of its edge, so the surface stays closed.

use std::collections::HashMap;

use glam::Vec3;

use super::body::{Body, Wear};
use super::surface_nets::{Surface, pull_onto};

/// Bisection steps per cut edge: the border lands within 1/256 of the edge's length.
const BISECTIONS: usize = 8;

/// The surface's triangles, each with the one material it wears: a triangle whose corners
/// wear two materials becomes three, split along the border (`surface` gains the cut points,
/// each shared by the triangles on both sides of its edge).
pub fn cut_at_borders(body: &Body, surface: &mut Surface, cell: f32) -> Vec<([u32; 3], Wear)> {
    let wear: Vec<Wear> = surface.positions.iter().map(|&p| body.wear(p)).collect();
    let mut cuts: HashMap<(u32, u32), u32> = HashMap::new();
    let mut out = Vec::with_capacity(surface.triangles.len() + surface.triangles.len() / 8);
    let triangles = std::mem::take(&mut surface.triangles);
    for t in &triangles {
        let w = t.map(|i| wear[i as usize]);
        // The corner whose material the other two share, if exactly one differs.
        let odd = (0..3).find(|&k| w[(k + 1) % 3] == w[(k + 2) % 3] && w[k] != w[(k + 1) % 3]);
        let Some(k) = odd else {
            // One material, or three (only where three borders meet): left whole.
            out.push((*t, if w[1] == w[2] { w[1] } else { w[0] }));
            continue;
        };
        let (a1, a2, b) = (t[(k + 1) % 3], t[(k + 2) % 3], t[k]);
        let (outer, inner) = (w[(k + 1) % 3], w[k]);
        let mut cut = |from: u32, to: u32| {
            let key = (from.min(to), from.max(to));
            *cuts.entry(key).or_insert_with(|| {
                let p = border_on_edge(body, surface, (from, wear[from as usize]), to, cell);
                surface.positions.push(p);
                (surface.positions.len() - 1) as u32
            })
        };
        let m2 = cut(a2, b);
        let m1 = cut(b, a1);
        out.push(([m2, b, m1], inner));
        out.push(([a1, a2, m2], outer));
        out.push(([a1, m2, m1], outer));
    }
    out
}

/// Where the material changes between vertex `from` (wearing `wear_lo`) and vertex `to`:
/// bisection along the edge, every probe pulled onto the surface first.
fn border_on_edge(
    body: &Body,
    surface: &Surface,
    (from, wear_lo): (u32, Wear),
    to: u32,
    cell: f32,
) -> Vec3 {
    let (mut lo, mut hi) = (
        surface.positions[from as usize],
        surface.positions[to as usize],
    );
    for _ in 0..BISECTIONS {
        let mid = (lo + hi) * 0.5;
        if body.wear(pull_onto(body, mid, cell)) == wear_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    pull_onto(body, (lo + hi) * 0.5, cell)
}
