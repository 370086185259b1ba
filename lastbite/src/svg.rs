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
            let p = if hi > lo { (hi - lo) * 0.05 } else { 0.5 };
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

/// A heat map of small integers: one row per label, one column per x value, cells coloured
/// on a diverging scale (blue negative, white zero, red positive).
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Title.
    pub title: String,
    /// Label of the columns' axis.
    pub x_label: String,
    /// The first column's x value.
    pub x_start: u64,
    /// Row labels.
    pub rows: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<i64>>,
}

impl Heatmap {
    /// Renders the heat map as SVG.
    pub fn to_svg(&self) -> String {
        let cols = self.cells.iter().map(Vec::len).max().unwrap_or(0);
        let (left, top, cw, ch) = (
            130.0,
            40.0,
            (900.0 / cols.max(1) as f64).clamp(1.0, 14.0),
            22.0,
        );
        let width = left + cw * cols as f64 + 30.0;
        let height = top + ch * self.rows.len() as f64 + 90.0;
        let max = self
            .cells
            .iter()
            .flatten()
            .map(|v| v.abs())
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
            width / 2.0,
            escape(&self.title)
        );
        for (r, row) in self.cells.iter().enumerate() {
            let y = top + ch * r as f64;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                left - 6.0,
                y + 15.0,
                escape(&self.rows[r])
            );
            for (c, &v) in row.iter().enumerate() {
                let t = (v.abs() as f64 / max).min(1.0);
                let fade = (255.0 * (1.0 - t)).round() as u8;
                let color = match v.signum() {
                    1 => format!("rgb(255,{fade},{fade})"),
                    -1 => format!("rgb({fade},{fade},255)"),
                    _ => "rgb(255,255,255)".into(),
                };
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.2}" y="{y:.1}" width="{cw:.2}" height="{ch}" fill="{color}"/>"#,
                    left + cw * c as f64
                );
            }
        }
        let bottom = top + ch * self.rows.len() as f64;
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
            cw * cols as f64,
            bottom - top
        );
        for t in ticks(
            self.x_start as f64,
            (self.x_start + cols as u64).saturating_sub(1) as f64,
        ) {
            let x = left + cw * (t - self.x_start as f64 + 0.5);
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                bottom + 16.0,
                fmt_tick(t)
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + cw * cols as f64 / 2.0,
            bottom + 36.0,
            escape(&self.x_label)
        );
        // Legend.
        let ly = bottom + 60.0;
        for (i, (v, label)) in [(-1i64, "negative"), (0, "zero"), (1, "positive")]
            .iter()
            .enumerate()
        {
            let color = match v {
                1 => "rgb(255,0,0)",
                -1 => "rgb(0,0,255)",
                _ => "rgb(255,255,255)",
            };
            let x = left + 120.0 * i as f64;
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{:.1}" width="14" height="14" fill="{color}" stroke="black"/>"#,
                ly - 11.0
            );
            let _ = writeln!(s, r#"<text x="{:.1}" y="{ly:.1}">{label}</text>"#, x + 20.0);
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{ly:.1}">(largest |value| {max})</text>"#,
            left + 360.0
        );
        s.push_str("</svg>\n");
        s
    }
}
