//! The built-in character's body as a shape: tubes of elliptical cross section along the
//! skeleton's bones (torso, neck, head, arms, hands, legs, feet), blended into one volume by a
//! smooth minimum of their distances. The mesh is the surface of that volume (see
//! `surface_nets`), so limbs flow into the torso with no seam and nothing inside; this module
//! also says, for any point of the surface, which material it wears and which joints move it.

use glam::Vec3;

use super::skeleton::{ARM_COS, ARM_SIN, FOREARM, HIP_X, SHOULDER_X, UPPERARM, j};
use super::surface_nets::Field;

/// How far apart two tubes still blend into one another, metres: the fillet where the arm
/// meets the shoulder or the thigh meets the hip.
const FILLET: f32 = 0.025;
/// Distance over which neighbouring bones blend on either side of a joint along a tube.
const BONE_BLEND: f32 = 0.06;
/// Tubes within this distance of the nearest one share its skin weights, so a vertex in the
/// fillet between two tubes follows both.
const TUBE_BLEND: f32 = 0.03;

/// The materials the body wears, in the mesh's subset order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wear {
    /// Face, neck and hands.
    Skin,
    /// Torso above the belt and the arms to the cuffs.
    Shirt,
    /// Hips below the belt and the legs to the ankles.
    Trousers,
    /// Feet.
    Shoes,
}

impl Wear {
    /// Every material, in subset order.
    pub const ALL: [Wear; 4] = [Wear::Skin, Wear::Shirt, Wear::Trousers, Wear::Shoes];

    /// Material name, base colour and roughness.
    pub fn material(self) -> (&'static str, [f32; 4], f32) {
        match self {
            Wear::Skin => ("skin", [0.80, 0.60, 0.48, 1.0], 0.6),
            Wear::Shirt => ("shirt", [0.16, 0.32, 0.62, 1.0], 0.8),
            Wear::Trousers => ("trousers", [0.22, 0.22, 0.26, 1.0], 0.9),
            Wear::Shoes => ("shoes", [0.12, 0.08, 0.06, 1.0], 0.5),
        }
    }
}

/// A tube: an axis from `start` along unit `dir`, its cross section given at distances along
/// it, bound to a chain of bones and dressed in one or more materials along its length.
pub struct Tube {
    start: Vec3,
    dir: Vec3,
    /// Unit axes of the cross section: `across` (half-width) and `depth` (half-depth).
    across: Vec3,
    depth: Vec3,
    /// (distance along the axis, half-width, half-depth) control points, increasing.
    profile: &'static [(f32, f32, f32)],
    /// (distance along the axis where the joint's bone begins, joint).
    chain: &'static [(f32, u16)],
    /// (distance along the axis from which a material is worn, material), increasing.
    wear: &'static [(f32, Wear)],
    /// Lift each cross section by its half-depth, so the underside is flat on the axis
    /// (soles on the ground).
    flat_bottom: bool,
    /// Loose bounds of the tube, for skipping it far from a point.
    bounds: (Vec3, Vec3),
}

/// A point's nearest place on a tube: distance along the axis and signed distance to the
/// tube's surface.
#[derive(Clone, Copy)]
struct Nearest {
    along: f32,
    distance: f32,
}

impl Tube {
    fn new(
        start: Vec3,
        dir: Vec3,
        profile: &'static [(f32, f32, f32)],
        chain: &'static [(f32, u16)],
        wear: &'static [(f32, Wear)],
    ) -> Tube {
        let dir = dir.normalize();
        let across = (Vec3::X - dir * dir.dot(Vec3::X)).normalize();
        let depth = dir.cross(across);
        let mut tube = Tube {
            start,
            dir,
            across,
            depth,
            profile,
            chain,
            wear,
            flat_bottom: false,
            bounds: (Vec3::ZERO, Vec3::ZERO),
        };
        tube.bounds = tube.measure_bounds();
        tube
    }

