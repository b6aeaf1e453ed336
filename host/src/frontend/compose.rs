//! Composition of one window picture on the CPU: the game scaled to fit with the plug-ins'
//! marks over it, and around it ([`layout`](super::layout)) the status band, the dashboard,
//! the RAM inspector and the help box. No window is needed, so tests can compare the result
//! with a stored image.

use super::canvas::{Canvas, Color, Rect};
use super::changes::Changes;
use super::dashboard;
use super::layout::{layout, line_height, status_lines, Layout};
use super::panel;
use super::view::{Snapshot, Ui, ACCENT, BACKGROUND, DIM, TEXT, WARNING};
use crate::font::{self, GLYPH};
use jewelbot_plugin::{Buttons, SCREEN_HEIGHT, SCREEN_WIDTH};

const BAND_BACKGROUND: Color = [22, 22, 30, 255];

/// Where things were drawn, for turning clicks into actions.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    pub layout: Layout,
    /// What a click in the inspector can select.
    pub clickable: panel::Clickable,
}

/// How much of the window a picture redraws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redraw {
    /// Everything.
    Whole,
    /// The game, its marks and the status band only; the dashboard, the inspector and the
    /// background keep the pixels of the last whole picture, which had the same layout. Text
    /// for people changes faster than they read it at unthrottled speed, so the window
    /// redraws its panels a few times a second and leaves the emulator the time.
    GameAndBand,
}

/// Draws into `canvas` (already sized to the window); with [`Redraw::GameAndBand`], what
/// changes every frame only.
pub fn compose(
    canvas: &mut Canvas,
    snapshot: &Snapshot,
    changes: &Changes,
    ui: &Ui,
    help: &[(String, String)],
    now_ms: u64,
    redraw: Redraw,
) -> Drawn {
    let layout = layout(canvas.width(), canvas.height(), ui);
    let whole = redraw == Redraw::Whole;
    if whole {
        canvas.fill(BACKGROUND);
    }
    blit_picture(canvas, &snapshot.picture, layout.game);
    if ui.marks {
        draw_marks(canvas, snapshot, layout.game);
    }
    draw_band(canvas, snapshot, ui, layout);
    let mut clickable = panel::Clickable::default();
    if whole {
        if let Some(rect) = layout.dashboard {
            dashboard::draw(canvas, rect, layout.text, &snapshot.stories, layout.dock);
        }
        if let Some(rect) = layout.inspector {
            clickable = panel::draw(canvas, rect, layout.text, snapshot, changes, ui, now_ms);
        }
        if ui.help {
            draw_help(canvas, help, layout.text);
        }
    }
    Drawn { layout, clickable }
}

/// Nearest-neighbour scaling of the 256x240 picture into `dest`, clipped to the canvas.
fn blit_picture(canvas: &mut Canvas, picture: &[u8], dest: Rect) {
    if picture.len() < SCREEN_WIDTH * SCREEN_HEIGHT * 4 || dest.width <= 0 || dest.height <= 0 {
        return;
    }
    let cw = canvas.width() as i32;
    let ch = canvas.height() as i32;
    let x0 = dest.x.max(0);
    let x1 = dest.right().min(cw);
    if x0 >= x1 {
        return;
    }
    let columns: Vec<usize> = (x0..x1)
        .map(|x| (((x - dest.x) as usize * SCREEN_WIDTH) / dest.width as usize) * 4)
        .collect();
    let stride = canvas.width() * 4;
    let data = canvas.rgba_mut();
    let mut previous: Option<(usize, usize)> = None;
    for y in dest.y.max(0)..dest.bottom().min(ch) {
        let sy = ((y - dest.y) as usize * SCREEN_HEIGHT) / dest.height as usize;
        let start = y as usize * stride + x0 as usize * 4;
        let len = columns.len() * 4;
        match previous {
            // Rows from the same source row are copies of the first one drawn.
            Some((row_sy, row_start)) if row_sy == sy => {
                data.copy_within(row_start..row_start + len, start);
            }
            _ => {
                let src = &picture[sy * SCREEN_WIDTH * 4..(sy + 1) * SCREEN_WIDTH * 4];
                for (px, &sx) in data[start..start + len].chunks_exact_mut(4).zip(&columns) {
                    px.copy_from_slice(&src[sx..sx + 4]);
                    px[3] = 255;
                }
                previous = Some((sy, start));
            }
        }
    }
}

/// The plug-ins' rectangles, from NES pixels to screen pixels.
fn draw_marks(canvas: &mut Canvas, snapshot: &Snapshot, game: Rect) {
    let sx = |x: u16| game.x + (i32::from(x) * game.width) / SCREEN_WIDTH as i32;
    let sy = |y: u16| game.y + (i32::from(y) * game.height) / SCREEN_HEIGHT as i32;
    let thickness = (game.height / SCREEN_HEIGHT as i32).clamp(1, 3);
    for mark in snapshot.slots.iter().flat_map(|s| &s.marks) {
        let x = sx(mark.x);
        let y = sy(mark.y);
        let rect = Rect::new(
            x,
            y,
            sx(mark.x.saturating_add(mark.width)) - x,
            sy(mark.y.saturating_add(mark.height)) - y,
        );
        canvas.outline(rect, thickness, mark.color);
    }
}

