//! `run --report DIR`: a run's summary as JSON and a plot of each of the plug-ins' series over
//! the whole run, as PNG, with the milestones (a counter's display rolling over, say) marked.
//! Each file replaces an older one only once it is whole.

use super::Summary;
use crate::files;
use anyhow::{anyhow, Context};
use jewelbot_plugin::{Milestone, Series};
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

const SIZE: (u32, u32) = (1200, 500);
/// The font every plot's text uses: DejaVu Sans Mono, embedded so that plots need no system
/// fonts (`assets/fonts`, Bitstream Vera licence).
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");

/// The files a report of `series` holds in `dir`: the summary, and a plot of each series.
pub fn files(dir: &Path, series: &[Series]) -> Vec<PathBuf> {
    std::iter::once(dir.join("summary.json"))
        .chain(series.iter().map(|s| plot_path(dir, s)))
        .collect()
}

fn plot_path(dir: &Path, series: &Series) -> PathBuf {
    dir.join(format!("{}.png", series.key))
}

/// Writes `summary.json` and `KEY.png` for every series into `dir` (made if missing); the
/// files written. A file there already is replaced only when `replace`.
pub fn write(
    dir: &Path,
    summary: &Summary,
    series: &[Series],
    milestones: &[Milestone],
    replace: bool,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let mut written = Vec::new();
    let json = dir.join("summary.json");
    files::write_file(
        &json,
        serde_json::to_string_pretty(summary)?.as_bytes(),
        replace,
    )?;
    written.push(json);
    register_font()?;
    for one in series.iter().filter(|s| !s.points.is_empty()) {
        let path = plot_path(dir, one);
        let png = plot(one, milestones)?;
        files::write_file(&path, &png, replace)?;
        written.push(path);
    }
    Ok(written)
}

fn register_font() -> anyhow::Result<()> {
    static REGISTER: Once = Once::new();
    let mut result = Ok(());
    REGISTER.call_once(|| {
        result = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| anyhow!("report: the embedded font does not load"));
    });
    result
}

/// One series over the run's frames as a PNG: a line (points thinned to one per pixel
/// column's worth, keeping each bucket's extremes), milestones as labelled vertical lines.
fn plot(series: &Series, milestones: &[Milestone]) -> anyhow::Result<Vec<u8>> {
    let (width, height) = SIZE;
    let mut rgb = vec![0u8; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        draw(&root, series, milestones).map_err(|e| anyhow!("report: {e}"))?;
        root.present().map_err(|e| anyhow!("report: {e}"))?;
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&rgb)?;
    Ok(png)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    series: &Series,
    milestones: &[Milestone],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let first = series.points.first().map_or(0, |p| p.0);
    let last = series.points.last().map_or(1, |p| p.0).max(first + 1);
    let top = series
        .points
        .iter()
        .map(|p| p.1)
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.05;
    let mut chart = ChartBuilder::on(root)
        .caption(&series.label, (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(first as f64..last as f64, 0.0..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("frame")
        .label_style((FONT, 14))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(
            thinned(&series.points, SIZE.0 as usize * 2),
            BLUE.stroke_width(1),
        ))
        .map_err(err)?;
    let red = RGBColor(200, 30, 30);
    for milestone in milestones {
        let x = milestone.frame as f64;
        chart
            .draw_series(LineSeries::new([(x, 0.0), (x, top)], red.stroke_width(2)))
            .map_err(err)?
            .label(format!("{} (frame {})", milestone.label, milestone.frame))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red.stroke_width(2)));
    }
    if !milestones.is_empty() {
        chart
            .configure_series_labels()
            .label_font((FONT, 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// At most `limit` points: consecutive runs of points share a bucket, which keeps its lowest
/// and highest, in order, so that spikes survive.
fn thinned(points: &[(u64, f64)], limit: usize) -> Vec<(f64, f64)> {
    if points.len() <= limit {
        return points.iter().map(|&(x, y)| (x as f64, y)).collect();
    }
    let per = points.len().div_ceil(limit / 2);
    points
        .chunks(per)
        .flat_map(|chunk| {
            let low = chunk.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
            let high = chunk.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
            let mut pair: Vec<(u64, f64)> = low.into_iter().chain(high).collect();
            pair.sort_by_key(|p| p.0);
            pair.into_iter().map(|(x, y)| (x as f64, y))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_extremes() {
        let points: Vec<(u64, f64)> = (0..10_000).map(|i| (i, (i % 100) as f64)).collect();
        let thin = thinned(&points, 400);
        assert!(thin.len() <= 400, "{}", thin.len());
        assert_eq!(thin.iter().map(|p| p.1).fold(0.0, f64::max), 99.0);
        assert!(thin.windows(2).all(|w| w[0].0 <= w[1].0));
    }
}
