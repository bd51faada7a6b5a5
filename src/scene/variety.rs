//! Variety: looks for a model's instances, drawn from a seed, so a crowd of one character does
//! not look copied. Each material gets a tint from a palette that suits what it dresses,
//! judged from its name and colour: clothes range over every hue, skin over a natural range of
//! tones, hair over blacks, browns, blondes and greys, shoes over dark leathers, wood over
//! natural browns and metal over greys (a carried staff is not dyed pink). A textured
//! material gets a light tint (its factors near one another), so the texture's detail shows
//! through a change of hue rather than being flattened by it.
//!
//! [`CrowdLayout::variety`](super::CrowdLayout::variety) gives each instance one of its
//! model's looks and a height within a few percent.

use glam::Vec3;

use super::rng::SplitMix64;
use crate::anim::{Material, SkinnedModel};
use crate::crowd::Look;

/// What a layout varies between instances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variety {
    /// Looks made per model ([`model_looks`]); each instance wears one, chosen at random.
    pub looks_per_model: usize,
    /// The largest change of height either way, as a fraction (0.04: from 96% to 104%).
    pub height_spread: f32,
}

impl Default for Variety {
    /// 64 looks per model, heights within 4% either way.
    fn default() -> Self {
        Self {
            looks_per_model: 64,
            height_spread: 0.04,
        }
    }
}

/// What a material dresses, for the palette its tints come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialRole {
    /// Skin: natural skin tones.
    Skin,
    /// Hair: blacks, browns, blondes, greys.
    Hair,
    /// Shoes and boots: dark leathers, black, now and then white.
    Footwear,
    /// Wood (a staff, a handle): pale ash to dark walnut.
    Wood,
    /// Metal (a blade, a helmet): greys from dark iron to bright steel.
    Metal,
    /// Anything else: every hue.
    Clothes,
}

/// What `material` dresses: by its name first (`skin`, `face`, `hair`, `shoe`, ...), then, for
/// an untextured material, by whether its colour is a skin tone.
pub fn material_role(material: &Material) -> MaterialRole {
    let name = material.name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
    if has(&["skin", "face", "head", "hand", "flesh"]) {
        MaterialRole::Skin
    } else if has(&["hair", "beard", "brow"]) {
        MaterialRole::Hair
    } else if has(&["shoe", "boot", "foot", "feet", "sole"]) {
        MaterialRole::Footwear
    } else if has(&["wood", "staff", "stick", "handle", "bark"]) {
        MaterialRole::Wood
    } else if has(&[
        "metal", "steel", "iron", "blade", "sword", "armor", "armour",
    ]) {
        MaterialRole::Metal
    } else if material.base_color_texture.is_none() && is_skin_tone(material.base_color) {
        MaterialRole::Skin
    } else {
        MaterialRole::Clothes
    }
}

/// `count` looks for `model`'s materials from `seed` (the same seed, model and count always
/// give the same looks). Materials past [`MAX_LOOK_TINTS`](crate::crowd::MAX_LOOK_TINTS) keep their colour.
pub fn model_looks(model: &SkinnedModel, seed: u64, count: usize) -> Vec<Look> {
    let materials = &model.mesh().materials;
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut look = Look::PLAIN;
            for (tint, material) in look.tints.iter_mut().zip(materials) {
                // The same number of draws per material whatever its role, so one material's
                // role does not change the next one's tints.
                let draws = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
                *tint = material_tint(material, draws).to_array();
            }
            look
        })
        .collect()
}

