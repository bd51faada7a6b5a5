//! Fly mode's keys: which of W/A/S/D, Q/E and Shift are held, and the move they make.

use winit::keyboard::KeyCode;

/// Fly mode's speed: this share of the scene's radius per second (four times with Shift).
pub(super) const FLY_SPEED: f32 = 0.15;
/// The keys held in fly mode (by position: W/A/S/D wherever the layout puts those letters).
#[derive(Default)]
pub(super) struct FlyKeys {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
    down: bool,
    up: bool,
    fast: bool,
}

impl FlyKeys {
    /// Records `code` going down or up; false for keys fly mode does not use.
    pub(super) fn set(&mut self, code: KeyCode, down: bool) -> bool {
        let key = match code {
            KeyCode::KeyW => &mut self.forward,
            KeyCode::KeyS => &mut self.back,
            KeyCode::KeyA => &mut self.left,
            KeyCode::KeyD => &mut self.right,
            KeyCode::KeyQ => &mut self.down,
            KeyCode::KeyE => &mut self.up,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => &mut self.fast,
            _ => return false,
        };
        *key = down;
        true
    }

    /// The move for `dt` seconds at `speed` world units per second: (forward, right, up).
    pub(super) fn step(&self, speed: f32, dt: f32) -> (f32, f32, f32) {
        let d = speed * dt * if self.fast { 4.0 } else { 1.0 };
        let axis =
            |plus: bool, minus: bool| d * (f32::from(u8::from(plus)) - f32::from(u8::from(minus)));
        (
            axis(self.forward, self.back),
            axis(self.right, self.left),
            axis(self.up, self.down),
        )
    }
}
