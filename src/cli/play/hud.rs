//! What a playback's heads-up display says: the file's time against its end, the pedestrians
//! present, the playback speed (and, paused, that it is), with `--follow` the pedestrian
//! ridden behind and its speed, and with `--color-by` the colour scale as a legend. Composed
//! through one reused line buffer: once it has grown, composing allocates nothing.

use std::fmt::Write as _;

use throng::gpu::features::hud::{HudColor, HudText};
use throng::motion::ColorBy;

/// What the display shows.
pub struct PlayHudState {
    /// File time now and at the end, seconds.
    pub time: f64,
    /// The last file time.
    pub end: f64,
    /// Pedestrians present, and in the whole file.
    pub present: usize,
    /// Pedestrians in the file.
    pub pedestrians: usize,
    /// Seconds of file time per second shown.
    pub speed: f64,
    /// Whether playback is paused.
    pub paused: bool,
    /// With `--follow`: the pedestrian's id, and its speed (m/s) while it is present.
    pub followed: Option<(u64, Option<f32>)>,
    /// The colouring, if any.
    pub color_by: Option<ColorBy>,
    /// Whether to list the window's keys.
    pub keys: bool,
}

/// The window's keys, as the display and docs/cli.md list them.
pub const PLAY_KEYS: &str = "Space pause  Left/Right seek 5 s  [ ] speed  H hud  Esc quit";

/// Composes the display's text.
pub struct PlayHud {
    /// The text handed to the renderer.
    pub text: HudText,
    line: String,
}

impl PlayHud {
    /// An empty display, `scale` pixels per font pixel.
    pub fn new(scale: u32) -> Self {
        let mut text = HudText::new();
        text.set_scale(scale);
        Self {
            text,
            line: String::with_capacity(128),
        }
    }

    /// Writes the display for `state`.
    pub fn compose(&mut self, state: &PlayHudState) {
        self.text.clear();
        self.line.clear();
        let _ = write!(
            self.line,
            "t {:8.2} s of {:.2}   x{:.2}",
            state.time, state.end, state.speed
        );
        self.text.push(&self.line, HudColor::White);
        if state.paused {
            self.text.push("   paused", HudColor::Yellow);
        }
        self.text.newline();
        self.line.clear();
        let _ = write!(
            self.line,
            "{} present of {} pedestrians",
            state.present, state.pedestrians
        );
        self.text.line(&self.line);
        if let Some((id, speed)) = state.followed {
            self.line.clear();
            let _ = match speed {
                Some(v) => write!(self.line, "following {id}  {v:.2} m/s"),
                None => write!(self.line, "following {id}  (not present)"),
            };
            self.text.line(&self.line);
        }
        if let Some(by) = state.color_by {
            self.text.push(by.unit(), HudColor::Yellow);
            self.text.push("  0 ", HudColor::White);
            for c in HudColor::RAMP {
                self.text.push("##", c);
            }
            self.line.clear();
            let _ = write!(self.line, " {}+", by.top());
            self.text.push(&self.line, HudColor::White);
            self.text.newline();
        }
        if state.keys {
            self.text.push(PLAY_KEYS, HudColor::Yellow);
            self.text.newline();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_display_says_time_presence_speed_and_the_legend() {
        let mut hud = PlayHud::new(1);
        hud.compose(&PlayHudState {
            time: 12.5,
            end: 82.0,
            present: 41,
            pedestrians: 170,
            speed: 2.0,
            paused: true,
            followed: Some((250, Some(1.3125))),
            color_by: Some(ColorBy::Speed),
            keys: false,
        });
        let text: String = hud
            .text
            .glyphs()
            .iter()
            .map(|g| char::from((g.code & 0x7f) as u8))
            .collect();
        assert!(text.contains("12.50 s of 82.00"), "{text}");
        assert!(text.contains("x2.00") && text.contains("paused"), "{text}");
        assert!(text.contains("41 present of 170"), "{text}");
        assert!(text.contains("following 250  1.31 m/s"), "{text}");
        assert!(text.contains("speed m/s") && text.contains("##########") && text.contains("2+"));
        let ramp: Vec<u32> = hud
            .text
            .glyphs()
            .iter()
            .map(|g| g.code >> 8)
            .filter(|&c| c >= 3)
            .collect();
        assert_eq!(ramp, [3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
    }
}