/// A tint for `material` from four uniform draws in [0, 1).
fn material_tint(material: &Material, draws: [f32; 4]) -> Vec3 {
    let role = material_role(material);
    if material.base_color_texture.is_some() {
        return light_tint(role, draws);
    }
    let target = match role {
        MaterialRole::Skin => skin_tone(draws[0]),
        MaterialRole::Hair => ramp(&HAIR, draws[0]),
        MaterialRole::Footwear => ramp(&FOOTWEAR, draws[0]),
        MaterialRole::Wood => ramp(&WOOD, draws[0]),
        MaterialRole::Metal => ramp(&METAL, draws[0]),
        MaterialRole::Clothes => clothes_colour(draws),
    };
    // The factor that turns the material's own colour into the target; a channel the
    // material lacks is lifted no more than MAX_FACTOR times.
    let base = Vec3::from_slice(&material.base_color[..3]).max(Vec3::splat(0.0));
    (target / base.max(Vec3::splat(MIN_BASE))).min(Vec3::splat(MAX_FACTOR))
}

/// The dimmest channel a tint divides by.
const MIN_BASE: f32 = 0.02;
/// The largest factor a tint applies.
const MAX_FACTOR: f32 = 16.0;

/// A tint for a textured material: near white, so the texture's detail stays. Clothes shift
/// hue (up to 35% saturation), skin and hair only warm or cool a little.
fn light_tint(role: MaterialRole, draws: [f32; 4]) -> Vec3 {
    let (saturation, value) = match role {
        MaterialRole::Clothes | MaterialRole::Footwear => {
            (0.12 + 0.23 * draws[1], 0.85 + 0.15 * draws[2])
        }
        MaterialRole::Skin | MaterialRole::Hair | MaterialRole::Wood | MaterialRole::Metal => {
            (0.1 * draws[1], 0.8 + 0.2 * draws[2])
        }
    };
    let hue = if role == MaterialRole::Clothes || role == MaterialRole::Footwear {
        draws[0]
    } else {
        // Warm (orange) or cool (a little towards blue): what skin under other light shows.
        if draws[0] < 0.7 { 0.07 } else { 0.6 }
    };
    srgb_to_linear(hsv(hue, saturation, value))
}

/// A clothing colour: any hue, mostly saturated, a fifth of the time a neutral grey from near
/// black to near white.
fn clothes_colour(draws: [f32; 4]) -> Vec3 {
    let colour = if draws[3] < 0.2 {
        Vec3::splat(0.12 + 0.78 * draws[1])
    } else {
        hsv(draws[0], 0.3 + 0.45 * draws[1], 0.25 + 0.6 * draws[2])
    };
    srgb_to_linear(colour)
}

/// A skin tone from light to dark, between the ends of a natural range (sRGB).
fn skin_tone(t: f32) -> Vec3 {
    ramp(&SKIN, t)
}

/// Skin tones from light to dark (sRGB).
const SKIN: [[f32; 3]; 4] = [
    [0.96, 0.80, 0.69],
    [0.85, 0.64, 0.50],
    [0.63, 0.43, 0.30],
    [0.36, 0.22, 0.15],
];
/// Hair colours: black, dark brown, brown, blonde, grey (sRGB).
const HAIR: [[f32; 3]; 5] = [
    [0.07, 0.06, 0.06],
    [0.23, 0.15, 0.10],
    [0.45, 0.30, 0.18],
    [0.80, 0.66, 0.42],
    [0.62, 0.62, 0.62],
];
/// Shoe colours: black, dark brown, tan, grey, white (sRGB).
const FOOTWEAR: [[f32; 3]; 5] = [
    [0.06, 0.06, 0.06],
    [0.20, 0.12, 0.08],
    [0.48, 0.33, 0.20],
    [0.35, 0.35, 0.37],
    [0.88, 0.88, 0.86],
];
/// Wood colours: pale ash, oak, chestnut, walnut, near-black stained (sRGB).
const WOOD: [[f32; 3]; 5] = [
    [0.78, 0.66, 0.48],
    [0.60, 0.44, 0.27],
    [0.45, 0.29, 0.17],
    [0.30, 0.20, 0.13],
    [0.16, 0.11, 0.08],
];
/// Metal colours: dark iron to bright steel, a little cool (sRGB).
const METAL: [[f32; 3]; 3] = [[0.28, 0.29, 0.31], [0.52, 0.54, 0.57], [0.78, 0.80, 0.83]];

