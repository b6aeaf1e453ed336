//! The plug-ins' drawings ([`Drawing`]) put onto the 256x240 picture, as FCEUX puts its Lua
//! scripts' drawings: what the window shows, and what screenshots and GIFs keep.

use crate::font::{glyph, GLYPH};
use jewelbot_plugin::{Drawing, Rgba};

/// The picture's size in NES pixels.
const WIDTH: i32 = 256;
const HEIGHT: i32 = 240;

/// Draws `drawings`, in order, onto `rgba` (256x240, 4 bytes a pixel).
pub fn draw_all<'a>(rgba: &mut [u8], drawings: impl IntoIterator<Item = &'a Drawing>) {
    let mut picture = Picture(rgba);
    for drawing in drawings {
        match drawing {
            Drawing::Rect {
                from,
                to,
                fill,
                outline,
            } => picture.rect(*from, *to, *fill, *outline),
            Drawing::Line { from, to, color } => picture.line(*from, *to, *color),
            Drawing::Pixel { at, color } => picture.blend(at.0, at.1, *color),
            Drawing::Text {
                at,
                text,
                color,
                background,
            } => picture.text(*at, text, *color, *background),
        }
    }
}

struct Picture<'a>(&'a mut [u8]);

impl Picture<'_> {
    /// `color` over the pixel at (x, y), by its alpha; nothing off the picture.
    fn blend(&mut self, x: i32, y: i32, color: Rgba) {
        if !(0..WIDTH).contains(&x) || !(0..HEIGHT).contains(&y) || color[3] == 0 {
            return;
        }
        let at = ((y * WIDTH + x) * 4) as usize;
        let Some(pixel) = self.0.get_mut(at..at + 4) else {
            return;
        };
        let alpha = u32::from(color[3]);
        for (channel, &new) in pixel.iter_mut().zip(&color[..3]) {
            *channel = ((u32::from(new) * alpha + u32::from(*channel) * (255 - alpha)) / 255) as u8;
        }
        pixel[3] = 255;
    }

    fn span(&mut self, (x1, x2): (i32, i32), (y1, y2): (i32, i32), color: Rgba) {
        for y in y1.max(0)..=y2.min(HEIGHT - 1) {
            for x in x1.max(0)..=x2.min(WIDTH - 1) {
                self.blend(x, y, color);
            }
        }
    }

    fn rect(&mut self, from: (i32, i32), to: (i32, i32), fill: Rgba, outline: Rgba) {
        let (x1, x2) = (from.0.min(to.0), from.0.max(to.0));
        let (y1, y2) = (from.1.min(to.1), from.1.max(to.1));
        if x2 - x1 >= 2 && y2 - y1 >= 2 {
            self.span((x1 + 1, x2 - 1), (y1 + 1, y2 - 1), fill);
        }
        self.span((x1, x2), (y1, y1), outline);
        if y2 > y1 {
            self.span((x1, x2), (y2, y2), outline);
        }
        if y2 - y1 >= 2 {
            self.span((x1, x1), (y1 + 1, y2 - 1), outline);
            if x2 > x1 {
                self.span((x2, x2), (y1 + 1, y2 - 1), outline);
            }
        }
    }

    /// Bresenham's line, each pixel once.
    fn line(&mut self, from: (i32, i32), to: (i32, i32), color: Rgba) {
        let (dx, dy) = ((to.0 - from.0).abs(), -(to.1 - from.1).abs());
        let (sx, sy) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
        let (mut x, mut y, mut error) = (from.0, from.1, dx + dy);
        // A line longer than the picture is clipped by its pixels: bound the walk anyway.
        for _ in 0..=(dx - dy).min(4 * (WIDTH + HEIGHT)) {
            self.blend(x, y, color);
            if (x, y) == to {
                return;
            }
            let twice = 2 * error;
            if twice >= dy {
                error += dy;
                x += sx;
            }
            if twice <= dx {
                error += dx;
                y += sy;
            }
        }
    }

    fn text(&mut self, at: (i32, i32), text: &str, color: Rgba, background: Rgba) {
        let glyph_size = GLYPH as i32;
        let mut x = at.0;
        for c in text.chars().take(64) {
            self.span(
                (x, x + glyph_size - 1),
                (at.1, at.1 + glyph_size - 1),
                background,
            );
            for (row, bits) in glyph(c).iter().enumerate() {
                for column in 0..GLYPH {
                    if bits & (1 << column) != 0 {
                        self.blend(x + column as i32, at.1 + row as i32, color);
                    }
                }
            }
            x += glyph_size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Rgba = [255, 0, 0, 255];

    fn blank() -> Vec<u8> {
        vec![0; (WIDTH * HEIGHT * 4) as usize]
    }

    fn at(rgba: &[u8], x: i32, y: i32) -> [u8; 4] {
        let i = ((y * WIDTH + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]
    }

    fn lit(rgba: &[u8]) -> usize {
        rgba.chunks_exact(4).filter(|p| p[..3] != [0, 0, 0]).count()
    }

    #[test]
    fn a_box_is_its_outline_and_its_fill_blended() {
        let mut rgba = blank();
        let drawing = Drawing::Rect {
            from: (12, 20),
            to: (10, 22),
            fill: [255, 255, 255, 63],
            outline: RED,
        };
        draw_all(&mut rgba, [&drawing]);
        assert_eq!(at(&rgba, 10, 20), [255, 0, 0, 255]);
        assert_eq!(at(&rgba, 12, 22), [255, 0, 0, 255]);
        // The inside: a quarter of white over black.
        assert_eq!(at(&rgba, 11, 21), [63, 63, 63, 255]);
        assert_eq!(lit(&rgba), 9);
    }

    #[test]
    fn lines_pixels_and_text_are_clipped_to_the_picture() {
        let mut rgba = blank();
        let drawings = [
            Drawing::Line {
                from: (-5, -5),
                to: (3, 3),
                color: RED,
            },
            Drawing::Pixel {
                at: (300, 5),
                color: RED,
            },
            Drawing::Text {
                at: (250, 232),
                text: "AB".into(),
                color: [255, 255, 255, 255],
                background: [0, 0, 255, 255],
            },
        ];
        draw_all(&mut rgba, &drawings);
        // The line's pixels on the picture: (0, 0) to (3, 3).
        assert_eq!(at(&rgba, 3, 3), RED);
        assert_eq!(at(&rgba, 0, 0), RED);
        // "A" from x = 250 to 255 of its 8 columns; "B" off the picture.
        let text_pixels = 6 * 8;
        assert_eq!(lit(&rgba), 4 + text_pixels);
        assert_eq!(at(&rgba, 250, 232), [0, 0, 255, 255], "the background");
    }
}