/// The input display's buttons, as a pad reads them.
const PAD: [(Buttons, &str); 8] = [
    (Buttons::LEFT, "<"),
    (Buttons::UP, "^"),
    (Buttons::DOWN, "v"),
    (Buttons::RIGHT, ">"),
    (Buttons::SELECT, "Sel"),
    (Buttons::START, "Start"),
    (Buttons::B, "B"),
    (Buttons::A, "A"),
];

/// The status band: the plug-ins' status lines and notices (when shown), the controller's
/// buttons (when shown: the ones held lit, the others dim, as TAS tools show them), the
/// passing message and the frontend's bar, top to bottom.
fn draw_band(canvas: &mut Canvas, snapshot: &Snapshot, ui: &Ui, layout: Layout) {
    let t = layout.text;
    let band = layout.band;
    canvas.fill_rect(band, BAND_BACKGROUND);
    let pad = (GLYPH * t) as i32;
    let lh = line_height(t) as i32;
    let mut text = BandText {
        canvas,
        x: band.x + pad,
        y: band.y + (lh - pad) / 2,
        bottom: band.bottom(),
        columns: ((band.width - 2 * pad).max(0) / pad) as usize,
        t,
    };
    if ui.status {
        let lines = snapshot.slots.iter().flat_map(|slot| {
            let status = slot.lines.iter().map(|l| (l, TEXT));
            status.chain(slot.notice.iter().map(|l| (l, WARNING)))
        });
        let columns = text.columns;
        let wrapped: Vec<(String, Color)> = lines
            .flat_map(|(line, color)| {
                font::wrap(line, columns)
                    .into_iter()
                    .map(move |part| (part, color))
            })
            .take(status_lines(layout.dock))
            .collect();
        let blank = status_lines(layout.dock) - wrapped.len();
        for (line, color) in &wrapped {
            text.line(line, *color);
        }
        text.y += blank as i32 * lh;
    }
    if ui.input && text.y + lh <= text.bottom {
        let mut x = text.x;
        for (button, label) in PAD {
            let color = if snapshot.buttons.contains(button) {
                ACCENT
            } else {
                DIM
            };
            text.canvas.text(x, text.y, label, color, t);
            x += font::text_width(label, t) as i32 + pad;
        }
        text.y += lh;
    }
    text.line(ui.message.as_deref().unwrap_or(""), TEXT);
    text.line(&ui.bar, ACCENT);
}

/// Lines of text down the band, cut to its width and stopping at its bottom.
struct BandText<'a> {
    canvas: &'a mut Canvas,
    x: i32,
    y: i32,
    bottom: i32,
    columns: usize,
    t: usize,
}

impl BandText<'_> {
    fn line(&mut self, text: &str, color: Color) {
        let lh = line_height(self.t) as i32;
        if self.y + lh <= self.bottom + lh / 2 {
            let text = font::fit(text, self.columns);
            self.canvas.text(self.x, self.y, &text, color, self.t);
            self.y += lh;
        }
    }
}

