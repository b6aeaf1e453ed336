//! Where each part of the window goes. Nothing is drawn over the game but the plug-ins' marks:
//! the status band (the plug-ins' lines, the input display, messages and the frontend's bar)
//! and the dashboard (the plug-ins' figures and charts) make a dock, below the picture or
//! beside it, and the RAM inspector takes a column on the right.
//!
//! For a window size the layout takes the largest whole-number scale of the picture at which
//! every part shown fits at its least size, trying text at twice the size first and the dock
//! in both places; what is left over goes to the charts, the inspector's hex view and the
//! inspector's width, so a bigger window shows more rather than stretching anything.

use super::canvas::Rect;
use super::view::{Aspect, Ui, PANEL_COLUMNS};
use crate::font::GLYPH;
use jewelbot_plugin::{SCREEN_HEIGHT, SCREEN_WIDTH};

/// The screen a window is fitted to when the monitor does not say its size.
pub const DEFAULT_SCREEN: (usize, usize) = (1280, 720);

/// Status lines of the plug-ins kept in the band below the picture; more are cut.
const STATUS_LINES_BELOW: usize = 6;
/// The same beside the picture, where lines are shorter and the dock as tall as the picture.
const STATUS_LINES_BESIDE: usize = 10;
/// Lines of the band besides the plug-ins' status: the passing message and the bar.
const BAND_FRAME_LINES: usize = 2;
/// Characters of the dock when it stands beside the picture, at least.
pub const DOCK_COLUMNS: usize = 44;
/// Characters of a column of the dashboard's figures.
pub const FIGURE_COLUMNS: usize = 34;
/// Lines of a chart's plot at least (its title line comes on top).
pub const CHART_LINES: usize = 5;
/// Figures the dashboard shows: the layout keeps room for this many.
pub const FIGURES: usize = 9;
/// Charts the dashboard shows side by side below the picture, one above the other beside it.
pub const CHARTS: usize = 2;
/// Rows of the hex view at least, with its three lines of heading.
const HEX_LINES: usize = 3 + 4;
/// Characters of an inspector line that shows a labelled address's description whole.
pub const INSPECTOR_WHOLE_COLUMNS: usize = 128;
/// Lines the inspector keeps for the full description of the selected address.
pub const DETAIL_LINES: usize = 3;

/// Where the dock goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dock {
    Below,
    Beside,
}

/// Where things go in a window of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub game: Rect,
    /// The status band, always there (its message and bar at least).
    pub band: Rect,
    pub dashboard: Option<Rect>,
    pub inspector: Option<Rect>,
    pub dock: Dock,
    /// Whole-number scale of text.
    pub text: usize,
    /// Whole-number vertical scale of the picture.
    pub scale: usize,
}

/// Height of a line of text at text scale `t`.
pub fn line_height(t: usize) -> usize {
    (GLYPH + 2) * t
}

/// Width of the picture at a vertical scale: 8:7 pixels are rounded to whole screen pixels.
pub fn game_width(scale: usize, aspect: Aspect) -> usize {
    match aspect {
        Aspect::Ntsc => (SCREEN_WIDTH * scale * 8 + 3) / 7,
        Aspect::Square => SCREEN_WIDTH * scale,
    }
}

/// Status lines of the plug-ins the band keeps with the dock at `dock`.
pub fn status_lines(dock: Dock) -> usize {
    match dock {
        Dock::Below => STATUS_LINES_BELOW,
        Dock::Beside => STATUS_LINES_BESIDE,
    }
}

/// Lines of the status band.
pub fn band_lines(ui: &Ui, dock: Dock) -> usize {
    let status = if ui.status { status_lines(dock) } else { 0 };
    BAND_FRAME_LINES + status + usize::from(ui.input)
}

/// Columns of figures the dashboard sets in `chars` characters.
pub fn figure_columns(chars: usize) -> usize {
    (chars / FIGURE_COLUMNS).clamp(1, FIGURES)
}

/// Lines of the dashboard at least, `chars` wide.
fn dashboard_lines(chars: usize, dock: Dock) -> usize {
    let figures = FIGURES.div_ceil(figure_columns(chars));
    let charts = match dock {
        Dock::Below => 1,
        Dock::Beside => CHARTS,
    };
    figures + 1 + charts * (1 + CHART_LINES)
}

/// Width of the inspector at least.
pub fn inspector_width(t: usize) -> usize {
    (PANEL_COLUMNS + 2) * GLYPH * t
}

/// Height of the inspector at least: a heading, its content, the selected address's
/// description and a few rows of the hex view.
fn inspector_height(ui: &Ui, t: usize) -> usize {
    (2 + ui.inspector_lines + DETAIL_LINES + HEX_LINES) * line_height(t)
}

