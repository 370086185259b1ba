//! Writing figures: SVG as the library renders it, PNG rasterised with resvg.

use std::fs;
use std::path::Path;

use anyhow::{bail, Context};

/// Writes `svg` to the requested files (at least one is required).
pub fn write(svg: &str, svg_path: Option<&Path>, png_path: Option<&Path>) -> anyhow::Result<()> {
    if svg_path.is_none() && png_path.is_none() {
        bail!("give --svg FILE and/or --png FILE for the picture");
    }
    if let Some(p) = svg_path {
        fs::write(p, svg).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(p) = png_path {
        fs::write(p, png(svg)?).with_context(|| format!("cannot write {}", p.display()))?;
    }
    Ok(())
}

/// Rasterises an SVG document at twice its size, with the system's fonts.
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
