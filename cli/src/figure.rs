//! Writing figures: SVG as the library renders it, PNG rasterised with resvg (the `png`
//! feature), TikZ by the library's one translation ([`lastbite::tikz`]).

use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context};

/// Where a picture goes: the `--svg`, `--png`, `--tikz` and `--tikz-standalone` flags
/// every picture command shares.
#[derive(clap::Args, Debug)]
pub struct PictureOut {
    /// Write the picture as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the picture as PNG.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write the picture as a TikZ picture (for \input; needs \usepackage{tikz}).
    #[arg(long, value_name = "FILE")]
    pub tikz: Option<PathBuf>,
    /// Write the picture as a LaTeX document (TikZ) that pdflatex compiles on its own.
    #[arg(long, value_name = "FILE")]
    pub tikz_standalone: Option<PathBuf>,
}

impl PictureOut {
    /// Whether a file was asked for.
    pub fn requested(&self) -> bool {
        self.svg.is_some()
            || self.png.is_some()
            || self.tikz.is_some()
            || self.tikz_standalone.is_some()
    }

    /// A picture command prints nothing but its picture without `--json`: refuse to run
    /// for nothing.
    pub fn check(&self, json: bool) -> anyhow::Result<()> {
        if !json && !self.requested() {
            bail!("give --svg, --png, --tikz or --tikz-standalone FILE for the picture (or --json for the data)");
        }
        Ok(())
    }

    /// Writes the picture, when one was drawn, to the requested files.
    pub fn write_opt(&self, svg: Option<&str>) -> anyhow::Result<()> {
        let Some(svg) = svg else { return Ok(()) };
        if let Some(p) = &self.svg {
            fs::write(p, svg).with_context(|| format!("cannot write {}", p.display()))?;
        }
        if let Some(p) = &self.png {
            fs::write(p, png(svg)?).with_context(|| format!("cannot write {}", p.display()))?;
        }
        if self.tikz.is_some() || self.tikz_standalone.is_some() {
            let tikz = lastbite::tikz::from_svg(svg)?;
            if let Some(p) = &self.tikz {
                fs::write(p, &tikz).with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &self.tikz_standalone {
                fs::write(p, lastbite::tikz::standalone(&tikz))
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
        }
        Ok(())
    }
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