/// The colour `t` (0 to 1) of the way along `stops` (sRGB in), in linear RGB.
fn ramp(stops: &[[f32; 3]], t: f32) -> Vec3 {
    let x = t.clamp(0.0, 1.0) * (stops.len() - 1) as f32;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f32;
    let (a, b) = (Vec3::from(stops[i]), Vec3::from(stops[i + 1]));
    srgb_to_linear(a.lerp(b, f))
}

/// Whether a linear RGBA colour looks like skin: an orange hue, moderately saturated, not dark.
fn is_skin_tone(linear: [f32; 4]) -> bool {
    let c = linear_to_srgb(Vec3::from_slice(&linear[..3]));
    let (hue, saturation, value) = to_hsv(c);
    (0.0..=0.12).contains(&hue) && (0.15..=0.65).contains(&saturation) && value > 0.3
}

/// HSV (each 0 to 1) to RGB in the same space.
fn hsv(hue: f32, saturation: f32, value: f32) -> Vec3 {
    let h = hue.rem_euclid(1.0) * 6.0;
    let k = |n: f32| {
        let k = (n + h) % 6.0;
        value - value * saturation * k.min(4.0 - k).clamp(0.0, 1.0)
    };
    Vec3::new(k(5.0), k(3.0), k(1.0))
}

/// RGB to HSV (each 0 to 1).
fn to_hsv(c: Vec3) -> (f32, f32, f32) {
    let max = c.max_element();
    let min = c.min_element();
    let d = max - min;
    let hue = if d <= 0.0 {
        0.0
    } else if max == c.x {
        ((c.y - c.z) / d).rem_euclid(6.0) / 6.0
    } else if max == c.y {
        ((c.z - c.x) / d + 2.0) / 6.0
    } else {
        ((c.x - c.y) / d + 4.0) / 6.0
    };
    let saturation = if max > 0.0 { d / max } else { 0.0 };
    (hue, saturation, max)
}

fn srgb_to_linear(c: Vec3) -> Vec3 {
    let f = |x: f32| {
        if x <= 0.04045 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }
    };
    Vec3::new(f(c.x), f(c.y), f(c.z))
}