/// The key table in a box in the middle of the window.
fn draw_help(canvas: &mut Canvas, rows: &[(String, String)], t: usize) {
    let key_width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 2;
    let lines: Vec<String> = std::iter::once("jewelbot keys  (F1 or H closes)".to_owned())
        .chain(std::iter::once(String::new()))
        .chain(rows.iter().map(|(k, w)| format!("{k:<key_width$}{w}")))
        .collect();
    let columns = lines.iter().map(String::len).max().unwrap_or(0);
    let lh = line_height(t) as i32;
    let w = (columns * GLYPH * t) as i32 + 4 * (GLYPH * t) as i32;
    let h = lines.len() as i32 * lh + 3 * (GLYPH * t) as i32;
    let x = (canvas.width() as i32 - w) / 2;
    let y = (canvas.height() as i32 - h) / 2;
    canvas.fill_rect(Rect::new(x, y, w, h), [8, 8, 14, 235]);
    canvas.outline(Rect::new(x, y, w, h), t as i32, ACCENT);
    let mut ty = y + (GLYPH * t) as i32 * 3 / 2;
    for (i, line) in lines.iter().enumerate() {
        let color = if i == 0 { ACCENT } else { TEXT };
        canvas.text(x + 2 * (GLYPH * t) as i32, ty, line, color, t);
        ty += lh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::view::SlotView;
    use jewelbot_plugin::{Mark, RAM_SIZE};

    fn snapshot(picture: u8, buttons: Buttons) -> Snapshot {
        Snapshot {
            picture: vec![picture; SCREEN_WIDTH * SCREEN_HEIGHT * 4],
            ram: [0; RAM_SIZE],
            frame: 0,
            buttons,
            frozen: vec![],
            slots: vec![SlotView {
                name: "test".into(),
                lines: vec!["a status line".into(); 3],
                marks: vec![Mark {
                    x: 10,
                    y: 10,
                    width: 16,
                    height: 48,
                    color: [255, 0, 0, 255],
                }],
                notice: None,
            }],
            inspections: vec![],
            stories: vec![],
        }
    }

    #[test]
    fn a_tiny_window_still_gets_a_picture() {
        let ui = Ui {
            inspector: true,
            ..Ui::default()
        };
        let mut canvas = Canvas::new(200, 100);
        compose(
            &mut canvas,
            &snapshot(255, Buttons::NONE),
            &Changes::new(),
            &ui,
            &[],
            0,
            Redraw::Whole,
        );
        assert_eq!(canvas.pixel(100, 50), Some([255, 255, 255, 255]));
    }

    /// Only the marks are drawn over the game: a white picture stays white everywhere else,
    /// whatever the status lines, the input display, the message and the bar hold.
    #[test]
    fn nothing_but_the_marks_covers_the_picture() {
        for marks in [false, true] {
            let ui = Ui {
                marks,
                message: Some("a message".into()),
                bar: "a bar".into(),
                ..Ui::default()
            };
            let mut canvas = Canvas::new(1280, 720);
            let drawn = compose(
                &mut canvas,
                &snapshot(255, Buttons::from_bits(0xFF)),
                &Changes::new(),
                &ui,
                &[],
                0,
                Redraw::Whole,
            );
            let game = drawn.layout.game;
            let covered = (game.y..game.bottom())
                .flat_map(|y| (game.x..game.right()).map(move |x| (x, y)))
                .filter(|&(x, y)| canvas.pixel(x as usize, y as usize) != Some([255; 4]))
                .count();
            // The mark's outline: 16x48 NES pixels at scale 3, 3 pixels thick.
            let outline = if marks { 2 * 3 * (55 + 144) - 4 * 9 } else { 0 };
            assert!(
                (covered as i64 - i64::from(outline)).abs() <= 6 * 3,
                "marks {marks}: {covered} pixels covered"
            );
        }
    }

    /// Between whole pictures only the game and the band change: the dashboard keeps its
    /// pixels, and the next whole picture draws it again.
    #[test]
    fn a_redraw_of_the_game_and_band_leaves_the_panels_as_they_were() {
        let ui = Ui::default();
        let mut canvas = Canvas::new(1280, 720);
        let (changes, shot) = (Changes::new(), snapshot(0, Buttons::NONE));
        let drawn = compose(&mut canvas, &shot, &changes, &ui, &[], 0, Redraw::Whole);
        let dashboard = drawn.layout.dashboard.expect("a dashboard");
        let (x, y) = (dashboard.x as usize + 2, dashboard.y as usize + 2);
        let panel_pixel = canvas.pixel(x, y);
        let marker = [1, 2, 3, 255];
        canvas.fill_rect(Rect::new(x as i32, y as i32, 1, 1), marker);
        compose(
            &mut canvas,
            &shot,
            &changes,
            &ui,
            &[],
            0,
            Redraw::GameAndBand,
        );
        assert_eq!(canvas.pixel(x, y), Some(marker));
        compose(&mut canvas, &shot, &changes, &ui, &[], 0, Redraw::Whole);
        assert_eq!(canvas.pixel(x, y), panel_pixel);
    }

    #[test]
    fn the_input_display_lights_the_buttons_held() {
        let lit = |buttons| {
            let mut canvas = Canvas::new(1280, 720);
            let drawn = compose(
                &mut canvas,
                &snapshot(0, buttons),
                &Changes::new(),
                &Ui::default(),
                &[],
                0,
                Redraw::Whole,
            );
            let band = drawn.layout.band;
            (band.y..band.bottom())
                .flat_map(|y| (band.x..band.right()).map(move |x| (x, y)))
                .filter(|&(x, y)| canvas.pixel(x as usize, y as usize) == Some(ACCENT))
                .count()
        };
        let none = lit(Buttons::NONE);
        let left = lit(Buttons::LEFT);
        let left_and_a = lit(Buttons::LEFT | Buttons::A);
        assert!(
            left > none && left_and_a > left,
            "{none} {left} {left_and_a}"
        );
    }

    #[test]
    fn picture_pixels_land_where_scaling_puts_them() {
        let mut picture = vec![0u8; SCREEN_WIDTH * SCREEN_HEIGHT * 4];
        // One red NES pixel at (10, 20).
        let i = (20 * SCREEN_WIDTH + 10) * 4;
        picture[i..i + 4].copy_from_slice(&[255, 0, 0, 255]);
        let mut canvas = Canvas::new(512, 480);
        blit_picture(&mut canvas, &picture, Rect::new(0, 0, 512, 480));
        for (x, y) in [(20, 40), (21, 41)] {
            assert_eq!(canvas.pixel(x, y), Some([255, 0, 0, 255]));
        }
        assert_eq!(canvas.pixel(22, 40), Some([0, 0, 0, 255]));
        assert_eq!(canvas.pixel(20, 42), Some([0, 0, 0, 255]));
    }
}
