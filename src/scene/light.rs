//! The scene's light: one directional sun (which casts the shadows) and a hemisphere ambient
//! term (sky above, ground below) that the ambient occlusion darkens.

use glam::Vec3;

/// A light infinitely far away, such as the sun.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionalLight {
    /// Unit vector from a lit point towards the light (the negated direction light travels):
    /// the form `dot(normal, direction)` shading wants.
    pub direction: Vec3,
    /// Linear RGB color.
    pub color: Vec3,
    /// Multiplier of `color`.
    pub intensity: f32,
}

impl DirectionalLight {
    /// A light shining from `towards_light` (normalized here; a zero vector becomes straight
    /// down, from +Y).
    pub fn new(towards_light: Vec3, color: Vec3, intensity: f32) -> Self {
        Self {
            direction: towards_light.try_normalize().unwrap_or(Vec3::Y),
            color,
            intensity,
        }
    }
}

/// Ambient light blended by the normal between `ground` (facing down) and `sky` (facing up):
/// `mix(ground, sky, 0.5 + 0.5 * normal.y)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HemisphereAmbient {
    /// Linear RGB reaching surfaces that face straight up.
    pub sky: Vec3,
    /// Linear RGB reaching surfaces that face straight down.
    pub ground: Vec3,
}

impl HemisphereAmbient {
    /// The ambient light reaching a surface with unit `normal`.
    pub fn at(&self, normal: Vec3) -> Vec3 {
        self.ground.lerp(self.sky, 0.5 + 0.5 * normal.y)
    }
}

/// Everything that lights the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// The shadow-casting sun.
    pub sun: DirectionalLight,
    /// Light from everywhere else.
    pub ambient: HemisphereAmbient,
}

impl Light {
    /// A warm afternoon sun high in front of the crowd on the left (towards -X, +Y, +Z), so
    /// shadows fall back and to the right where a front three-quarter camera sees them; a
    /// pale blue sky and a dim brown ground.
    pub fn default_sun() -> Self {
        Self {
            sun: DirectionalLight::new(Vec3::new(-0.5, 1.0, 0.6), Vec3::new(1.0, 0.95, 0.85), 3.0),
            ambient: HemisphereAmbient {
                sky: Vec3::new(0.30, 0.36, 0.45),
                ground: Vec3::new(0.12, 0.10, 0.08),
            },
        }
    }
}

impl Default for Light {
    fn default() -> Self {
        Self::default_sun()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_sun_is_above_front_left_and_shadows_fall_back_right() {
        let sun = Light::default_sun().sun;
        assert!((sun.direction.length() - 1.0).abs() < 1e-6);
        assert!(sun.direction.y > 0.5 && sun.direction.x < 0.0 && sun.direction.z > 0.0);
        // A shadow is cast along the light's travel: -direction, projected on the ground.
        let shadow = -sun.direction;
        assert!(shadow.x > 0.0 && shadow.z < 0.0);
    }

    #[test]
    fn hemisphere_blends_by_the_normal() {
        let a = Light::default_sun().ambient;
        assert_eq!(a.at(Vec3::Y), a.sky);
        assert_eq!(a.at(-Vec3::Y), a.ground);
        assert_eq!(
            DirectionalLight::new(Vec3::ZERO, Vec3::ONE, 1.0).direction,
            Vec3::Y
        );
    }
}
