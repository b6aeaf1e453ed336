//! Composition of one window picture on the CPU: the game scaled to fit, the plug-ins'
//! overlay, the RAM inspector panel, the status bar and the help box. No window is needed,
//! so tests can compare the result with a stored image.

use super::canvas::{Canvas, Color, Rect};
use super::changes::Changes;
use super::font::{self, GLYPH};
use super::panel;
use super::view::{Aspect, Snapshot, Ui, ACCENT, BACKGROUND, DIM, PANEL_COLUMNS, TEXT, WARNING};
use jewelbot_plugin::{Buttons, SCREEN_HEIGHT, SCREEN_WIDTH};

const SHADE: Color = [0, 0, 0, 170];

/// Where things go in a window of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub game: Rect,
    pub panel: Option<Rect>,
    /// Where the inspector's hex view put its bytes, when it drew them.
    pub hex: Option<panel::HexArea>,
    /// Whole-number scale of text.
    pub text: usize,
    /// Whole-number vertical scale of the picture.
    pub scale: usize,
}

pub fn text_scale(height: usize) -> usize {
    if height >= 1000 {
        2
    } else {
        1
    }
}

pub fn panel_width(text: usize) -> usize {
    (PANEL_COLUMNS + 2) * GLYPH * text
}

/// Width of the picture at a vertical scale: 8:7 pixels are rounded to whole screen pixels.
pub fn game_width(scale: usize, aspect: Aspect) -> usize {
    match aspect {
        Aspect::Ntsc => (SCREEN_WIDTH * scale * 8 + 3) / 7,
        Aspect::Square => SCREEN_WIDTH * scale,
    }
}

/// The window size that shows the picture at `scale` (and the panel when asked).
pub fn window_size(scale: usize, panel: bool, aspect: Aspect) -> (usize, usize) {
    let height = SCREEN_HEIGHT * scale.max(1);
    let panel = if panel {
        panel_width(text_scale(height))
    } else {
        0
    };
    (game_width(scale.max(1), aspect) + panel, height)
}

/// The screen a window is fitted to when the monitor does not say its size.
pub const DEFAULT_SCREEN: (usize, usize) = (1280, 720);

/// The largest scale, at most `wanted`, whose window (with the panel when asked) fits a screen
/// of `screen` pixels; 1 when even that does not fit.
pub fn fitting_scale(wanted: usize, panel: bool, aspect: Aspect, screen: (usize, usize)) -> usize {
    (1..=wanted.max(1))
        .rev()
        .find(|&scale| {
            let (w, h) = window_size(scale, panel, aspect);
            w <= screen.0 && h <= screen.1
        })
        .unwrap_or(1)
}

pub fn layout(width: usize, height: usize, ui: &Ui) -> Layout {
    let text = text_scale(height);
    let panel_w = if ui.panel {
        panel_width(text).min(width.saturating_sub(game_width(1, ui.aspect)))
    } else {
        0
    };
    let avail = width - panel_w;
    let scale = (1..=SCREEN_HEIGHT)
        .take_while(|&s| game_width(s, ui.aspect) <= avail && SCREEN_HEIGHT * s <= height)
        .last()
        .unwrap_or(1);
    let gw = game_width(scale, ui.aspect);
    let gh = SCREEN_HEIGHT * scale;
    let game = Rect::new(
        (avail as i32 - gw as i32) / 2,
        (height as i32 - gh as i32) / 2,
        gw as i32,
        gh as i32,
    );
    let panel = (panel_w > 0).then(|| Rect::new(avail as i32, 0, panel_w as i32, height as i32));
    Layout {
        game,
        panel,
        hex: None,
        text,
        scale,
    }
}

