//! A small SVG chart writer: scatter plots and line charts with axes, ticks, labels and
//! a legend. Pure functions from data to text, so figures are testable and reproducible;
//! the CLI rasterises them to PNG on request.
//!
//! Coordinates are floats here only because they are drawn; no solver reads them.

use std::fmt::Write;

/// How a series is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// Circles of this radius (pixels).
    Dots(f64),
    /// A polyline through the points, with small circles on them.
    Line,
}

/// One layer of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// CSS colour.
    pub color: String,
    /// How it is drawn.
    pub mark: Mark,
    /// The data points.
    pub points: Vec<(f64, f64)>,
}

/// A chart: axes around the data of all series, drawn in order (later on top).
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// The layers.
    pub series: Vec<Series>,
}

/// Escapes text for SVG.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// "Nice" tick positions covering `lo..=hi` (about six of them).
pub fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).abs().max(1e-9);
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 7.0)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn fmt_tick(t: f64) -> String {
    if (t - t.round()).abs() < 1e-9 {
        format!("{}", t.round() as i64)
    } else {
        let s = format!("{t:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl Chart {
    /// Renders the chart as a standalone SVG document of `width` x `height` pixels.
    pub fn to_svg(&self, width: f64, height: f64) -> String {
        let (left, right, top, bottom) = (70.0, 20.0, 40.0, 60.0 + 18.0 * self.series.len() as f64);
        let all: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .collect();
        let (mut x0, mut x1, mut y0, mut y1) = all.iter().fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
        );
        if !x0.is_finite() {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        let pad = |lo: f64, hi: f64| {
            let p = ((hi - lo) * 0.05).max(0.5);
            (lo - p, hi + p)
        };
        let ((x0, x1), (y0, y1)) = (pad(x0, x1), pad(y0, y1));
        let (pw, ph) = (width - left - right, height - top - bottom);
        let sx = |x: f64| left + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| top + ph - (y - y0) / (y1 - y0) * ph;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
            width / 2.0,
            escape(&self.title)
        );
        // Grid and ticks.
        for t in ticks(x0, x1) {
            let x = sx(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#eee"/>"##,
                top + ph
            );
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                top + ph + 16.0,
                fmt_tick(t)
            );
        }
        for t in ticks(y0, y1) {
            let y = sy(t);
            let _ = writeln!(
                s,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#eee"/>"##,
                left + pw
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                left - 6.0,
                y + 4.0,
                fmt_tick(t)
            );
        }
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="black"/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + pw / 2.0,
            top + ph + 36.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
            top + ph / 2.0,
            top + ph / 2.0,
            escape(&self.y_label)
        );
        // Data.
        for series in &self.series {
            let c = escape(&series.color);
            match series.mark {
                Mark::Dots(r) => {
                    for &(x, y) in &series.points {
                        let _ = writeln!(
                            s,
                            r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{c}"/>"#,
                            sx(x),
                            sy(y)
                        );
                    }
                }
                Mark::Line => {
                    let pts: Vec<String> = series
                        .points
                        .iter()
                        .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
                        .collect();
                    let _ = writeln!(
                        s,
                        r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
                        pts.join(" ")
                    );
                    for &(x, y) in &series.points {
                        let _ = writeln!(
                            s,
                            r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#,
                            sx(x),
                            sy(y)
                        );
                    }
                }
            }
        }
        // Legend below the axis label.
        for (i, series) in self.series.iter().enumerate() {
            let y = top + ph + 56.0 + 18.0 * i as f64;
            let c = escape(&series.color);
            let r = match series.mark {
                Mark::Dots(r) => r.clamp(3.0, 7.0),
                Mark::Line => 4.0,
            };
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{c}"/>"#,
                left + 8.0,
                y - 4.0
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{y:.1}">{} ({} point{})</text>"#,
                left + 22.0,
                escape(&series.name),
                series.points.len(),
                if series.points.len() == 1 { "" } else { "s" }
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(23.3, 71.9);
        assert!(t.first().unwrap() >= &23.3 && t.last().unwrap() <= &71.9 && t.len() >= 4);
    }

    #[test]
    fn svg_has_axes_legend_and_points() {
        let c = Chart {
            title: "t <1>".into(),
            x_label: "Alice".into(),
            y_label: "Bob".into(),
            series: vec![Series {
                name: "all".into(),
                color: "#333".into(),
                mark: Mark::Dots(2.0),
                points: vec![(1.0, 2.0), (3.0, 4.0)],
            }],
        };
        let svg = c.to_svg(400.0, 300.0);
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<circle").count(), 3); // two points and a legend mark
        assert!(
            svg.contains("t &lt;1&gt;")
                && svg.contains(">Alice<")
                && svg.contains("all (2 points)")
        );
    }
}
