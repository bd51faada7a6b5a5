//! The keys a clip is made of: [`Channel`]s of one property of one joint, grouped per joint
//! into [`JointTrack`]s, with their [`Interpolation`]. Plain data: validated by
//! [`AnimationClip::new`](crate::anim::AnimationClip::new), compiled by the sampler.

use glam::{Quat, Vec3};

use crate::anim::transform::Transform;

/// How values between two keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Lerp for translation and scale, shortest-arc slerp for rotation.
    Linear,
    /// Hold each key until the next one.
    Step,
    /// glTF's cubic Hermite spline: each key carries an in-tangent, a value and an out-tangent.
    CubicSpline,
}

/// The keys of one property of one joint. `times` are seconds, strictly increasing and not
/// negative. `values` has one entry per key, or three (in-tangent, value, out-tangent) for
/// [`Interpolation::CubicSpline`].
#[derive(Clone, Debug, PartialEq)]
pub struct Channel<T> {
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// Key values (see the type's documentation for the cubic-spline layout).
    pub values: Vec<T>,
    /// How to interpolate between keys.
    pub interpolation: Interpolation,
}

impl<T> Channel<T> {
    /// A linearly interpolated channel.
    pub fn linear(times: Vec<f32>, values: Vec<T>) -> Self {
        Self {
            times,
            values,
            interpolation: Interpolation::Linear,
        }
    }

    /// The value of key `k` (the middle of the triple for cubic splines).
    ///
    /// # Panics
    ///
    /// If `k` is not a key index.
    pub fn key_value(&self, k: usize) -> &T {
        match self.interpolation {
            Interpolation::CubicSpline => &self.values[3 * k + 1],
            _ => &self.values[k],
        }
    }
}

/// The animated properties of one joint; a property without a channel keeps its bind value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointTrack {
    /// Translation keys.
    pub translation: Option<Channel<Vec3>>,
    /// Rotation keys (unit quaternions; normalized on construction).
    pub rotation: Option<Channel<Quat>>,
    /// Scale keys.
    pub scale: Option<Channel<Vec3>>,
}

impl JointTrack {
    /// A joint animated on one shared timeline with linear interpolation, the way `.m3d` and
    /// the built-in character store keys.
    pub fn from_keys(times: Vec<f32>, keys: &[Transform]) -> Self {
        Self {
            translation: Some(Channel::linear(
                times.clone(),
                keys.iter().map(|k| Vec3::from(k.translation)).collect(),
            )),
            rotation: Some(Channel::linear(
                times.clone(),
                keys.iter().map(|k| k.rotation).collect(),
            )),
            scale: Some(Channel::linear(
                times,
                keys.iter().map(|k| Vec3::from(k.scale)).collect(),
            )),
        }
    }
}