/// The least window size for the picture at `scale`, text at `t` and the dock at `dock`.
fn least_size(ui: &Ui, scale: usize, t: usize, dock: Dock) -> (usize, usize) {
    let (gw, gh) = (game_width(scale, ui.aspect), SCREEN_HEIGHT * scale);
    let lh = line_height(t);
    let chars = |width: usize| width / (GLYPH * t);
    let (left_w, left_h) = match dock {
        Dock::Below => {
            let mut lines = band_lines(ui, dock);
            if ui.dashboard {
                lines += dashboard_lines(chars(gw), dock);
            }
            (gw, gh + lines * lh)
        }
        Dock::Beside => {
            let mut lines = band_lines(ui, dock);
            if ui.dashboard {
                lines += dashboard_lines(DOCK_COLUMNS, dock);
            }
            (gw + (DOCK_COLUMNS + 2) * GLYPH * t, gh.max(lines * lh))
        }
    };
    if ui.inspector {
        (
            left_w + inspector_width(t),
            left_h.max(inspector_height(ui, t)),
        )
    } else {
        (left_w, left_h)
    }
}

/// The largest picture scale, at most `most`, with the text scale and dock that give it, whose
/// least window fits `size`; `None` when not even scale 1 does.
fn best_fit(ui: &Ui, size: (usize, usize), most: usize) -> Option<(usize, usize, Dock)> {
    let mut best: Option<(usize, usize, Dock)> = None;
    for t in [2, 1] {
        for dock in [Dock::Below, Dock::Beside] {
            let fits = |s: usize| {
                let (w, h) = least_size(ui, s, t, dock);
                w <= size.0 && h <= size.1
            };
            if let Some(scale) = (1..=most.max(1)).rev().find(|&s| fits(s)) {
                // A larger picture first; at the same scale, larger text; then the dock below.
                if best.is_none_or(|(s, bt, _)| scale > s || (scale == s && t > bt)) {
                    best = Some((scale, t, dock));
                }
            }
        }
    }
    best
}

/// [`best_fit`], or when not even scale 1 fits, the same with an inspector cut short (its
/// hex view and last lines hidden) rather than none.
fn fit_or_squeeze(ui: &Ui, size: (usize, usize), most: usize) -> Option<(usize, usize, Dock)> {
    best_fit(ui, size, most).or_else(|| {
        let squeezed = Ui {
            inspector_lines: 0,
            ..ui.clone()
        };
        best_fit(&squeezed, size, most)
    })
}

/// The window size to open on a screen of `screen` pixels: the picture at the largest scale
/// that fits (at most `most`) with every part shown, the inspector as wide as the screen lets
/// it be (up to its whole lines) and the dashboard below the picture as tall.
pub fn window_size(ui: &Ui, screen: (usize, usize), most: usize) -> (usize, usize) {
    let (scale, t, dock) = fit_or_squeeze(ui, screen, most).unwrap_or((1, 1, Dock::Below));
    let (w, h) = least_size(ui, scale, t, dock);
    let wider = if ui.inspector {
        let whole = (INSPECTOR_WHOLE_COLUMNS + 2) * GLYPH * t;
        w.max(screen.0.min(w - inspector_width(t) + whole))
    } else {
        w
    };
    // Below the picture, the charts take the height the screen has left.
    let taller = if ui.dashboard && dock == Dock::Below {
        h.max(screen.1)
    } else {
        h
    };
    (wider, taller)
}