fn linear_to_srgb(c: Vec3) -> Vec3 {
    let f = |x: f32| {
        let x = x.clamp(0.0, 1.0);
        if x <= 0.003_130_8 {
            x * 12.92
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        }
    };
    Vec3::new(f(c.x), f(c.y), f(c.z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::builtin;

    fn material(name: &str, srgb: [f32; 3], textured: bool) -> Material {
        let l = srgb_to_linear(Vec3::from(srgb));
        Material {
            name: name.into(),
            base_color: [l.x, l.y, l.z, 1.0],
            base_color_texture: textured.then_some(0),
            ..Material::default()
        }
    }

    #[test]
    fn roles_come_from_names_then_from_skin_coloured_materials() {
        let grey = [0.5, 0.5, 0.5];
        assert_eq!(
            material_role(&material("Skin", grey, false)),
            MaterialRole::Skin
        );
        assert_eq!(
            material_role(&material("hair_01", grey, true)),
            MaterialRole::Hair
        );
        assert_eq!(
            material_role(&material("Boots", grey, false)),
            MaterialRole::Footwear
        );
        assert_eq!(
            material_role(&material("jacket", grey, false)),
            MaterialRole::Clothes
        );
        // A prop's materials are named after it (`staff wood`, `hat felt`).
        assert_eq!(
            material_role(&material("staff wood", grey, false)),
            MaterialRole::Wood
        );
        assert_eq!(
            material_role(&material("Sword_Blade", grey, true)),
            MaterialRole::Metal
        );
        assert_eq!(
            material_role(&material("hat felt", grey, false)),
            MaterialRole::Clothes
        );
        let peach = [0.9, 0.7, 0.58];
        assert_eq!(
            material_role(&material("mat3", peach, false)),
            MaterialRole::Skin
        );
        // A texture's colour says nothing of what it dresses.
        assert_eq!(
            material_role(&material("mat3", peach, true)),
            MaterialRole::Clothes
        );
    }

    #[test]
    fn the_builtin_characters_looks_vary_clothes_widely_and_skin_naturally() {
        let model = builtin::model().expect("the built-in character");
        let materials = &model.mesh().materials;
        let roles: Vec<_> = materials.iter().map(material_role).collect();
        assert_eq!(
            roles,
            [
                MaterialRole::Skin,
                MaterialRole::Clothes,
                MaterialRole::Clothes,
                MaterialRole::Footwear
            ]
        );
        let looks = model_looks(&model, 5, 64);
        assert_eq!(
            looks,
            model_looks(&model, 5, 64),
            "the same seed, the same looks"
        );
        assert_ne!(looks, model_looks(&model, 6, 64));
        // What each material shows: its colour times the tint, as sRGB hue.
        let shown = |look: &Look, m: usize| {
            let base = Vec3::from_slice(&materials[m].base_color[..3]);
            to_hsv(linear_to_srgb(base * Vec3::from(look.tints[m])))
        };
        let shirt_hues: std::collections::BTreeSet<u32> = looks
            .iter()
            .map(|l| shown(l, 1))
            .filter(|&(_, s, _)| s > 0.3)
            .map(|(h, _, _)| (h * 12.0) as u32)
            .collect();
        assert!(shirt_hues.len() >= 10, "shirt hue bins: {shirt_hues:?}");
        for look in &looks {
            let (hue, saturation, value) = shown(look, 0);
            assert!(
                (0.0..0.12).contains(&hue) && saturation < 0.7 && value > 0.3,
                "skin {hue} {saturation} {value}"
            );
            // Materials past the model's keep white.
            assert!(look.tints[materials.len()..].iter().all(|t| *t == [1.0; 3]));
            assert!(look.is_valid());
        }
    }

    /// A carried staff takes wood's colours in every look, never a dyed hue.
    #[test]
    fn a_staff_is_wood_coloured_in_every_look() {
        use crate::asset::props::{Attachment, attach};
        let model = builtin::model().expect("the built-in character");
        let staff = builtin::props::prop("staff").expect("a staff");
        let hand = model.skeleton().find("hand_r").expect("a right hand");
        let attachments = [Attachment {
            name: "staff".into(),
            mesh: staff.mesh.clone(),
            joint: hand,
            offset: Vec3::ZERO,
        }];
        let joined = attach(&model, &attachments).expect("attached");
        let materials = &joined.mesh().materials;
        let wood = materials.len() - 1;
        assert_eq!(material_role(&materials[wood]), MaterialRole::Wood);
        let base = Vec3::from_slice(&materials[wood].base_color[..3]);
        let mut values = Vec::new();
        for look in model_looks(&joined, 9, 64) {
            let (hue, saturation, value) =
                to_hsv(linear_to_srgb(base * Vec3::from(look.tints[wood])));
            // Browns: an orange hue, never grey nor vivid.
            assert!(
                (0.04..0.13).contains(&hue) && (0.2..0.7).contains(&saturation),
                "staff {hue} {saturation} {value}"
            );
            values.push(value);
        }
        // From pale to dark woods.
        let (lo, hi) = values
            .iter()
            .fold((1.0f32, 0.0f32), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        assert!(hi - lo > 0.4, "wood values {lo}..{hi}");
    }

    #[test]
    fn a_textured_materials_tint_stays_light() {
        let m = material("Cesium_Man-effect", [1.0, 1.0, 1.0], true);
        let mut rng = SplitMix64::new(9);
        for _ in 0..200 {
            let draws = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
            let t = material_tint(&m, draws);
            // The darkest channel at least a third of the brightest, and none above one: a
            // texel keeps its contrast with its neighbours.
            assert!(
                t.max_element() <= 1.0 && t.min_element() >= t.max_element() / 3.0,
                "{t}"
            );
        }
    }
}
