//! Plots of the fill distribution: the probability of each fill level, and its log10 with the
//! fitted tail extrapolated to a full board, as SVG and PNG.
//!
//! The PNG text is drawn with an embedded DejaVu Sans Mono (`assets/fonts`, Bitstream Vera
//! licence), so plots need no system font libraries.

use super::sim::Report;
use super::stats::polyval;
use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

const SIZE: (u32, u32) = (900, 600);

/// The font every plot's text uses.
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono.ttf");

fn register_font() -> anyhow::Result<()> {
    static REGISTER: Once = Once::new();
    let mut result = Ok(());
    REGISTER.call_once(|| {
        result = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| anyhow!("plot: the embedded font does not load"));
    });
    result
}

/// Writes fill.svg, fill.png, log10.svg and log10.png into `dir`.
pub fn fill_plots(report: &Report, dir: &Path) -> anyhow::Result<()> {
    register_font()?;
    let err = |e: String| anyhow!("plot: {e}");
    let svg = dir.join("fill.svg");
    fill_chart(&SVGBackend::new(&svg, SIZE).into_drawing_area(), report).map_err(err)?;
    let png = dir.join("fill.png");
    fill_chart(&BitMapBackend::new(&png, SIZE).into_drawing_area(), report).map_err(err)?;
    let svg = dir.join("log10.svg");
    log_chart(&SVGBackend::new(&svg, SIZE).into_drawing_area(), report).map_err(err)?;
    let png = dir.join("log10.png");
    log_chart(&BitMapBackend::new(&png, SIZE).into_drawing_area(), report).map_err(err)?;
    Ok(())
}

fn fill_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let p = report.stats.fill_probability();
    let top = p.iter().copied().fold(0.0, f64::max).max(1e-6) * 1.1;
    let last = last_nonzero(&report.stats.fill).max(20) as f64 + 2.0;
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(
            format!(
                "{}: jewels on the board after a placement (mean {:.3}, max {})",
                report.ai, report.mean_jewels, report.max_jewels
            ),
            (FONT, 20),
        )
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..last, 0f64..top)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("jewels")
        .y_desc("probability")
        .label_style((FONT, 14))
        .draw()
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(
            p.iter().enumerate().map(|(j, &v)| (j as f64, v)),
            BLUE.stroke_width(2),
        ))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

fn log_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let p = report.stats.fill_probability();
    let points: Vec<(f64, f64)> = p
        .iter()
        .enumerate()
        .filter(|(_, &v)| v > 0.0)
        .map(|(j, &v)| (j as f64, v.log10()))
        .collect();
    let fit: Vec<(f64, f64)> = report.tail_fit.as_ref().map_or(Vec::new(), |f| {
        (f.from..=78)
            .map(|x| (x as f64, polyval(&f.coefficients, x as f64)))
            .collect()
    });
    let bottom = points
        .iter()
        .chain(&fit)
        .map(|&(_, y)| y)
        .fold(-1.0, f64::min)
        .max(-40.0)
        .floor()
        - 1.0;
    let caption = match &report.tail_fit {
        Some(f) => format!(
            "{}: log10 probability; tail fit: 1/p at 54 = {:.2e}, at 78 = {:.2e}",
            report.ai, f.expected_columns_54, f.expected_columns_78
        ),
        None => format!("{}: log10 probability", report.ai),
    };
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(caption, (FONT, 18))
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..80f64, bottom..0.5f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("jewels")
        .y_desc("log10 probability")
        .label_style((FONT, 14))
        .draw()
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(points, BLUE.stroke_width(2)))
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(fit, RED.stroke_width(1)))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

fn last_nonzero(values: &[u64]) -> usize {
    values.iter().rposition(|&n| n > 0).unwrap_or(0)
}
