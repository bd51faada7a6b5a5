//! The heads-up display on a headless screenshot: `throng run --headless --hud on` draws its
//! text over the frame's top-left corner (white glyphs on a dark veil), `--hud off` (the
//! headless default) leaves the sky there, and the rest of the frame is the same picture.

mod common;

use common::frames::{Frame, frame_dir, run_frame};

/// Pixels of the top-left corner where the display's first lines are, `(white, dark)`.
fn corner(frame: &Frame) -> (usize, usize) {
    let (mut white, mut dark) = (0, 0);
    for y in 0..40 {
        for x in 0..200 {
            let p = frame.rgb[y * frame.width + x];
            white += usize::from(p.iter().all(|&c| c > 230));
            dark += usize::from(p.iter().all(|&c| c < 20));
        }
    }
    (white, dark)
}

#[test]
fn the_display_shows_on_a_headless_screenshot() {
    let dir = frame_dir("hud", "screenshot");
    let size = ["320", "180"];
    let common = ["--instances", "16", "--impostors", "off"];
    let Some((on, stats)) = run_frame(&dir, "on", size, &[&common[..], &["--hud", "on"]].concat())
    else {
        return;
    };
    let (off, _) = run_frame(&dir, "off", size, &common).expect("run");
    let ((white_on, dark_on), (white_off, dark_off)) = (corner(&on), corner(&off));
    eprintln!("top-left corner: white {white_on} / {white_off}, dark {dark_on} / {dark_off}");
    assert!(white_on > 300, "{white_on} white pixels with the display");
    assert!(
        dark_on > 1000,
        "{dark_on} dark pixels (its veil) with the display"
    );
    assert_eq!((white_off, dark_off), (0, 0), "the sky without it");
    // Below the display's lines the frame is the same.
    let below = (120 * on.width..on.rgb.len())
        .filter(|&i| on.rgb[i] != off.rgb[i])
        .count();
    assert_eq!(below, 0, "{below} pixels differ below the display");
    assert_eq!(stats["validation_messages"], 0);
    std::fs::remove_dir_all(&dir).ok();
}
