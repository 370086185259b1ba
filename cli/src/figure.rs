//! Writing figures: SVG as the library renders it, PNG rasterised with resvg (the `png`
//! feature), TikZ by the library's one translation ([`lastbite::tikz`]).

use anyhow::{bail, Context};

/// Writes a picture in one form (`svg`, `png`, `tikz`, `tikz_standalone`) to `path`, or
/// to stdout for `-` (not PNG).
pub fn write(kind: &str, path: &std::path::Path, svg: &str) -> anyhow::Result<()> {
    let bytes = match kind {
        "svg" => svg.as_bytes().to_vec(),
        "png" => {
            if path.as_os_str() == "-" {
                bail!("--png needs a file (a PNG is not text for stdout)");
            }
            png(svg)?
        }
        "tikz" => lastbite::tikz::from_svg(svg)?.into_bytes(),
        _ => lastbite::tikz::standalone(&lastbite::tikz::from_svg(svg)?).into_bytes(),
    };
    if path.as_os_str() == "-" {
        return crate::out::to_stdout(|w| Ok(w.write_all(&bytes)?));
    }
    Ok(lastbite::files::write_bytes(path, &bytes)?)
}

/// Rasterises an SVG document at twice its size, with the system's fonts.
#[cfg(feature = "png")]
pub fn png(svg: &str) -> anyhow::Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &opt).context("internal SVG could not be parsed")?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width() * 2, size.height() * 2);
    let mut pixmap = tiny_skia::Pixmap::new(w, h).context("picture too large")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(2.0, 2.0),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().context("cannot encode PNG")
}

/// Without the `png` feature PNG output is refused.
#[cfg(not(feature = "png"))]
pub fn png(_svg: &str) -> anyhow::Result<Vec<u8>> {
    bail!("this lastbite was built without PNG output (the png feature); use --svg")
}