    /// The mirror image across x = 0, bound to `chain` (the right side from the left).
    fn mirrored(&self, chain: &'static [(f32, u16)]) -> Tube {
        let flip = Vec3::new(-1.0, 1.0, 1.0);
        let tube = Tube::new(
            self.start * flip,
            self.dir * flip,
            self.profile,
            chain,
            self.wear,
        );
        if self.flat_bottom {
            tube.resting_on_its_underside()
        } else {
            tube
        }
    }

    fn resting_on_its_underside(mut self) -> Tube {
        self.flat_bottom = true;
        self.bounds = self.measure_bounds();
        self
    }

    fn ends(&self) -> (f32, f32) {
        (self.profile[0].0, self.profile[self.profile.len() - 1].0)
    }

    /// Half-width and half-depth at distance `s` (linear between control points).
    fn radii(&self, s: f32) -> (f32, f32) {
        let p = self.profile;
        let i = p
            .windows(2)
            .position(|w| s <= w[1].0)
            .unwrap_or(p.len() - 2);
        let (s0, a0, b0) = p[i];
        let (s1, a1, b1) = p[i + 1];
        let f = ((s - s0) / (s1 - s0)).clamp(0.0, 1.0);
        (a0 + (a1 - a0) * f, b0 + (b1 - b0) * f)
    }

    fn centre(&self, s: f32) -> Vec3 {
        let lift = if self.flat_bottom {
            self.radii(s).1
        } else {
            0.0
        };
        self.start + self.dir * s + Vec3::Y * lift
    }

    fn measure_bounds(&self) -> (Vec3, Vec3) {
        let (first, last) = self.ends();
        let reach = self
            .profile
            .iter()
            .map(|&(_, a, b)| a.max(b))
            .fold(0.0f32, f32::max);
        let pad = Vec3::splat(2.0 * reach + FILLET + TUBE_BLEND);
        let (a, b) = (self.centre(first), self.centre(last));
        (a.min(b) - pad, a.max(b) + pad)
    }

    /// A lower bound of the distance from `p` to the tube (zero inside its bounds).
    fn distance_bound(&self, p: Vec3) -> f32 {
        let (lo, hi) = self.bounds;
        (lo - p).max(p - hi).max(Vec3::ZERO).length()
    }

    /// Signed distance to the tube, estimated: exact on the surface (where a cross section's
    /// ellipse passes through the point), the distance along the ray from the axis elsewhere.
    /// Past either end the tube closes with a half-ellipsoid as deep as 0.7 of its thinner
    /// radius there.
    fn nearest(&self, p: Vec3) -> Nearest {
        let (first, last) = self.ends();
        let along = (p - self.start).dot(self.dir);
        let s = along.clamp(first, last);
        let (a, b) = self.radii(s);
        let cap = 0.7 * a.min(b);
        let local = p - self.centre(s);
        let (u, v, w) = (local.dot(self.across), local.dot(self.depth), along - s);
        let scaled = Vec3::new(u / a, v / b, w / cap).length();
        let reach = Vec3::new(u, v, w).length();
        let distance = if scaled < 1e-6 {
            -a.min(b)
        } else {
            reach * (1.0 - 1.0 / scaled)
        };
        Nearest { along: s, distance }
    }

    fn wear_at(&self, s: f32) -> Wear {
        self.wear
            .iter()
            .rev()
            .find(|&&(from, _)| s >= from)
            .map_or(self.wear[0].1, |&(_, wear)| wear)
    }

    /// Adds `scale` times the joints' weights at distance `s` along the chain to `out`: the
    /// bone containing `s` dominates; within [`BONE_BLEND`] of either end, the neighbouring
    /// bone takes up to half.
    fn bone_weights(&self, s: f32, scale: f32, out: &mut JointWeights) {
        let chain = self.chain;
        let k = chain
            .iter()
            .rposition(|&(start, _)| s >= start)
            .unwrap_or(0);
        let mut own = 1.0;
        if k > 0 {
            let w = 0.5 * (1.0 - (s - chain[k].0) / BONE_BLEND).max(0.0);
            out.add(chain[k - 1].1, scale * w);
            own -= w;
        }
        if let Some(&(next_start, next)) = chain.get(k + 1) {
            let w = 0.5 * (1.0 - (next_start - s) / BONE_BLEND).max(0.0);
            out.add(next, scale * w);
            own -= w;
        }
        out.add(chain[k].1, scale * own);
    }
}

