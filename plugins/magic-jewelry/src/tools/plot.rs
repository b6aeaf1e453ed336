//! Plots of the fill distribution: the probability of each fill level, and its log10 with the
//! fitted tail extrapolated to a full board, as SVG (with text) and PNG.
//!
//! The PNG plots carry no text: drawing text into a bitmap needs a font file, and the crate
//! avoids system font libraries. Their grid has a line every 10 jewels and every 0.02 of
//! probability (every decade on the log plot), as on the SVG.

use super::sim::Report;
use super::stats::polyval;
use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

const SIZE: (u32, u32) = (900, 600);

/// Writes fill.svg, fill.png, log10.svg and log10.png into `dir`.
pub fn fill_plots(report: &Report, dir: &Path) -> anyhow::Result<()> {
    let err = |e: String| anyhow!("plot: {e}");
    let svg = dir.join("fill.svg");
    fill_chart(
        &SVGBackend::new(&svg, SIZE).into_drawing_area(),
        report,
        true,
    )
    .map_err(err)?;
    let png = dir.join("fill.png");
    fill_chart(
        &BitMapBackend::new(&png, SIZE).into_drawing_area(),
        report,
        false,
    )
    .map_err(err)?;
    let svg = dir.join("log10.svg");
    log_chart(
        &SVGBackend::new(&svg, SIZE).into_drawing_area(),
        report,
        true,
    )
    .map_err(err)?;
    let png = dir.join("log10.png");
    log_chart(
        &BitMapBackend::new(&png, SIZE).into_drawing_area(),
        report,
        false,
    )
    .map_err(err)?;
    Ok(())
}

fn fill_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
    text: bool,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let p = report.stats.fill_probability();
    let top = p.iter().cloned().fold(0.0, f64::max).max(1e-6) * 1.1;
    let last = last_nonzero(&report.stats.fill).max(20) as f64 + 2.0;
    let mut builder = ChartBuilder::on(root);
    builder.margin(20);
    if text {
        builder
            .caption(
                format!(
                    "{}: jewels on the board after a placement (mean {:.3}, max {})",
                    report.ai, report.mean_jewels, report.max_jewels
                ),
                ("sans-serif", 20),
            )
            .x_label_area_size(40)
            .y_label_area_size(60);
    }
    let mut chart = builder
        .build_cartesian_2d(0f64..last, 0f64..top)
        .map_err(e)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("jewels")
            .y_desc("probability")
            .draw()
            .map_err(e)?;
    } else {
        grid(&mut chart, last, 0.0, top, 10.0, 0.02).map_err(e)?;
    }
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
    text: bool,
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
    let mut builder = ChartBuilder::on(root);
    builder.margin(20);
    if text {
        let caption = match &report.tail_fit {
            Some(f) => format!(
                "log10 probability; quadratic tail fit: 1/p at 54 = {:.2e}, at 78 = {:.2e}",
                f.expected_columns_54, f.expected_columns_78
            ),
            None => "log10 probability".to_string(),
        };
        builder
            .caption(caption, ("sans-serif", 18))
            .x_label_area_size(40)
            .y_label_area_size(50);
    }
    let mut chart = builder
        .build_cartesian_2d(0f64..80f64, bottom..0.5f64)
        .map_err(e)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("jewels")
            .y_desc("log10 probability")
            .draw()
            .map_err(e)?;
    } else {
        grid(&mut chart, 80.0, bottom, 0.5, 10.0, 1.0).map_err(e)?;
    }
    chart
        .draw_series(LineSeries::new(points, BLUE.stroke_width(2)))
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(fit, RED.stroke_width(1)))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Grid lines without labels (for the text-free PNG).
fn grid<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    right: f64,
    bottom: f64,
    top: f64,
    x_step: f64,
    y_step: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = BLACK.mix(0.15);
    let mut x = 0.0;
    while x <= right {
        chart.draw_series(LineSeries::new([(x, bottom), (x, top)], style))?;
        x += x_step;
    }
    let mut y = (bottom / y_step).ceil() * y_step;
    while y <= top {
        chart.draw_series(LineSeries::new([(0.0, y), (right, y)], style))?;
        y += y_step;
    }
    Ok(())
}

fn last_nonzero(values: &[u64]) -> usize {
    values.iter().rposition(|&n| n > 0).unwrap_or(0)
}
