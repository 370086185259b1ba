//! Every picture lastbite draws, as TikZ: one translation of the SVG the library writes
//! (charts, heat maps, crossout boards, game trees), so the TikZ shows exactly what the
//! SVG shows, at the same coordinates (one SVG pixel is 0.75 pt, the CSS ratio).
//!
//! The SVG is lastbite's own, a small vocabulary: `rect`, `line`, `polyline`, `polygon`,
//! `circle` and `text` with the attributes its writers use. Anything else is refused
//! with its name rather than dropped, so a picture that starts drawing something new
//! fails its test instead of losing it quietly in TikZ.

use std::collections::BTreeMap;
use std::fmt::Write;

/// Why a picture could not be translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TikzError {
    /// An element or attribute outside the vocabulary.
    #[error("the picture uses SVG {0}, which the TikZ writer does not translate")]
    Unsupported(String),
    /// Text that is not well-formed SVG.
    #[error("the picture is not well-formed SVG near byte {0}")]
    Malformed(usize),
}

/// One element: its name, attributes and text content.
struct Element<'a> {
    name: &'a str,
    attrs: Vec<(&'a str, String)>,
    body: String,
}

impl Element<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
    fn num(&self, key: &str) -> Result<f64, TikzError> {
        self.get(key)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .ok_or_else(|| TikzError::Unsupported(format!("{} without a numeric {key}", self.name)))
    }
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The elements of the document, in order (the root `svg` first).
fn parse(svg: &str) -> Result<Vec<Element<'_>>, TikzError> {
    let mut out = Vec::new();
    let mut i = 0;
    let bytes = svg.as_bytes();
    while let Some(rel) = svg[i..].find('<') {
        let start = i + rel;
        if svg[start..].starts_with("</") {
            i = svg[start..]
                .find('>')
                .map(|e| start + e + 1)
                .ok_or(TikzError::Malformed(start))?;
            continue;
        }
        if svg[start..].starts_with("<?") || svg[start..].starts_with("<!") {
            i = svg[start..]
                .find('>')
                .map(|e| start + e + 1)
                .ok_or(TikzError::Malformed(start))?;
            continue;
        }
        let mut j = start + 1;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-') {
            j += 1;
        }
        let name = &svg[start + 1..j];
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            if j >= bytes.len() {
                return Err(TikzError::Malformed(start));
            }
            if svg[j..].starts_with("/>") {
                j += 2;
                out.push(Element {
                    name,
                    attrs,
                    body: String::new(),
                });
                break;
            }
            if bytes[j] == b'>' {
                j += 1;
                // Only text has content; the root's children follow as elements.
                let mut body = String::new();
                if name == "text" {
                    let end = svg[j..]
                        .find("</text>")
                        .ok_or(TikzError::Malformed(start))?;
                    body = unescape(&svg[j..j + end]);
                    j += end + "</text>".len();
                }
                out.push(Element { name, attrs, body });
                break;
            }
            let k0 = j;
            while j < bytes.len() && bytes[j] != b'=' && !bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let key = &svg[k0..j];
            if !svg[j..].starts_with("=\"") {
                return Err(TikzError::Malformed(j));
            }
            let v0 = j + 2;
            let v1 = svg[v0..]
                .find('"')
                .map(|e| v0 + e)
                .ok_or(TikzError::Malformed(v0))?;
            attrs.push((key, unescape(&svg[v0..v1])));
            j = v1 + 1;
        }
        i = j;
    }
    Ok(out)
}

/// Colours by name, defined once at the top of the picture.
#[derive(Default)]
struct Colors(BTreeMap<String, String>);

impl Colors {
    /// The TikZ colour name of an SVG colour (`None` for `none`).
    fn name(&mut self, css: &str) -> Result<Option<String>, TikzError> {
        let css = css.trim();
        let hex = match css {
            "none" => return Ok(None),
            "white" => "FFFFFF".to_string(),
            "black" => "000000".to_string(),
            c if c.starts_with('#') && c.len() == 7 => c[1..].to_ascii_uppercase(),
            c if c.starts_with('#') && c.len() == 4 => c[1..]
                .chars()
                .flat_map(|ch| [ch, ch])
                .collect::<String>()
                .to_ascii_uppercase(),
            c if c.starts_with("rgb(") && c.ends_with(')') => {
                let parts: Vec<u8> = c[4..c.len() - 1]
                    .split(',')
                    .filter_map(|p| p.trim().parse().ok())
                    .collect();
                if parts.len() != 3 {
                    return Err(TikzError::Unsupported(format!("colour {c}")));
                }
                format!("{:02X}{:02X}{:02X}", parts[0], parts[1], parts[2])
            }
            c => return Err(TikzError::Unsupported(format!("colour {c}"))),
        };
        if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(TikzError::Unsupported(format!("colour {css}")));
        }
        let n = self.0.len();
        Ok(Some(
            self.0
                .entry(hex)
                .or_insert_with(|| format!("lb{n}"))
                .clone(),
        ))
    }
}