/// Weights gathered per joint before the four largest are kept.
pub struct JointWeights([f32; j::COUNT]);

impl JointWeights {
    fn add(&mut self, joint: u16, weight: f32) {
        self.0[joint as usize] += weight;
    }

    /// The four heaviest joints, weights summing to one, heaviest first.
    pub fn strongest_four(&self) -> ([u16; 4], [f32; 4]) {
        let mut order: Vec<usize> = (0..j::COUNT).collect();
        order.sort_by(|&a, &b| self.0[b].total_cmp(&self.0[a]).then(a.cmp(&b)));
        let mut joints = [0u16; 4];
        let mut weights = [0.0f32; 4];
        for (slot, &joint) in order.iter().take(4).enumerate() {
            if self.0[joint] > 1e-4 {
                joints[slot] = joint as u16;
                weights[slot] = self.0[joint];
            }
        }
        let total: f32 = weights.iter().sum();
        for w in &mut weights {
            *w /= total;
        }
        (joints, weights)
    }
}

/// The whole body: every tube, blended.
pub struct Body {
    tubes: Vec<Tube>,
}

/// Polynomial smooth minimum: equals `min(a, b)` once they differ by `k` or more.
fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

impl Field for Body {
    fn distance(&self, p: Vec3) -> f32 {
        let mut d = f32::INFINITY;
        for tube in &self.tubes {
            if tube.distance_bound(p) > d + FILLET {
                continue;
            }
            d = smooth_min(d, tube.nearest(p).distance, FILLET);
        }
        d
    }
}

impl Body {
    /// A box that holds the whole body with room to spare.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for tube in &self.tubes {
            lo = lo.min(tube.bounds.0);
            hi = hi.max(tube.bounds.1);
        }
        (lo, hi)
    }

    /// What the surface at `p` wears: the nearest tube's material there.
    pub fn wear(&self, p: Vec3) -> Wear {
        self.tubes
            .iter()
            .map(|t| (t, t.nearest(p)))
            .min_by(|a, b| a.1.distance.total_cmp(&b.1.distance))
            .map_or(Wear::Skin, |(t, n)| t.wear_at(n.along))
    }

    /// Which joints move the surface at `p`: every tube within [`TUBE_BLEND`] of the nearest
    /// shares the weights, more the nearer it is, so fillets between tubes bend with both.
    pub fn skin(&self, p: Vec3) -> ([u16; 4], [f32; 4]) {
        let nearest: Vec<Nearest> = self.tubes.iter().map(|t| t.nearest(p)).collect();
        let best = nearest
            .iter()
            .map(|n| n.distance)
            .fold(f32::INFINITY, f32::min);
        let mut weights = JointWeights([0.0; j::COUNT]);
        for (tube, n) in self.tubes.iter().zip(&nearest) {
            let share = 1.0 - (n.distance - best) / TUBE_BLEND;
            if share > 0.0 {
                tube.bone_weights(n.along, share * share, &mut weights);
            }
        }
        weights.strongest_four()
    }
}

const TORSO_Y0: f32 = 0.86;
const TORSO_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.11, 0.085),
    (0.08, 0.155, 0.105),
    (0.18, 0.145, 0.10),
    (0.26, 0.13, 0.095),
    (0.39, 0.135, 0.10),
    (0.50, 0.145, 0.11),
    (0.57, 0.17, 0.10),
    (0.62, 0.145, 0.08),
    (0.655, 0.09, 0.06),
];
const TORSO_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (1.10 - TORSO_Y0, j::SPINE_01),
    (1.25 - TORSO_Y0, j::SPINE_02),
    (1.40 - TORSO_Y0, j::SPINE_03),
];
/// The belt: trousers below, shirt above.
const TORSO_WEAR: &[(f32, Wear)] = &[(0.0, Wear::Trousers), (0.99 - TORSO_Y0, Wear::Shirt)];

