//! Plots of a simulation, as SVG and PNG, each with a title and a legend: the probability of
//! each fill level, its log10 with the fitted tail extrapolated to a full board, and the share
//! of columns that fell at each speed.
//!
//! The PNG text is drawn with an embedded DejaVu Sans Mono (`assets/fonts` at the top of the repository, Bitstream Vera
//! licence), so plots need no system font libraries.

use super::report::Report;
use crate::outputs::write_whole;
use crate::stats::polyval;
use anyhow::anyhow;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;
use std::path::Path;
use std::sync::Once;

const SIZE: (u32, u32) = (900, 600);

/// The font every plot's text uses.
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../../../../assets/fonts/DejaVuSansMono.ttf");

fn register_font() -> anyhow::Result<()> {
    static REGISTER: Once = Once::new();
    let mut result = Ok(());
    REGISTER.call_once(|| {
        result = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| anyhow!("plot: the embedded font does not load"));
    });
    result
}

/// Writes fill, log10 and speeds, each as .svg and .png, into `dir`.
pub fn fill_plots(report: &Report, dir: &Path) -> anyhow::Result<()> {
    register_font()?;
    let err = |e: String| anyhow!("plot: {e}");
    // Each chart is drawn by one function generic over the backend, once for each format.
    macro_rules! svg_and_png {
        ($chart:ident, $name:literal) => {
            write_whole(&dir.join(concat!($name, ".svg")), |partial| {
                $chart(&SVGBackend::new(partial, SIZE).into_drawing_area(), report).map_err(err)
            })?;
            let png = png_of(|area| $chart(area, report)).map_err(err)?;
            write_whole(&dir.join(concat!($name, ".png")), |partial| {
                std::fs::write(partial, &png).map_err(|e| err(e.to_string()))
            })?;
        };
    }
    svg_and_png!(fill_chart, "fill");
    svg_and_png!(log_chart, "log10");
    svg_and_png!(speed_chart, "speeds");
    Ok(())
}

/// A chart drawn into memory and encoded as PNG (the `png` crate, not an image library's
/// encoder: the host's reports draw theirs the same way).
fn png_of(
    chart: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let (width, height) = SIZE;
    let mut rgb = vec![0u8; (width * height * 3) as usize];
    {
        let area = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        chart(&area)?;
        area.present().map_err(|e| e.to_string())?;
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&rgb))
        .map_err(|e| e.to_string())?;
    Ok(png)
}

/// Who played under which rules, for the titles.
fn who(report: &Report) -> String {
    format!("{} ({} rules)", report.ai, report.rules)
}

/// A short line in the legend, in `colour`.
fn legend_line(colour: RGBColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
}

/// A chart with numbers on both axes.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The legend box, upper right.
fn draw_legend<'a, DB: DrawingBackend + 'a>(chart: &mut Chart<'a, DB>) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 14))
        .draw()
        .map_err(|e| e.to_string())
}

/// Plotters' drawing errors as text (taken by value, as `map_err` hands them over).
#[allow(clippy::needless_pass_by_value)]
fn text<E: std::error::Error + Send + Sync>(error: DrawingAreaErrorKind<E>) -> String {
    error.to_string()
}

/// A chart on a white `root`, with its caption and each axis's range and name.
fn axes<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    caption: String,
    (x, x_name): (Range<f64>, &str),
    (y, y_name): (Range<f64>, &str),
) -> Result<Chart<'a, DB>, String> {
    root.fill(&WHITE).map_err(text)?;
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(caption, (FONT, 18))
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)
        .map_err(text)?;
    chart
        .configure_mesh()
        .x_desc(x_name)
        .y_desc(y_name)
        .label_style((FONT, 14))
        .draw()
        .map_err(text)?;
    Ok(chart)
}

/// Draws the legend and writes the picture out.
fn finish<'a, DB: DrawingBackend + 'a>(
    mut chart: Chart<'a, DB>,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), String> {
    draw_legend(&mut chart)?;
    root.present().map_err(text)
}

/// The share of placements that left each number of jewels.
fn fill_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), String> {
    let p = report.stats.fill_probability();
    let top = p.iter().copied().fold(0.0, f64::max).max(1e-6) * 1.1;
    let last = last_nonzero(&report.stats.fill).max(20) as f64 + 2.0;
    let caption = format!(
        "{}: jewels on the board after a placement (mean {:.3}, max {})",
        who(report),
        report.mean_jewels,
        report.max_jewels
    );
    let mut chart = axes(
        root,
        caption,
        (0f64..last, "jewels"),
        (0f64..top, "probability"),
    )?;
    chart
        .draw_series(LineSeries::new(
            p.iter().enumerate().map(|(j, &v)| (j as f64, v)),
            BLUE.stroke_width(2),
        ))
        .map_err(text)?
        .label(format!("share of the {} placements", report.stats.columns))
        .legend(legend_line(BLUE));
    finish(chart, root)
}

/// The same on a log scale, with the fitted tail extrapolated to a full board.
fn log_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), String> {
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
            "{}: log10 probability; 1/p at 54 = {:.2e}, at 78 = {:.2e}",
            who(report),
            f.expected_columns_54,
            f.expected_columns_78
        ),
        None => format!("{}: log10 probability of each fill", who(report)),
    };
    let mut chart = axes(
        root,
        caption,
        (0f64..80f64, "jewels"),
        (bottom..0.5f64, "log10 probability"),
    )?;
    chart
        .draw_series(LineSeries::new(points, BLUE.stroke_width(2)))
        .map_err(text)?
        .label("measured")
        .legend(legend_line(BLUE));
    if !fit.is_empty() {
        chart
            .draw_series(LineSeries::new(fit, RED.stroke_width(1)))
            .map_err(text)?
            .label("quadratic fit of the tail, extrapolated")
            .legend(legend_line(RED));
    }
    finish(chart, root)
}

/// The share of columns that fell at each speed (frames a row).
fn speed_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), String> {
    let at_top = report
        .speeds
        .iter()
        .find(|s| s.frames_per_row == magic_jewelry_engine::TOP_FALL_SPEED)
        .map_or(0.0, |s| s.share);
    let caption = format!(
        "{}: columns at each fall speed ({:.1}% at 8 frames a row)",
        who(report),
        100.0 * at_top
    );
    let mut chart = axes(
        root,
        caption,
        (0f64..65f64, "frames a row"),
        (0f64..1.05f64, "share of columns"),
    )?;
    chart
        .draw_series(report.speeds.iter().map(|s| {
            let x = f64::from(s.frames_per_row);
            Rectangle::new([(x - 0.4, 0.0), (x + 0.4, s.share)], BLUE.filled())
        }))
        .map_err(text)?
        .label(format!("share of the {} columns", report.stats.columns))
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.filled()));
    finish(chart, root)
}

fn last_nonzero(values: &[u64]) -> usize {
    values.iter().rposition(|&n| n > 0).unwrap_or(0)
}
