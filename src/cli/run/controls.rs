//! The window's live controls: which key asks for what ([`action_of`]), and what each switch
//! does to the settings. The keys are listed by the heads-up display (`cli::hud::KEYS`) and in
//! docs/cli.md; fly mode's keys (W/A/S/D, Q/E, Shift, F) stay its own.

use throng::gpu::RenderSettings;
use winit::keyboard::KeyCode;

/// What a key asks of the running window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// H: the heads-up display on or off.
    ToggleHud,
    /// + (or =) twice the characters, - half of them: the crowd laid out again.
    Crowd(Resize),
    /// A pass or feature on or off.
    Switch(Switched),
    /// M: the next number of samples per pixel (1, 2, 4, 8, then 1 again).
    NextMsaa,
    /// V: the overview or the street camera, in turn.
    NextCamera,
    /// Space: the crowd stands still, or moves on.
    Pause,
    /// P: the next frame written as PNG.
    Screenshot,
}

/// Twice or half the crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resize {
    /// Twice as many characters.
    Double,
    /// Half as many (one at least).
    Halve,
}

/// What a switch key turns on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switched {
    /// C: culling (and the occlusion test with it).
    Cull,
    /// L: mesh levels.
    Levels,
    /// I: impostor cards.
    Cards,
    /// X: shadows.
    Shadows,
    /// Z: ambient occlusion.
    Ssao,
}

/// The action of a key going down, by its place on the keyboard (`None` for the others).
pub fn action_of(code: KeyCode) -> Option<Action> {
    Some(match code {
        KeyCode::KeyH => Action::ToggleHud,
        KeyCode::Equal | KeyCode::NumpadAdd => Action::Crowd(Resize::Double),
        KeyCode::Minus | KeyCode::NumpadSubtract => Action::Crowd(Resize::Halve),
        KeyCode::KeyC => Action::Switch(Switched::Cull),
        KeyCode::KeyL => Action::Switch(Switched::Levels),
        KeyCode::KeyI => Action::Switch(Switched::Cards),
        KeyCode::KeyX => Action::Switch(Switched::Shadows),
        KeyCode::KeyZ => Action::Switch(Switched::Ssao),
        KeyCode::KeyM => Action::NextMsaa,
        KeyCode::KeyV => Action::NextCamera,
        KeyCode::Space => Action::Pause,
        KeyCode::KeyP => Action::Screenshot,
        _ => return None,
    })
}

/// `settings` with `switched` turned over; returns them and its name and new state.
pub fn switch(
    mut settings: RenderSettings,
    switched: Switched,
) -> (RenderSettings, &'static str, bool) {
    let (flag, name) = match switched {
        Switched::Cull => (&mut settings.cull, "culling"),
        Switched::Levels => (&mut settings.lod, "mesh levels"),
        Switched::Cards => (&mut settings.impostors, "impostor cards"),
        Switched::Shadows => (&mut settings.shadows, "shadows"),
        Switched::Ssao => (&mut settings.ssao, "ambient occlusion"),
    };
    *flag = !*flag;
    let on = *flag;
    if switched == Switched::Cull {
        // The occlusion test is culling's second half.
        settings.occlusion = on;
    }
    (settings, name, on)
}

/// The samples per pixel after `msaa` in the cycle 1, 2, 4, 8.
pub fn next_msaa(msaa: u32) -> u32 {
    match msaa {
        0 | 1 => 2,
        2 => 4,
        4 => 8,
        _ => 1,
    }
}

/// The crowd's size after `resize` of `instances` characters, within 1 and `most`.
pub fn resized(instances: usize, resize: Resize, most: usize) -> usize {
    match resize {
        Resize::Double => instances.saturating_mul(2).min(most),
        Resize::Halve => (instances / 2).max(1),
    }
    .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_switches_and_cycles() {
        assert_eq!(action_of(KeyCode::KeyH), Some(Action::ToggleHud));
        assert_eq!(
            action_of(KeyCode::Equal),
            Some(Action::Crowd(Resize::Double))
        );
        assert_eq!(action_of(KeyCode::KeyW), None, "fly mode's");
        let (s, name, on) = switch(RenderSettings::default(), Switched::Cull);
        assert!(!s.cull && !s.occlusion && !on, "{name}");
        let (s, _, on) = switch(s, Switched::Cull);
        assert!(s.cull && s.occlusion && on);
        let (s, name, on) = switch(RenderSettings::default(), Switched::Shadows);
        assert_eq!((s.shadows, name, on), (false, "shadows", false));
        assert_eq!(
            [1, 2, 4, 8].map(next_msaa),
            [2, 4, 8, 1],
            "the cycle of samples"
        );
        assert_eq!(resized(500, Resize::Double, 4_000_000), 1000);
        assert_eq!(resized(3_000_000, Resize::Double, 4_000_000), 4_000_000);
        assert_eq!(resized(1, Resize::Halve, 4_000_000), 1);
    }
}
