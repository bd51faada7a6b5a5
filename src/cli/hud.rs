//! What `throng run`'s heads-up display says (`--hud`, H in the window): the last second's
//! frame rate and milliseconds (CPU, waiting, GPU and its largest passes), what was drawn
//! (instances per pass and mesh level, triangles, cards, exact and baked palettes), the device
//! and the switches, and in a window the keys. Composed into a [`HudText`] through one
//! reused line buffer: once the buffer has grown, composing allocates nothing.

use std::fmt::Write as _;

use throng::gpu::features::hud::{HudColor, HudText};
use throng::gpu::{PassTime, RenderSettings};

use super::stats::{Drawn, Second};

/// Passes the display names, the slowest first.
const PASSES_SHOWN: usize = 4;

/// The window's keys, as the display and docs/cli.md list them.
pub const KEYS: &str = "H hud  +/- crowd x2  C cull  L levels  I cards  X shadows  Z ssao  \
                        M msaa  V camera  F fly  Space pause  P screenshot  Esc quit";

/// What the display shows besides the statistics.
pub struct HudScene<'a> {
    /// Characters in the crowd.
    pub instances: usize,
    /// The device's name.
    pub device: &'a str,
    /// The settings frames are drawn with.
    pub settings: RenderSettings,
    /// The camera's name (overview, street, fly).
    pub camera: &'a str,
    /// Whether the crowd stands still.
    pub paused: bool,
    /// Whether to list the window's keys.
    pub keys: bool,
}

/// Composes the display's text; see the module documentation.
pub struct HudComposer {
    /// The text handed to the renderer.
    pub text: HudText,
    line: String,
}

impl HudComposer {
    /// An empty display, its characters `scale` pixels per font pixel.
    pub fn new(scale: u32) -> Self {
        let mut text = HudText::new();
        text.set_scale(scale);
        Self {
            text,
            line: String::with_capacity(256),
        }
    }

    /// Writes the display for `second`, `passes`, `drawn` and `scene`.
    pub fn compose(
        &mut self,
        second: &Second,
        passes: &[PassTime],
        drawn: &Drawn,
        scene: &HudScene<'_>,
    ) {
        self.text.clear();
        self.text.push("throng ", HudColor::Yellow);
        self.put(format_args!(
            "{:.1} fps  {:.2} ms a frame  {} characters",
            second.fps, second.frame_ms, scene.instances
        ));
        if scene.paused {
            self.text.push("  ", HudColor::White);
            self.text.push("paused", HudColor::Red);
        }
        self.text.newline();
        self.put(format_args!(
            "CPU {:.2} ms  wait {:.2} ms  GPU ",
            second.cpu_ms, second.wait_ms
        ));
        match second.gpu_ms {
            Some(ms) => self.put(format_args!("{ms:.2} ms")),
            None => self.put(format_args!("n/a")),
        }
        self.text.newline();
        self.slowest_passes(passes);
        if let Some(d) = &drawn.draw {
            // Meshes and cards apart: a character crossing the card threshold is both.
            let camera: u64 = d.camera.iter().sum();
            let shadow: u64 = d.shadow.iter().sum();
            self.put(format_args!(
                "meshes {camera} (shadow {shadow})  {:.2} M tris (shadow {:.2} M)",
                d.camera_triangles as f64 / 1e6,
                d.shadow_triangles as f64 / 1e6
            ));
            self.text.newline();
            self.put(format_args!(
                "levels {}/{}/{}/{}/{}  cards {} (shadow {})",
                d.camera[0],
                d.camera[1],
                d.camera[2],
                d.camera[3],
                d.camera[4],
                d.camera_cards,
                d.shadow_cards
            ));
            self.text.newline();
        }
        self.put(format_args!(
            "palettes: exact {}  baked {}",
            drawn.animation.exact, drawn.animation.baked
        ));
        self.text.newline();
        self.put(format_args!(
            "{}  MSAA {}x  camera {}",
            scene.device, scene.settings.msaa, scene.camera
        ));
        self.text.newline();
        let s = scene.settings;
        for (name, on) in [
            ("cull", s.cull),
            ("levels", s.lod),
            ("cards", s.impostors),
            ("shadows", s.shadows),
            ("ssao", s.ssao),
        ] {
            let (word, color) = if on {
                ("on", HudColor::White)
            } else {
                ("off", HudColor::Red)
            };
            self.put(format_args!("{name} "));
            self.text.push(word, color);
            self.text.push("  ", HudColor::White);
        }
        self.text.newline();
        if scene.keys {
            self.text.push(KEYS, HudColor::Yellow);
            self.text.newline();
        }
    }