/// A coordinate as TikZ reads it: at most two decimals, no trailing zeros.
fn c(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// Text for a TikZ node: LaTeX specials escaped, the typography the pictures use
/// (dashes, minus, Greek letters, relations) as LaTeX writes it, and other characters
/// beyond Latin-1, which pdflatex's default fonts lack, as `?`.
fn text(s: &str) -> String {
    const GREEK: &str = "αβγδεζηθικλμνξοπρστυφχψω";
    const NAMES: [&str; 24] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "o", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi",
        "psi", "omega",
    ];
    let mut out = String::with_capacity(s.len());
    for ch in crate::latex::escape(s).chars() {
        match ch {
            '\u{2013}' => out.push_str("--"),
            '\u{2014}' => out.push_str("---"),
            '\u{2212}' => out.push_str("$-$"),
            '\u{2264}' => out.push_str(r"$\leq$"),
            '\u{2265}' => out.push_str(r"$\geq$"),
            '\u{2192}' => out.push_str(r"$\to$"),
            '\u{2026}' => out.push_str(r"\ldots{}"),
            c if GREEK.contains(c) => {
                let i = GREEK.chars().position(|g| g == c).expect("a Greek letter");
                let _ = write!(out, r"$\{}$", NAMES[i]);
            }
            c if (c as u32) < 0x100 => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

const KNOWN: [&str; 20] = [
    "x",
    "y",
    "width",
    "height",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "fill-opacity",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "points",
    "text-anchor",
    "font-size",
    "transform",
];

/// The drawing options of a shape: stroke, fill, width, dashes, opacity.
fn paint(e: &Element, colors: &mut Colors, fill_default: bool) -> Result<String, TikzError> {
    let mut opts = Vec::new();
    let fill = match e.get("fill") {
        Some(f) => colors.name(f)?,
        None if fill_default => colors.name("black")?,
        None => None,
    };
    if let Some(f) = fill {
        opts.push(format!("fill={f}"));
    }
    if let Some(s) = e
        .get("stroke")
        .map(|s| colors.name(s))
        .transpose()?
        .flatten()
    {
        opts.push(format!("draw={s}"));
        let w = e
            .get("stroke-width")
            .map_or(Ok(1.0), |_| e.num("stroke-width"))?;
        opts.push(format!("line width={}pt", c(w * 0.75)));
        if let Some(d) = e.get("stroke-dasharray") {
            let parts: Vec<f64> = d.split(',').filter_map(|p| p.trim().parse().ok()).collect();
            if parts.len() != 2 {
                return Err(TikzError::Unsupported(format!("dash pattern {d}")));
            }
            opts.push(format!(
                "dash pattern=on {}pt off {}pt",
                c(parts[0] * 0.75),
                c(parts[1] * 0.75)
            ));
        }
    }
    if e.get("fill-opacity").is_some() {
        opts.push(format!("fill opacity={}", c(e.num("fill-opacity")?)));
    }
    Ok(opts.join(", "))
}

fn points(e: &Element) -> Result<Vec<String>, TikzError> {
    e.get("points")
        .unwrap_or("")
        .split_whitespace()
        .map(|p| {
            let (x, y) = p
                .split_once(',')
                .ok_or_else(|| TikzError::Unsupported(format!("point {p}")))?;
            let num = |v: &str| {
                v.parse::<f64>()
                    .map_err(|_| TikzError::Unsupported(format!("point {p}")))
            };
            Ok(format!("({},{})", c(num(x)?), c(num(y)?)))
        })
        .collect()
}

/// Translates an SVG picture of lastbite's into a `tikzpicture` (needs only the `tikz`
/// package), ready for `\input`.
///
/// ```
/// let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" font-size="12">
/// <line x1="0" y1="0" x2="100" y2="50" stroke="black"/>
/// <text x="50" y="20" text-anchor="middle">A &amp; B</text>
/// </svg>"#;
/// let tikz = lastbite::tikz::from_svg(svg).unwrap();
/// assert!(tikz.contains(r"(0,0) -- (100,50)"));
/// assert!(tikz.contains(r"{A \& B}"));
/// ```
pub fn from_svg(svg: &str) -> Result<String, TikzError> {
    let elements = parse(svg)?;
    let root = elements
        .first()
        .filter(|e| e.name == "svg")
        .ok_or(TikzError::Malformed(0))?;
    let (w, h) = (root.num("width")?, root.num("height")?);
    let base_font = root
        .get("font-size")
        .map_or(Ok(12.0), |_| root.num("font-size"))?;
    let mut colors = Colors::default();
    let mut body = String::new();
    for e in &elements[1..] {
        for (k, _) in &e.attrs {
            if !KNOWN.contains(k) && !matches!(*k, "font-weight" | "xmlns") {
                return Err(TikzError::Unsupported(format!(
                    "attribute {k} on {}",
                    e.name
                )));
            }
        }
        match e.name {
            "rect" => {
                if e.get("width") == Some("100%") {
                    // The background: the picture's bounding box below.
                    continue;
                }
                let (x, y) = (e.num("x")?, e.num("y")?);
                let (rw, rh) = (e.num("width")?, e.num("height")?);
                let opts = paint(e, &mut colors, true)?;
                let _ = writeln!(
                    body,
                    r"\path[{opts}] ({},{}) rectangle ({},{});",
                    c(x),
                    c(y),
                    c(x + rw),
                    c(y + rh)
                );
            }
            "line" => {
                let opts = paint(e, &mut colors, false)?;
                let _ = writeln!(
                    body,
                    r"\path[{opts}] ({},{}) -- ({},{});",
                    c(e.num("x1")?),
                    c(e.num("y1")?),
                    c(e.num("x2")?),
                    c(e.num("y2")?)
                );
            }
            "polyline" | "polygon" => {
                let opts = paint(e, &mut colors, e.name == "polygon")?;
                let pts = points(e)?;
                let close = if e.name == "polygon" { " -- cycle" } else { "" };
                let _ = writeln!(body, r"\path[{opts}] {}{close};", pts.join(" -- "));
            }
            "circle" => {
                let opts = paint(e, &mut colors, true)?;
                let _ = writeln!(
                    body,
                    r"\path[{opts}] ({},{}) circle[radius={}];",
                    c(e.num("cx")?),
                    c(e.num("cy")?),
                    c(e.num("r")?)
                );
            }
            "text" => {
                let (mut x, mut y) = (e.num("x")?, e.num("y")?);
                let mut opts = vec![
                    match e.get("text-anchor").unwrap_or("start") {
                        "middle" => "anchor=base".to_string(),
                        "end" => "anchor=base east".to_string(),
                        "start" => "anchor=base west".to_string(),
                        a => return Err(TikzError::Unsupported(format!("text-anchor {a}"))),
                    },
                    "inner sep=0pt".into(),
                ];
                let size = e
                    .get("font-size")
                    .map_or(Ok(base_font), |_| e.num("font-size"))?;
                let bold = if e.get("font-weight") == Some("bold") {
                    r"\bfseries"
                } else {
                    ""
                };
                opts.push(format!(
                    r"font=\sffamily{bold}\fontsize{{{}}}{{{}}}\selectfont",
                    c(size * 0.75),
                    c(size * 0.9)
                ));
                if let Some(f) = e.get("fill").map(|f| colors.name(f)).transpose()?.flatten() {
                    opts.push(format!("text={f}"));
                }
                if let Some(t) = e.get("transform") {
                    let inner = t
                        .strip_prefix("rotate(")
                        .and_then(|r| r.strip_suffix(')'))
                        .ok_or_else(|| TikzError::Unsupported(format!("transform {t}")))?;
                    let v: Vec<f64> = inner
                        .split([' ', ','])
                        .filter(|p| !p.is_empty())
                        .map(|p| p.parse::<f64>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| TikzError::Unsupported(format!("transform {t}")))?;
                    let (a, cx, cy) = match v.as_slice() {
                        [a] => (*a, 0.0, 0.0),
                        [a, cx, cy] => (*a, *cx, *cy),
                        _ => return Err(TikzError::Unsupported(format!("transform {t}"))),
                    };
                    // SVG turns clockwise on screen for positive angles; with TikZ's y
                    // axis flipped here, the node turns the other way.
                    let (s, co) = a.to_radians().sin_cos();
                    let (dx, dy) = (x - cx, y - cy);
                    (x, y) = (cx + dx * co - dy * s, cy + dx * s + dy * co);
                    opts.push(format!("rotate={}", c(-a)));
                }
                let _ = writeln!(
                    body,
                    r"\node[{}] at ({},{}) {{{}}};",
                    opts.join(", "),
                    c(x),
                    c(y),
                    text(&e.body)
                );
            }
            other => return Err(TikzError::Unsupported(format!("element <{other}>"))),
        }
    }
    let mut out = String::with_capacity(body.len() + 600);
    let _ = writeln!(
        out,
        "% Drawn by lastbite: {} x {} px at 0.75 pt a pixel; needs \\usepackage{{tikz}}.",
        c(w),
        c(h)
    );
    out.push_str("\\begin{tikzpicture}[x=0.75pt, y=-0.75pt]\n");
    for (hex, name) in &colors.0 {
        let _ = writeln!(out, "\\definecolor{{{name}}}{{HTML}}{{{hex}}}");
    }
    let _ = writeln!(
        out,
        r"\path[use as bounding box] (0,0) rectangle ({},{});",
        c(w),
        c(h)
    );
    out.push_str(&body);
    out.push_str("\\end{tikzpicture}\n");
    Ok(out)
}

/// A TikZ picture wrapped in a document pdflatex compiles on its own, cropped to the
/// picture (the `standalone` class). The default font encoding keeps to the scalable
/// Computer Modern every TeX installation has (T1's sans serif would be rendered as
/// bitmaps where cm-super is missing).
pub fn standalone(tikz: &str) -> String {
    format!(
        "\\documentclass[border=4pt]{{standalone}}\n\\usepackage[utf8]{{inputenc}}\n\\usepackage{{tikz}}\n\\begin{{document}}\n{tikz}\\end{{document}}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_every_element() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" font-family="DejaVu Sans" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<rect x="1" y="2" width="3" height="4" fill="rgb(255,0,0)" stroke="black"/>
<line x1="0" y1="0" x2="10" y2="10" stroke="#eee" stroke-width="2" stroke-dasharray="5,3"/>
<polyline points="0,0 1,1 2,0" fill="none" stroke="#1f77b4"/>
<polygon points="0,0 1,1 2,0" fill="#123456" fill-opacity="0.35" stroke="black"/>
<circle cx="5" cy="6" r="3" fill="#333"/>
<text x="18" y="50" text-anchor="middle" transform="rotate(-90 18 50)">b &lt;Bob&gt; 50%</text>
<text x="1" y="2" font-weight="bold" fill="white">δ_1</text>
</svg>"##;
        let t = from_svg(svg).unwrap();
        assert!(t.contains(r"\definecolor{lb0}{HTML}{FF0000}"), "{t}");
        assert!(t.contains("dash pattern=on 3.75pt off 2.25pt"));
        assert!(t.contains("(0,0) -- (1,1) -- (2,0) -- cycle"));
        assert!(t.contains("circle[radius=3]"));
        assert!(t.contains(r"{b \textless{}Bob\textgreater{} 50\%}"));
        assert!(t.contains("rotate=90"));
        assert!(t.contains(r"{$\delta$\_1}"));
        assert_eq!(t.matches(r"\path[").count(), 6);
        assert_eq!(t.matches(r"\node[").count(), 2);
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        let wrap = |inner: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{inner}</svg>"#
            )
        };
        assert!(matches!(
            from_svg(&wrap(r#"<path d="M0 0"/>"#)),
            Err(TikzError::Unsupported(_))
        ));
        assert!(matches!(
            from_svg(&wrap(r#"<circle cx="1" cy="1" r="1" filter="x"/>"#)),
            Err(TikzError::Unsupported(_))
        ));
        assert!(matches!(
            from_svg(&wrap(r#"<circle cx="1" cy="1" r="1" fill="red"/>"#)),
            Err(TikzError::Unsupported(_))
        ));
        assert!(from_svg("<svg width=").is_err());
        assert!(from_svg("no svg").is_err());
    }

    #[test]
    fn a_hostile_label_stays_text() {
        let svg = r#"<svg width="10" height="10"><text x="0" y="0">\input{/etc/passwd} }$ &amp; #</text></svg>"#;
        let t = from_svg(svg).unwrap();
        assert!(
            t.contains(r"\textbackslash{}input\{/etc/passwd\} \}\$ \& \#"),
            "{t}"
        );
    }
}
