//! An RGBA picture in memory with the few drawing operations the frontend needs.

use crate::font::{self, GLYPH};

/// Red, green, blue, alpha.
pub type Color = [u8; 4];

/// A rectangle in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Self {
            x,
            y,
            width,
            height,
        }
    }

    pub fn right(&self) -> i32 {
        self.x + self.width
    }

    pub fn bottom(&self) -> i32 {
        self.y + self.height
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.right() && y < self.bottom()
    }
}

/// RGBA8 pixels, row by row.
#[derive(Debug, Clone, Default)]
pub struct Canvas {
    width: usize,
    height: usize,
    data: Vec<u8>,
}

impl Canvas {
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            data: vec![0; width * height * 4],
        }
    }

    pub fn resize(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.data.resize(width * height * 4, 0);
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rgba(&self) -> &[u8] {
        &self.data
    }

    pub fn rgba_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }

    pub fn pixel(&self, x: usize, y: usize) -> Option<Color> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y * self.width + x) * 4;
        let mut c = [0; 4];
        c.copy_from_slice(&self.data[i..i + 4]);
        Some(c)
    }

    pub fn fill(&mut self, color: Color) {
        for px in self.data.chunks_exact_mut(4) {
            px.copy_from_slice(&color);
        }
    }

    /// `rect` limited to the canvas, as (x0, y0, x1, y1).
    fn clip(&self, rect: Rect) -> Option<(usize, usize, usize, usize)> {
        let x0 = rect.x.max(0) as usize;
        let y0 = rect.y.max(0) as usize;
        let x1 = (rect.right().max(0) as usize).min(self.width);
        let y1 = (rect.bottom().max(0) as usize).min(self.height);
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }

    /// Paints `rect` with `color`, mixing by its alpha (255 paints over).
    pub fn fill_rect(&mut self, rect: Rect, color: Color) {
        let Some((x0, y0, x1, y1)) = self.clip(rect) else {
            return;
        };
        for y in y0..y1 {
            let row = &mut self.data[(y * self.width + x0) * 4..(y * self.width + x1) * 4];
            for px in row.chunks_exact_mut(4) {
                blend(px, color);
            }
        }
    }

    /// The border of `rect`, `thickness` pixels wide, inside it.
    pub fn outline(&mut self, rect: Rect, thickness: i32, color: Color) {
        let t = thickness.min(rect.width / 2).min(rect.height / 2).max(1);
        let Rect {
            x,
            y,
            width,
            height,
        } = rect;
        self.fill_rect(Rect::new(x, y, width, t), color);
        self.fill_rect(Rect::new(x, y + height - t, width, t), color);
        self.fill_rect(Rect::new(x, y + t, t, height - 2 * t), color);
        self.fill_rect(Rect::new(x + width - t, y + t, t, height - 2 * t), color);
    }

    /// Draws `text` with its top-left corner at (x, y); returns the width drawn.
    pub fn text(&mut self, x: i32, y: i32, text: &str, color: Color, scale: usize) -> i32 {
        let step = (GLYPH * scale) as i32;
        let mut cx = x;
        for c in text.chars() {
            if c != ' ' {
                self.glyph(cx, y, font::glyph(c), color, scale);
            }
            cx += step;
        }
        cx - x
    }

    fn glyph(&mut self, x: i32, y: i32, rows: [u8; 8], color: Color, scale: usize) {
        let s = scale as i32;
        let size = 8 * s;
        let inside = x >= 0
            && y >= 0
            && (x + size) as usize <= self.width
            && (y + size) as usize <= self.height;
        if inside && color[3] == 255 {
            // The common case, a whole opaque glyph on the canvas: its pixels written directly.
            let (x, y, scale) = (x as usize, y as usize, scale);
            for (row, &bits) in rows.iter().enumerate() {
                if bits == 0 {
                    continue;
                }
                for dy in 0..scale {
                    let line = (y + row * scale + dy) * self.width;
                    for col in 0..8 {
                        if bits & (1 << col) != 0 {
                            let start = (line + x + col * scale) * 4;
                            for px in self.data[start..start + 4 * scale].chunks_exact_mut(4) {
                                px.copy_from_slice(&color);
                            }
                        }
                    }
                }
            }
            return;
        }
        for (row, bits) in rows.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    let r = Rect::new(x + col * s, y + row as i32 * s, s, s);
                    self.fill_rect(r, color);
                }
            }
        }
    }
}

/// Mixes `color` over the pixel `px` by the colour's alpha; the result is opaque.
fn blend(px: &mut [u8], color: Color) {
    let a = u32::from(color[3]);
    if a == 255 {
        px.copy_from_slice(&color);
        return;
    }
    for i in 0..3 {
        let mixed = (u32::from(color[i]) * a + u32::from(px[i]) * (255 - a) + 127) / 255;
        px[i] = mixed as u8;
    }
    px[3] = 255;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_clipped_rectangles_and_blends() {
        let mut c = Canvas::new(4, 3);
        c.fill([0, 0, 0, 255]);
        c.fill_rect(Rect::new(-2, 1, 4, 10), [200, 100, 50, 255]);
        assert_eq!(c.pixel(1, 2), Some([200, 100, 50, 255]));
        assert_eq!(c.pixel(2, 2), Some([0, 0, 0, 255]));
        assert_eq!(c.pixel(0, 0), Some([0, 0, 0, 255]));
        c.fill_rect(Rect::new(3, 0, 1, 1), [255, 255, 255, 128]);
        assert_eq!(c.pixel(3, 0), Some([128, 128, 128, 255]));
        assert_eq!(c.pixel(4, 0), None);
    }

    #[test]
    fn outlines_leave_the_inside_alone() {
        let mut c = Canvas::new(5, 5);
        c.outline(Rect::new(0, 0, 5, 5), 1, [9, 9, 9, 255]);
        assert_eq!(c.pixel(0, 0), Some([9, 9, 9, 255]));
        assert_eq!(c.pixel(4, 2), Some([9, 9, 9, 255]));
        assert_eq!(c.pixel(2, 2), Some([0, 0, 0, 0]));
    }

    #[test]
    fn text_puts_ink_inside_its_box() {
        let mut c = Canvas::new(16, 8);
        let w = c.text(0, 0, "H ", [255, 255, 255, 255], 1);
        assert_eq!(w, 16);
        let ink = |x0: usize, x1: usize| {
            (x0..x1).any(|x| (0..8).any(|y| c.pixel(x, y) == Some([255, 255, 255, 255])))
        };
        assert!(ink(0, 8));
        assert!(!ink(8, 16));
    }
}