/// Lays the parts out in a window of `width` x `height`.
pub fn layout(width: usize, height: usize, ui: &Ui) -> Layout {
    let (w, h) = (width as i32, height as i32);
    let Some((scale, t, dock)) = fit_or_squeeze(ui, (width, height), SCREEN_HEIGHT) else {
        // Too small for anything but the picture: it keeps scale 1, the band what is left.
        let gw = game_width(1, ui.aspect) as i32;
        let gh = (SCREEN_HEIGHT as i32).min(h);
        return Layout {
            game: Rect::new((w - gw) / 2, 0, gw, gh),
            band: Rect::new(0, gh, w, h - gh),
            dashboard: None,
            inspector: None,
            dock: Dock::Below,
            text: 1,
            scale: 1,
        };
    };
    let lh = line_height(t) as i32;
    let gw = game_width(scale, ui.aspect) as i32;
    let gh = (SCREEN_HEIGHT * scale) as i32;
    let dock_w = ((DOCK_COLUMNS + 2) * GLYPH * t) as i32;
    // The picture and the dock keep their least width; the inspector takes the rest.
    let left_w = match dock {
        Dock::Below => gw,
        Dock::Beside => gw + dock_w,
    };
    let inspector = ui.inspector.then(|| Rect::new(left_w, 0, w - left_w, h));
    let left_w = inspector.map_or(w, |r| r.x);
    let (game, dock_rect) = match dock {
        Dock::Below => (
            Rect::new((left_w - gw) / 2, 0, gw, gh),
            Rect::new(0, gh, left_w, h - gh),
        ),
        Dock::Beside => {
            let room = left_w - dock_w;
            (
                Rect::new((room - gw) / 2, (h - gh) / 2, gw, gh),
                Rect::new(room, 0, dock_w, h),
            )
        }
    };
    let band_h = (band_lines(ui, dock) as i32 * lh).min(dock_rect.height);
    let band = Rect::new(dock_rect.x, dock_rect.y, dock_rect.width, band_h);
    let dashboard = ui.dashboard.then(|| {
        Rect::new(
            dock_rect.x,
            band.bottom(),
            dock_rect.width,
            dock_rect.bottom() - band.bottom(),
        )
    });
    Layout {
        game,
        band,
        dashboard,
        inspector,
        dock,
        text: t,
        scale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window's settings with the Magic Jewelry plug-in's inspector (31 labelled
    /// addresses, the board's 15 rows and the columns' 3 lines, with their headings).
    fn ui(inspector: bool, dashboard: bool) -> Ui {
        Ui {
            inspector,
            dashboard,
            inspector_lines: 57,
            ..Ui::default()
        }
    }

    fn inside(inner: Rect, outer: Rect) -> bool {
        inner.x >= outer.x
            && inner.y >= outer.y
            && inner.right() <= outer.right()
            && inner.bottom() <= outer.bottom()
    }

    fn overlap(a: Rect, b: Rect) -> bool {
        a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
    }

    /// Every part inside the window, none over another.
    fn check(l: &Layout, w: usize, h: usize) {
        let window = Rect::new(0, 0, w as i32, h as i32);
        let parts: Vec<Rect> = [Some(l.game), Some(l.band), l.dashboard, l.inspector]
            .into_iter()
            .flatten()
            .collect();
        for (i, a) in parts.iter().enumerate() {
            assert!(inside(*a, window), "{a:?} outside {w}x{h}");
            for b in &parts[i + 1..] {
                assert!(!overlap(*a, *b), "{a:?} over {b:?}");
            }
        }
    }

    #[test]
    fn the_window_uses_the_screen_it_opens_on() {
        // (screen, inspector, dashboard) -> picture scale and text scale.
        let cases = [
            ((1280, 720), true, true, 2, 1),
            ((1280, 720), true, false, 2, 1),
            ((1280, 720), false, true, 3, 1),
            ((1280, 720), false, false, 3, 1),
            ((1920, 1080), true, true, 3, 1),
            ((1920, 1080), false, true, 4, 2),
            ((1920, 1080), false, false, 4, 2),
        ];
        for (screen, inspector, dashboard, scale, text) in cases {
            let ui = ui(inspector, dashboard);
            let (w, h) = window_size(&ui, screen, 8);
            assert!(w <= screen.0 && h <= screen.1, "{w}x{h} on {screen:?}");
            let l = layout(w, h, &ui);
            let case = format!("{screen:?} inspector {inspector} dashboard {dashboard}");
            assert_eq!((l.scale, l.text), (scale, text), "{case}");
            check(&l, w, h);
        }
        // A scale asked for is the most it takes.
        let (w, h) = window_size(&ui(false, true), (1920, 1080), 2);
        assert_eq!(layout(w, h, &ui(false, true)).scale, 2);
    }

    #[test]
    fn nothing_covers_the_picture_at_any_size() {
        for inspector in [false, true] {
            for dashboard in [false, true] {
                let ui = ui(inspector, dashboard);
                for (w, h) in [
                    (640, 700),
                    (800, 600),
                    (1081, 690),
                    (1280, 720),
                    (2560, 1440),
                ] {
                    check(&layout(w, h, &ui), w, h);
                }
            }
        }
    }

    #[test]
    fn the_picture_keeps_whole_number_scale_and_its_aspect() {
        let plain = ui(false, false);
        let l = layout(1200, 900, &plain);
        assert_eq!((l.scale, l.dock), (3, Dock::Below));
        assert_eq!(l.game, Rect::new(161, 0, 878, 720));
        assert_eq!(l.band.y, 720);
        let square = Ui {
            aspect: Aspect::Square,
            ..plain
        };
        assert_eq!(layout(1200, 900, &square).game.width, 768);
    }

    #[test]
    fn a_bigger_window_gives_the_inspector_and_the_charts_the_room() {
        let ui = ui(true, true);
        let small = layout(1081, 700, &ui);
        let large = layout(1280, 720, &ui);
        assert_eq!(small.scale, large.scale);
        let (a, b) = (small.inspector.unwrap(), large.inspector.unwrap());
        assert!(b.width > a.width, "{a:?} {b:?}");
        assert!(large.dashboard.unwrap().height >= small.dashboard.unwrap().height);
    }

    #[test]
    fn a_tiny_window_still_gets_a_picture() {
        let l = layout(200, 100, &ui(true, true));
        assert_eq!(l.scale, 1);
        assert!(l.game.width > 0 && l.game.height > 0);
    }
}
