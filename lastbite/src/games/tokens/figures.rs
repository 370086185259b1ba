//! The Token Dollars board drawn: the stacks in order (on a line, or around a clock), each
//! with its value, the tokens where the players placed them (letter and turn), and each
//! stack's territory, the colour of the token nearest to it (stacks split between
//! several tokens striped with their colours and labelled with their letters).
//!
//! Coordinates are floats only because they are drawn; the territory is the model's
//! ([`Board::territory`]), exact.

use std::fmt::Write;

use super::Board;
use crate::engine::player_letter;
use crate::svg::escape;

/// One colour a player, in turn order.
pub const COLORS: [&str; 10] = [
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

const CELL: f64 = 44.0;

/// Where a stack is drawn: its centre, and the unit direction its token sits in.
type Spot = (f64, f64, f64, f64);

/// The board with tokens at the 1-based stacks `placed` (in turn order) as an SVG
/// document, under `title`; the shares of the stacks in the legend.
pub fn board_svg(board: &Board, placed: &[usize], title: &str) -> String {
    let values = board.values();
    let territory = board.territory(placed);
    let shares: Vec<String> = board
        .payoffs(placed)
        .iter()
        .map(|&v| board.real(v).to_string())
        .collect();
    let n = values.len();
    // Each stack's centre, and the direction its token sits in (outwards on a clock).
    let (width, height, centres): (f64, f64, Vec<Spot>) = if board.clock() {
        // Boxes turned along the ring need their diagonal's room.
        let r = (n as f64 * CELL * 1.5 / std::f64::consts::TAU).max(70.0);
        let size = 2.0 * r + 160.0;
        let (cx, cy) = (size / 2.0, 60.0 + r + 40.0);
        let pts = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
                let (s, c) = a.sin_cos();
                (cx + r * c, cy + r * s, c, s)
            })
            .collect();
        (
            size.max(420.0),
            cy + r + 90.0 + 16.0 * placed.len() as f64,
            pts,
        )
    } else {
        let w = 40.0 + n as f64 * CELL + 40.0;
        let pts = (0..n)
            .map(|i| (40.0 + CELL * (i as f64 + 0.5), 130.0, 0.0, -1.0))
            .collect();
        (w.max(420.0), 220.0 + 16.0 * placed.len() as f64, pts)
    };
    let width = width.max(title.chars().count() as f64 * 8.0 + 40.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="24" text-anchor="middle" font-size="14">{}</text>"#,
        width / 2.0,
        escape(title)
    );
    let half = CELL / 2.0 - 2.0;
    for (i, &(x, y, dx, dy)) in centres.iter().enumerate() {
        let owners = &territory[i];
        // The territory: one band a nearest token, left to right.
        let bands = owners.len().max(1);
        let w = 2.0 * half / bands as f64;
        for (k, &t) in owners.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{}" fill-opacity="0.3"/>"#,
                x - half + w * k as f64,
                y - half,
                2.0 * half,
                COLORS[t % COLORS.len()]
            );
        }
        let _ = writeln!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
            x - half,
            y - half,
            2.0 * half,
            2.0 * half
        );
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">${}</text>"#,
            y + 4.0,
            escape(&values[i].to_string())
        );
        let owners_text: Vec<String> = owners.iter().map(|&t| player_letter(t)).collect();
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="10" fill="#444444">{}</text>"##,
            y + half - 4.0,
            owners_text.join(",")
        );
        // The token on this stack, if any: a disc outside the stack.
        if let Some(t) = placed.iter().position(|&p| p == i + 1) {
            let (tx, ty) = (x + dx * (half + 20.0), y + dy * (half + 20.0));
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{tx:.1}" y2="{ty:.1}" stroke="black"/>"#,
                x + dx * half,
                y + dy * half
            );
            let _ = writeln!(
                s,
                r#"<circle cx="{tx:.1}" cy="{ty:.1}" r="13" fill="{}" stroke="black"/>"#,
                COLORS[t % COLORS.len()]
            );
            let _ = writeln!(
                s,
                r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle" fill="white" font-weight="bold">{}{}</text>"#,
                ty + 4.0,
                player_letter(t),
                t + 1
            );
        }
    }
    // The legend: each player's stack and share.
    let top = height - 16.0 * placed.len() as f64 - 12.0;
    for (t, &p) in placed.iter().enumerate() {
        let y = top + 16.0 * t as f64;
        let _ = writeln!(
            s,
            r#"<circle cx="30" cy="{:.1}" r="5" fill="{}"/>"#,
            y - 4.0,
            COLORS[t % COLORS.len()]
        );
        let _ = writeln!(
            s,
            r#"<text x="42" y="{y:.1}">{} (turn {}): stack {}, share ${}</text>"#,
            player_letter(t),
            t + 1,
            p,
            escape(&shares[t])
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_shows_every_stack_token_and_share() {
        for clock in [false, true] {
            let b = Board::dollars(10, 3, clock).unwrap();
            let svg = board_svg(&b, &[3, 8, 5], "t");
            // Ten stacks (an outline each), three tokens, three legend marks.
            assert_eq!(svg.matches(r#"fill="none" stroke="black""#).count(), 10);
            assert_eq!(svg.matches("<circle").count(), 6);
            for v in 1..=10 {
                assert!(svg.contains(&format!(">${v}</text>")), "{svg}");
            }
            let shares: Vec<String> = b
                .payoffs(&[3, 8, 5])
                .iter()
                .map(|&v| b.real(v).to_string())
                .collect();
            for (t, share) in shares.iter().enumerate() {
                assert!(svg.contains(&format!("stack {}, share ${share}<", [3, 8, 5][t])));
            }
            lastbite_tikz_ok(&svg);
        }
    }

    fn lastbite_tikz_ok(svg: &str) {
        crate::tikz::from_svg(svg).unwrap();
    }
}