/// Draws everything into `canvas` (already sized to the window).
pub fn compose(
    canvas: &mut Canvas,
    snapshot: &Snapshot,
    changes: &Changes,
    ui: &Ui,
    help: &[(String, String)],
    now_ms: u64,
) -> Layout {
    let mut layout = layout(canvas.width(), canvas.height(), ui);
    canvas.fill(BACKGROUND);
    blit_picture(canvas, &snapshot.picture, layout.game);
    if ui.overlay {
        draw_marks(canvas, snapshot, layout.game);
        draw_status(canvas, snapshot, layout);
        draw_input(canvas, snapshot.buttons, layout);
    }
    draw_bar(canvas, ui, layout);
    if let Some(rect) = layout.panel {
        layout.hex = panel::draw(canvas, rect, layout.text, snapshot, changes, ui, now_ms);
    }
    if ui.help {
        draw_help(canvas, help, layout.text);
    }
    layout
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

/// Text on a dark band so it reads over any picture.
fn shaded_text(canvas: &mut Canvas, x: i32, y: i32, text: &str, color: Color, t: usize) {
    let pad = t as i32;
    let w = font::text_width(text, t) as i32;
    let h = (GLYPH * t) as i32;
    canvas.fill_rect(Rect::new(x - pad, y - pad, w + 2 * pad, h + 2 * pad), SHADE);
    canvas.text(x, y, text, color, t);
}

fn line_height(t: usize) -> i32 {
    (GLYPH * t + 3 * t) as i32
}

/// The plug-ins' status lines and notices, top left of the picture.
fn draw_status(canvas: &mut Canvas, snapshot: &Snapshot, layout: Layout) {
    let t = layout.text;
    let game = layout.game;
    let columns = (game.width as usize / (GLYPH * t)).saturating_sub(2).max(8);
    let x = game.x.max(0) + (GLYPH * t) as i32 / 2;
    let mut y = game.y.max(0) + (GLYPH * t) as i32 / 2;
    for slot in &snapshot.slots {
        let lines = slot.lines.iter().map(|l| (l, TEXT));
        let notice = slot.notice.iter().map(|l| (l, WARNING));
        for (text, color) in lines.chain(notice) {
            for part in font::wrap(text, columns) {
                shaded_text(canvas, x, y, &part, color, t);
                y += line_height(t);
            }
        }
    }
}

/// The controller's buttons as a pad reads them, bottom right of the picture: the ones held
/// lit, the others dim (an input display, as TAS tools show).
fn draw_input(canvas: &mut Canvas, buttons: Buttons, layout: Layout) {
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
    let t = layout.text;
    let labels: Vec<&str> = PAD.iter().map(|(_, label)| *label).collect();
    let width = font::text_width(&labels.join(" "), t) as i32;
    let mut x = layout.game.right() - width - (GLYPH * t) as i32;
    let y = layout.game.bottom() - 2 * line_height(t);
    let pad = t as i32;
    canvas.fill_rect(
        Rect::new(
            x - pad,
            y - pad,
            width + 2 * pad,
            (GLYPH * t) as i32 + 2 * pad,
        ),
        SHADE,
    );
    for (button, label) in PAD {
        let color = if buttons.contains(button) {
            ACCENT
        } else {
            DIM
        };
        canvas.text(x, y, label, color, t);
        x += font::text_width(label, t) as i32 + (GLYPH * t) as i32;
    }
}

/// The frontend's status bar and passing message, bottom left of the picture.
fn draw_bar(canvas: &mut Canvas, ui: &Ui, layout: Layout) {
    let t = layout.text;
    let game = layout.game;
    let columns = (game.width as usize / (GLYPH * t)).saturating_sub(1).max(8);
    let x = game.x.max(0) + (GLYPH * t) as i32 / 2;
    let bottom = game.bottom().min(canvas.height() as i32);
    let mut y = bottom - line_height(t);
    if !ui.bar.is_empty() {
        shaded_text(canvas, x, y, &font::fit(&ui.bar, columns), ACCENT, t);
        y -= line_height(t);
    }
    if let Some(message) = &ui.message {
        for part in font::wrap(message, columns).iter().rev() {
            shaded_text(canvas, x, y, part, TEXT, t);
            y -= line_height(t);
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
    let lh = line_height(t);
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
    use jewelbot_plugin::RAM_SIZE;

    #[test]
    fn the_picture_keeps_whole_number_scale_and_its_aspect() {
        let ui = Ui::default();
        let l = layout(1200, 720, &ui);
        assert_eq!(l.scale, 3);
        assert_eq!(l.game, Rect::new(161, 0, 878, 720));
        assert_eq!(l.panel, None);
        let square = Ui {
            aspect: Aspect::Square,
            ..Ui::default()
        };
        assert_eq!(layout(1200, 720, &square).game.width, 768);
        let with_panel = Ui {
            panel: true,
            ..Ui::default()
        };
        let l = layout(1200, 720, &with_panel);
        assert_eq!(l.scale, 2);
        assert_eq!(l.panel, Some(Rect::new(704, 0, 496, 720)));
        assert!(l.game.right() <= 704);
    }

    #[test]
    fn a_tiny_window_still_gets_a_picture() {
        let ui = Ui {
            panel: true,
            ..Ui::default()
        };
        let l = layout(200, 100, &ui);
        assert_eq!(l.scale, 1);
        assert_eq!(l.panel, None);
        let mut canvas = Canvas::new(200, 100);
        let snapshot = Snapshot {
            picture: vec![255; SCREEN_WIDTH * SCREEN_HEIGHT * 4],
            ram: [0; RAM_SIZE],
            frame: 0,
            buttons: Buttons::NONE,
            frozen: vec![],
            slots: vec![],
            inspections: vec![],
        };
        compose(&mut canvas, &snapshot, &Changes::new(), &ui, &[], 0);
        assert_eq!(canvas.pixel(100, 50), Some([255, 255, 255, 255]));
    }

    #[test]
    fn the_input_display_lights_the_buttons_held() {
        let ui = Ui::default();
        let lit = |buttons| {
            let mut canvas = Canvas::new(768, 720);
            let snapshot = Snapshot {
                picture: vec![0; SCREEN_WIDTH * SCREEN_HEIGHT * 4],
                ram: [0; RAM_SIZE],
                frame: 0,
                buttons,
                frozen: vec![],
                slots: vec![],
                inspections: vec![],
            };
            let layout = compose(&mut canvas, &snapshot, &Changes::new(), &ui, &[], 0);
            let bottom = layout.game.bottom() as usize;
            (bottom - 40..bottom)
                .flat_map(|y| (0..768).map(move |x| (x, y)))
                .filter(|&(x, y)| canvas.pixel(x, y) == Some(ACCENT))
                .count()
        };
        let none = lit(Buttons::NONE);
        let left = lit(Buttons::LEFT);
        let left_and_a = lit(Buttons::LEFT | Buttons::A);
        assert_eq!(none, 0);
        assert!(left > 0 && left_and_a > left, "{none} {left} {left_and_a}");
    }

    #[test]
    fn with_the_inspector_the_window_fits_a_1280_by_720_screen() {
        for aspect in [Aspect::Ntsc, Aspect::Square] {
            let scale = fitting_scale(3, true, aspect, DEFAULT_SCREEN);
            let (w, h) = window_size(scale, true, aspect);
            assert!(w <= 1280 && h <= 720, "{w}x{h} at {scale}");
            // 8:7 pixels take the picture down to 2; square ones fit at 3.
            assert_eq!(scale, if aspect == Aspect::Ntsc { 2 } else { 3 });
            // Without the panel the default scale stays.
            assert_eq!(fitting_scale(3, false, aspect, DEFAULT_SCREEN), 3);
        }
        assert_eq!(fitting_scale(3, true, Aspect::Ntsc, (300, 200)), 1);
    }

    #[test]
    fn window_sizes_fit_their_layout() {
        for panel in [false, true] {
            let (w, h) = window_size(3, panel, Aspect::Ntsc);
            let ui = Ui {
                panel,
                ..Ui::default()
            };
            assert_eq!(layout(w, h, &ui).scale, 3, "panel {panel}");
        }
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