    /// The slowest passes of the last frame timed, slowest first, found without sorting a
    /// copy.
    fn slowest_passes(&mut self, passes: &[PassTime]) {
        if passes.is_empty() {
            return;
        }
        self.text.push("GPU passes:", HudColor::White);
        let mut shown = [usize::MAX; PASSES_SHOWN];
        for slot in 0..PASSES_SHOWN {
            let next = passes
                .iter()
                .enumerate()
                .filter(|(i, _)| !shown[..slot].contains(i))
                .max_by(|a, b| a.1.last_ms.total_cmp(&b.1.last_ms));
            let Some((i, p)) = next else {
                break;
            };
            shown[slot] = i;
            self.put(format_args!(" {} {:.2}", p.name, p.last_ms));
        }
        self.text.newline();
    }

    /// Appends formatted text in white through the reused line buffer.
    fn put(&mut self, args: std::fmt::Arguments<'_>) {
        self.line.clear();
        let _ = self.line.write_fmt(args);
        self.text.push(&self.line, HudColor::White);
    }
}

/// Pixels per font pixel for a frame `height` pixels high: 8-pixel characters up to 720
/// lines, larger above.
pub fn hud_scale(height: u32) -> u32 {
    (height / 720).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use throng::gpu::DrawStats;

    fn lines(text: &HudText) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for g in text.glyphs() {
            let (column, line) = ((g.cell & 0xffff) as usize, (g.cell >> 16) as usize);
            while out.len() <= line {
                out.push(String::new());
            }
            let l = &mut out[line];
            while l.len() < column {
                l.push(' ');
            }
            l.push(char::from((g.code & 0x7f) as u8));
        }
        out
    }

    #[test]
    fn the_display_says_the_figures_the_slowest_passes_and_the_switches() {
        let mut hud = HudComposer::new(1);
        let second = Second {
            fps: 59.94,
            frame_ms: 16.68,
            cpu_ms: 1.5,
            wait_ms: 0.25,
            gpu_ms: Some(12.0),
        };
        let pass = |name, last_ms| PassTime {
            name,
            total_ms: 0.0,
            frames: 1,
            last_ms,
        };
        let passes = [
            pass("cull", 0.1),
            pass("forward", 6.0),
            pass("shadow", 3.0),
            pass("ssao", 0.5),
            pass("depth_normal", 2.0),
        ];
        let drawn = Drawn {
            draw: Some(DrawStats {
                camera: [1, 2, 3, 4, 5],
                camera_cards: 10,
                ..DrawStats::default()
            }),
            ..Drawn::default()
        };
        let scene = HudScene {
            instances: 1000,
            device: "llvmpipe",
            settings: RenderSettings {
                shadows: false,
                impostors: true,
                ..RenderSettings::default()
            },
            camera: "street",
            paused: true,
            keys: true,
        };
        hud.compose(&second, &passes, &drawn, &scene);
        let text = lines(&hud.text).join("\n");
        for want in [
            "throng 59.9 fps  16.68 ms a frame  1000 characters  paused",
            "CPU 1.50 ms  wait 0.25 ms  GPU 12.00 ms",
            "GPU passes: forward 6.00 shadow 3.00 depth_normal 2.00 ssao 0.50",
            "meshes 15 (shadow 0)",
            "levels 1/2/3/4/5  cards 10 (shadow 0)",
            "llvmpipe  MSAA 4x  camera street",
            "shadows off",
            "H hud",
        ] {
            assert!(text.contains(want), "{want:?} not in:\n{text}");
        }
        let red: Vec<_> = hud
            .text
            .glyphs()
            .iter()
            .filter(|g| g.code >> 8 == HudColor::Red as u32)
            .collect();
        assert_eq!(red.len(), "paused".len() + "off".len());
    }
}