const NECK_PROFILE: &[(f32, f32, f32)] = &[(0.0, 0.055, 0.055), (0.18, 0.05, 0.05)];
const NECK_CHAIN: &[(f32, u16)] = &[(0.0, j::SPINE_03), (0.06, j::NECK), (0.16, j::HEAD)];
const SKIN: &[(f32, Wear)] = &[(0.0, Wear::Skin)];

const HEAD_Y0: f32 = 1.59;
const HEAD_PROFILE: &[(f32, f32, f32)] = &[
    (0.005, 0.026, 0.031),
    (0.02, 0.047, 0.055),
    (0.045, 0.066, 0.078),
    (0.08, 0.080, 0.094),
    (0.13, 0.085, 0.10),
    (0.18, 0.080, 0.094),
    (0.215, 0.066, 0.078),
    (0.24, 0.047, 0.055),
    (0.255, 0.026, 0.031),
];
const HEAD_CHAIN: &[(f32, u16)] = &[(0.0, j::NECK), (1.62 - HEAD_Y0, j::HEAD)];

const NOSE_PROFILE: &[(f32, f32, f32)] = &[(0.0, 0.016, 0.02), (0.035, 0.01, 0.012)];
const NOSE_CHAIN: &[(f32, u16)] = &[(0.0, j::HEAD)];

/// Shoulder top to wrist, along the arm's bones.
const ARM_TOP: f32 = 0.04;
const ARM_PROFILE: &[(f32, f32, f32)] = &[
    (0.02, 0.042, 0.045),
    (0.07, 0.05, 0.052),
    (0.20, 0.048, 0.048),
    (0.32, 0.04, 0.04),
    (0.45, 0.037, 0.035),
    (0.58, 0.03, 0.028),
];
const ARM_L_CHAIN: &[(f32, u16)] = &[
    (0.0, j::CLAVICLE_L),
    (ARM_TOP, j::UPPERARM_L),
    (ARM_TOP + UPPERARM, j::FOREARM_L),
    (ARM_TOP + UPPERARM + FOREARM, j::HAND_L),
];
const ARM_R_CHAIN: &[(f32, u16)] = &[
    (0.0, j::CLAVICLE_R),
    (ARM_TOP, j::UPPERARM_R),
    (ARM_TOP + UPPERARM, j::FOREARM_R),
    (ARM_TOP + UPPERARM + FOREARM, j::HAND_R),
];
/// The cuff a few centimetres above the wrist: skin below.
const ARM_WEAR: &[(f32, Wear)] = &[(0.0, Wear::Shirt), (0.52, Wear::Skin)];

/// Wrist to fingertips; thin across (the palm faces the thigh), wide front to back.
const HAND_BACK: f32 = 0.03;
const HAND_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.026, 0.028),
    (0.05, 0.02, 0.043),
    (0.13, 0.017, 0.04),
    (0.19, 0.011, 0.028),
];
const HAND_L_CHAIN: &[(f32, u16)] = &[(0.0, j::FOREARM_L), (HAND_BACK, j::HAND_L)];
const HAND_R_CHAIN: &[(f32, u16)] = &[(0.0, j::FOREARM_R), (HAND_BACK, j::HAND_R)];

/// Hip to ankle, along -Y.
const LEG_Y0: f32 = 1.0;
const LEG_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.075, 0.08),
    (0.08, 0.08, 0.085),
    (0.25, 0.068, 0.07),
    (0.46, 0.05, 0.05),
    (0.60, 0.053, 0.055),
    (0.85, 0.04, 0.04),
    (0.92, 0.04, 0.045),
];
const LEG_L_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (LEG_Y0 - 0.95, j::THIGH_L),
    (LEG_Y0 - 0.52, j::SHIN_L),
    (LEG_Y0 - 0.10, j::FOOT_L),
];
const LEG_R_CHAIN: &[(f32, u16)] = &[
    (0.0, j::PELVIS),
    (LEG_Y0 - 0.95, j::THIGH_R),
    (LEG_Y0 - 0.52, j::SHIN_R),
    (LEG_Y0 - 0.10, j::FOOT_R),
];
/// The belt (the top of the hip above it is the shirt's, as on the torso) and the hem at the
/// ankle: shoes below.
const LEG_WEAR: &[(f32, Wear)] = &[
    (0.0, Wear::Shirt),
    (LEG_Y0 - 0.99, Wear::Trousers),
    (0.90, Wear::Shoes),
];

