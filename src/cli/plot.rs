//! A small SVG line-chart writer for benchmark plots (no plotting dependency needed).

use std::fmt::Write;

/// One line of a chart: its label and its (x, y) points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// A chart: axes, title, and series drawn as polylines with markers.
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Logarithmic x axis (instance counts span decades).
    pub x_log: bool,
    pub series: Vec<Series>,
}

const W: f64 = 460.0;
const H: f64 = 320.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 48.0;
const COLORS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Draws `charts` side by side as one SVG document, with a caption line underneath.
pub fn svg(charts: &[Chart], caption: &str) -> String {
    let width = W * charts.len() as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" font-family="sans-serif" font-size="12">"#,
        H + 24.0
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, chart) in charts.iter().enumerate() {
        let _ = writeln!(out, r#"<g transform="translate({},0)">"#, W * i as f64);
        draw(&mut out, chart);
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(
        out,
        r##"<text x="8" y="{}" fill="#555">{}</text>"##,
        H + 16.0,
        escape(caption)
    );
    out.push_str("</svg>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Round numbers covering [0, max] for the y axis.
fn y_ticks(max: f64) -> Vec<f64> {
    let raw = (max / 5.0).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    (0..=((max / step).ceil() as usize))
        .map(|k| k as f64 * step)
        .collect()
}

fn draw(out: &mut String, c: &Chart) {
    let xs: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let ys: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let tx = |x: f64| if c.x_log { x.max(1e-12).log10() } else { x };
    let (x0, x1) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| {
        (a.min(tx(x)), b.max(tx(x)))
    });
    let (x0, x1) = if x1 > x0 {
        (x0, x1)
    } else {
        (x0 - 1.0, x0 + 1.0)
    };
    let ticks = y_ticks(ys.iter().cloned().fold(0.0, f64::max) * 1.05);
    let y1 = ticks.last().copied().unwrap_or(1.0).max(f64::MIN_POSITIVE);
    let px = |x: f64| LEFT + (tx(x) - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let py = |y: f64| H - BOTTOM - y / y1 * (H - TOP - BOTTOM);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="20" font-weight="bold" text-anchor="middle">{}</text>"#,
        W / 2.0,
        escape(&c.title)
    );
    for t in &ticks {
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" x2="{}" y1="{y}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            py(*t) + 4.0,
            t,
            y = py(*t)
        );
    }
    let mut xt: Vec<f64> = xs.clone();
    xt.sort_by(f64::total_cmp);
    xt.dedup();
    for x in xt {
        let label = if x >= 1000.0 {
            format!("{}k", x / 1000.0)
        } else {
            format!("{x}")
        };
        let _ = writeln!(
            out,
            r##"<line x1="{p}" x2="{p}" y1="{}" y2="{}" stroke="#ddd"/><text x="{p}" y="{}" text-anchor="middle">{label}</text>"##,
            TOP,
            H - BOTTOM,
            H - BOTTOM + 16.0,
            p = px(x)
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="#333"/><line x1="{LEFT}" x2="{}" y1="{y}" y2="{y}" stroke="#333"/>"##,
        H - BOTTOM,
        W - RIGHT,
        y = H - BOTTOM
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 10.0,
        escape(&c.x_label)
    );
    let _ = writeln!(
        out,
        r#"<text transform="translate(16,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (TOP + H - BOTTOM) / 2.0,
        escape(&c.y_label)
    );
    for (i, s) in c.series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        for &(x, y) in &s.points {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{color}"/>"#,
                px(x),
                py(y)
            );
        }
        let ly = TOP + 8.0 + 16.0 * i as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{}" x2="{}" y1="{ly}" y2="{ly}" stroke="{color}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            W - RIGHT - 120.0,
            W - RIGHT - 100.0,
            W - RIGHT - 94.0,
            ly + 4.0,
            escape(&s.label)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_series_with_round_ticks() {
        let chart = Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_log: true,
            series: vec![
                Series {
                    label: "a".into(),
                    points: vec![(1000.0, 10.0), (100000.0, 55.0)],
                },
                Series {
                    label: "b<c".into(),
                    points: vec![(1000.0, 20.0), (100000.0, 30.0)],
                },
            ],
        };
        let s = svg(&[chart], "caption");
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("b&lt;c") && s.contains("100k"));
        assert_eq!(y_ticks(57.75), vec![0.0, 20.0, 40.0, 60.0]);
    }
}
