//! The dashboard: the plug-ins' figures in a grid, and their charts of the last events as bars,
//! drawn with the window's own canvas.

use super::canvas::{Canvas, Color, Rect};
use super::layout::{figure_columns, line_height, Dock, CHARTS, FIGURE_COLUMNS};
use super::view::{ACCENT, DIM, HEADING, TEXT};
use crate::font::{self, GLYPH};
use jewelbot_plugin::{grouped, Chart, Figure, Story};

const BACKGROUND: Color = [22, 22, 30, 255];
const PLOT_BACKGROUND: Color = [12, 12, 18, 255];
const AXIS: Color = [70, 70, 90, 255];
/// One colour a chart, in turn.
const BARS: [Color; 3] = [
    [90, 170, 255, 255],
    [255, 170, 70, 255],
    [140, 220, 120, 255],
];

/// Draws every plug-in's figures and charts into `rect`.
pub fn draw(canvas: &mut Canvas, rect: Rect, t: usize, stories: &[(String, Story)], dock: Dock) {
    canvas.fill_rect(rect, BACKGROUND);
    let pad = (GLYPH * t) as i32;
    let lh = line_height(t) as i32;
    let inner = Rect::new(
        rect.x + pad,
        rect.y + pad / 2,
        rect.width - 2 * pad,
        rect.height - pad,
    );
    if inner.width <= 0 || inner.height < lh {
        return;
    }
    let figures: Vec<&Figure> = stories.iter().flat_map(|(_, s)| &s.figures).collect();
    let charts: Vec<&Chart> = stories.iter().flat_map(|(_, s)| &s.charts).collect();
    if figures.is_empty() && charts.is_empty() {
        canvas.text(inner.x, inner.y, "(no plug-in tells how it plays)", DIM, t);
        return;
    }
    let chars = (inner.width / pad) as usize;
    let columns = figure_columns(chars);
    let column_chars = (chars / columns).max(FIGURE_COLUMNS.min(chars));
    let label_chars = figures
        .iter()
        .map(|f| f.label.chars().count() + 1)
        .max()
        .unwrap_or(0)
        .min(column_chars / 2);
    let rows = figures.len().div_ceil(columns);
    for (i, figure) in figures.iter().enumerate() {
        let (row, column) = (i % rows, i / rows);
        let x = inner.x + (column * column_chars) as i32 * pad;
        let y = inner.y + row as i32 * lh;
        if y + lh > inner.bottom() {
            continue;
        }
        canvas.text(x, y, &font::fit(&figure.label, label_chars - 1), DIM, t);
        let value = font::fit(&figure.value, column_chars.saturating_sub(label_chars + 1));
        canvas.text(x + label_chars as i32 * pad, y, &value, TEXT, t);
    }
    let top = inner.y + rows as i32 * lh + lh / 2;
    let area = Rect::new(inner.x, top, inner.width, inner.bottom() - top);
    let shown = charts.len().min(CHARTS);
    if shown == 0 || area.height < 2 * lh {
        return;
    }
    for (i, chart) in charts.iter().take(shown).enumerate() {
        let i = i as i32;
        let n = shown as i32;
        let cell = match dock {
            Dock::Below => {
                let w = (area.width - (n - 1) * pad) / n;
                Rect::new(area.x + i * (w + pad), area.y, w, area.height)
            }
            Dock::Beside => {
                let h = (area.height - (n - 1) * lh / 2) / n;
                Rect::new(area.x, area.y + i * (h + lh / 2), area.width, h)
            }
        };
        draw_chart(canvas, cell, t, chart, BARS[i as usize % BARS.len()]);
    }
}

/// A chart's title with its latest and largest values over a plot of bars, one per event
/// (the largest of the events that share a pixel column, so no spike is lost).
fn draw_chart(canvas: &mut Canvas, cell: Rect, t: usize, chart: &Chart, bar: Color) {
    let lh = line_height(t) as i32;
    let chars = (cell.width / (GLYPH * t) as i32).max(0) as usize;
    let largest = chart.values.iter().copied().fold(0.0_f64, f64::max);
    let title = match chart.values.last() {
        Some(last) => format!(
            "{}: {}, max {}",
            chart.label,
            number(*last),
            number(largest)
        ),
        None => chart.label.clone(),
    };
    canvas.text(cell.x, cell.y, &font::fit(&title, chars), HEADING, t);
    let plot = Rect::new(cell.x, cell.y + lh, cell.width, cell.height - lh);
    if plot.width <= 2 || plot.height <= 2 {
        return;
    }
    canvas.fill_rect(plot, PLOT_BACKGROUND);
    canvas.outline(plot, 1, AXIS);
    let inside = Rect::new(plot.x + 1, plot.y + 1, plot.width - 2, plot.height - 2);
    let n = chart.values.len();
    if n == 0 || largest <= 0.0 {
        return;
    }
    // Bars fill the plot's width, at most as wide as it takes for every event to show.
    let bars = n.min(inside.width as usize);
    for b in 0..bars {
        let (from, to) = (b * n / bars, ((b + 1) * n / bars).max(b * n / bars + 1));
        let value = chart.values[from..to]
            .iter()
            .copied()
            .fold(0.0_f64, f64::max);
        let height = ((value / largest) * f64::from(inside.height)).round() as i32;
        let x0 = inside.x + (b as i32 * inside.width) / bars as i32;
        let x1 = inside.x + ((b as i32 + 1) * inside.width) / bars as i32;
        canvas.fill_rect(
            Rect::new(x0, inside.bottom() - height, (x1 - x0).max(1), height),
            bar,
        );
    }
    // The latest value's bar is marked, so the eye finds "now".
    let x = inside.right() - 1;
    canvas.fill_rect(Rect::new(x, inside.y, 1, inside.height), ACCENT);
}

/// A value as a chart's title shows it: whole numbers grouped, others to one decimal.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && (0.0..1e15).contains(&value) {
        grouped(value as u64)
    } else {
        format!("{value:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn story(values: Vec<f64>) -> Vec<(String, Story)> {
        vec![(
            "test".into(),
            Story {
                figures: vec![Figure::new("columns", "12")],
                charts: vec![Chart {
                    label: "fill".into(),
                    values,
                }],
            },
        )]
    }

    fn lit(canvas: &Canvas, colour: Color) -> usize {
        (0..canvas.height())
            .flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) == Some(colour))
            .count()
    }

    #[test]
    fn bars_grow_with_their_values() {
        let draw_with = |values| {
            let mut canvas = Canvas::new(400, 200);
            draw(
                &mut canvas,
                Rect::new(0, 0, 400, 200),
                1,
                &story(values),
                Dock::Below,
            );
            lit(&canvas, BARS[0])
        };
        let low = draw_with(vec![1.0, 1.0, 1.0, 4.0]);
        let high = draw_with(vec![4.0, 4.0, 4.0, 4.0]);
        let none = draw_with(vec![]);
        assert_eq!(none, 0);
        assert!(low > 0 && high > 2 * low, "{low} {high}");
    }

    #[test]
    fn a_spike_among_many_events_still_shows() {
        let mut values = vec![0.0; 3000];
        values[1234] = 10.0;
        let mut canvas = Canvas::new(300, 160);
        draw(
            &mut canvas,
            Rect::new(0, 0, 300, 160),
            1,
            &story(values),
            Dock::Below,
        );
        assert!(lit(&canvas, BARS[0]) > 0);
    }

    #[test]
    fn titles_read_their_numbers() {
        assert_eq!(number(1_234_567.0), "1,234,567");
        assert_eq!(number(21.0), "21");
        assert_eq!(number(2.26), "2.3");
    }
}