/// Heel to toe tip, along +Z, resting on the ground.
const FOOT_Z0: f32 = -0.07;
const FOOT_PROFILE: &[(f32, f32, f32)] = &[
    (0.00, 0.035, 0.04),
    (0.04, 0.045, 0.045),
    (0.12, 0.05, 0.04),
    (0.20, 0.05, 0.03),
    (0.27, 0.04, 0.02),
];
const FOOT_L_CHAIN: &[(f32, u16)] = &[(0.0, j::FOOT_L), (0.13 - FOOT_Z0, j::TOE_L)];
const FOOT_R_CHAIN: &[(f32, u16)] = &[(0.0, j::FOOT_R), (0.13 - FOOT_Z0, j::TOE_R)];
const SHOES: &[(f32, Wear)] = &[(0.0, Wear::Shoes)];

/// The direction the left arm hangs in the rest pose, along its bones (the right arm's
/// mirror image).
fn arm_direction() -> Vec3 {
    Vec3::new(ARM_SIN, -ARM_COS, 0.0)
}

/// The built-in character's body.
pub fn body() -> Body {
    let shoulder = Vec3::new(SHOULDER_X, 1.46, 0.0);
    let arm_dir = arm_direction();
    let arm = Tube::new(
        shoulder - arm_dir * ARM_TOP,
        arm_dir,
        ARM_PROFILE,
        ARM_L_CHAIN,
        ARM_WEAR,
    );
    let wrist = shoulder + arm_dir * (UPPERARM + FOREARM);
    let hand = Tube::new(
        wrist - arm_dir * HAND_BACK,
        arm_dir,
        HAND_PROFILE,
        HAND_L_CHAIN,
        SKIN,
    );
    let leg = Tube::new(
        Vec3::new(HIP_X, LEG_Y0, 0.0),
        Vec3::NEG_Y,
        LEG_PROFILE,
        LEG_L_CHAIN,
        LEG_WEAR,
    );
    let foot = Tube::new(
        Vec3::new(HIP_X, 0.0, FOOT_Z0),
        Vec3::Z,
        FOOT_PROFILE,
        FOOT_L_CHAIN,
        SHOES,
    )
    .resting_on_its_underside();
    let mut tubes = vec![
        Tube::new(
            Vec3::new(0.0, TORSO_Y0, 0.0),
            Vec3::Y,
            TORSO_PROFILE,
            TORSO_CHAIN,
            TORSO_WEAR,
        ),
        Tube::new(
            Vec3::new(0.0, 1.46, 0.0),
            Vec3::Y,
            NECK_PROFILE,
            NECK_CHAIN,
            SKIN,
        ),
        Tube::new(
            Vec3::new(0.0, HEAD_Y0, 0.01),
            Vec3::Y,
            HEAD_PROFILE,
            HEAD_CHAIN,
            SKIN,
        ),
        Tube::new(
            Vec3::new(0.0, 1.70, 0.085),
            Vec3::new(0.0, -0.25, 1.0),
            NOSE_PROFILE,
            NOSE_CHAIN,
            SKIN,
        ),
    ];
    for (left, right_chain) in [
        (arm, ARM_R_CHAIN),
        (hand, HAND_R_CHAIN),
        (leg, LEG_R_CHAIN),
        (foot, FOOT_R_CHAIN),
    ] {
        let right = left.mirrored(right_chain);
        tubes.push(left);
        tubes.push(right);
    }
    Body { tubes }
}
