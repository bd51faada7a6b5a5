//! What a HUD shows: its text ([`HudText`]), composed by the caller in lines of coloured
//! characters, as the glyphs the HUD pass draws, and the font they are drawn with.

pub use crate::gpu::frame::gpu_layouts::HudGlyph;

/// Glyphs a HUD holds (characters past it are dropped).
pub const MAX_HUD_GLYPHS: usize = 4096;
/// A glyph cell, pixels at scale 1: eight wide, ten high (two rows between lines).
pub const HUD_CELL: [u32; 2] = [8, 10];

/// The colours a HUD's characters come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HudColor {
    /// Figures and text.
    White = 0,
    /// Headings and key names.
    Yellow = 1,
    /// Something switched off, or a warning.
    Red = 2,
    /// The colour ramp of tinted crowds (`motion::RAMP`), low to high: a legend's swatches.
    Ramp0 = 3,
    /// The ramp's second stop.
    Ramp1 = 4,
    /// The ramp's middle stop.
    Ramp2 = 5,
    /// The ramp's fourth stop.
    Ramp3 = 6,
    /// The ramp's high end.
    Ramp4 = 7,
}

impl HudColor {
    /// The colour ramp's stops, low to high.
    pub const RAMP: [HudColor; 5] = [
        HudColor::Ramp0,
        HudColor::Ramp1,
        HudColor::Ramp2,
        HudColor::Ramp3,
        HudColor::Ramp4,
    ];
}

/// Lines of text for the HUD; see the module documentation.
#[derive(Clone, Debug)]
pub struct HudText {
    glyphs: Vec<HudGlyph>,
    line: u32,
    column: u32,
    /// Pixels per font pixel (1 or more).
    scale: u32,
}

impl Default for HudText {
    fn default() -> Self {
        Self::new()
    }
}

impl HudText {
    /// An empty text at scale 1.
    pub fn new() -> Self {
        Self {
            glyphs: Vec::with_capacity(MAX_HUD_GLYPHS),
            line: 0,
            column: 0,
            scale: 1,
        }
    }

    /// Empties it (keeping its room).
    pub fn clear(&mut self) {
        self.glyphs.clear();
        self.line = 0;
        self.column = 0;
    }

    /// Pixels per font pixel (at least 1): 2 draws 16x16-pixel characters.
    pub fn set_scale(&mut self, scale: u32) {
        self.scale = scale.max(1);
    }

    /// Pixels per font pixel.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// Appends `text` in `color` to the current line. Characters outside ASCII show as `?`;
    /// a space is a glyph too (the veil behind the text runs on under it); past
    /// [`MAX_HUD_GLYPHS`] nothing more is kept.
    pub fn push(&mut self, text: &str, color: HudColor) {
        for c in text.chars() {
            let code = if c.is_ascii() && !c.is_ascii_control() {
                c as u32
            } else {
                u32::from(b'?')
            };
            if self.glyphs.len() < MAX_HUD_GLYPHS {
                self.glyphs.push(HudGlyph {
                    cell: self.column.min(0xffff) | self.line.min(0xffff) << 16,
                    code: code | (color as u32) << 8,
                });
            }
            self.column += 1;
        }
    }

    /// Ends the current line: what follows starts the next.
    pub fn newline(&mut self) {
        self.line += 1;
        self.column = 0;
    }

    /// Appends `text` in white and ends the line.
    pub fn line(&mut self, text: &str) {
        self.push(text, HudColor::White);
        self.newline();
    }

    /// The glyphs, in order.
    pub fn glyphs(&self) -> &[HudGlyph] {
        &self.glyphs
    }

    /// Whether it holds no glyph.
    pub fn is_empty(&self) -> bool {
        self.glyphs.is_empty()
    }

    /// Copies `other` into this one without allocating (both hold [`MAX_HUD_GLYPHS`]).
    pub fn copy_from(&mut self, other: &HudText) {
        self.glyphs.clear();
        self.glyphs.extend_from_slice(other.glyphs());
        self.line = other.line;
        self.column = other.column;
        self.scale = other.scale;
    }
}

/// The font as the HUD pass reads it: per ASCII character, its eight rows of eight pixels
/// (bit 0 leftmost) packed four rows to a word.
pub fn font_words() -> [u32; 256] {
    let mut words = [0u32; 256];
    for (c, rows) in font8x8::legacy::BASIC_LEGACY.iter().enumerate() {
        for half in 0..2 {
            let r = &rows[half * 4..half * 4 + 4];
            words[c * 2 + half] = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_take_cells_line_by_line() {
        let mut text = HudText::new();
        text.line("ab c");
        text.push("é", HudColor::Red);
        let cells: Vec<(u32, u32, u32)> = text
            .glyphs()
            .iter()
            .map(|g| (g.cell & 0xffff, g.cell >> 16, g.code))
            .collect();
        assert_eq!(
            cells,
            [
                (0, 0, u32::from(b'a')),
                (1, 0, u32::from(b'b')),
                (2, 0, u32::from(b' ')),
                (3, 0, u32::from(b'c')),
                (0, 1, u32::from(b'?') | 2 << 8),
            ]
        );
        let mut copy = HudText::new();
        copy.copy_from(&text);
        assert_eq!(copy.glyphs(), text.glyphs());
        text.clear();
        assert!(text.is_empty());
    }

    #[test]
    fn a_full_text_keeps_its_first_glyphs() {
        let mut text = HudText::new();
        for _ in 0..MAX_HUD_GLYPHS + 10 {
            text.push("x", HudColor::White);
        }
        assert_eq!(text.glyphs().len(), MAX_HUD_GLYPHS);
    }

    #[test]
    fn the_font_has_letters_and_no_space() {
        let words = font_words();
        let glyph = |c: u8| [words[c as usize * 2], words[c as usize * 2 + 1]];
        assert_eq!(glyph(b' '), [0, 0]);
        assert_ne!(glyph(b'A'), [0, 0]);
        assert_ne!(glyph(b'0'), glyph(b'8'));
    }
}
