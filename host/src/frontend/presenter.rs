//! Puts the composed picture in the window: through the GPU with `pixels`, or through
//! `softbuffer` when no wgpu adapter is found (a machine with only software OpenGL), when the
//! only adapter renders on the CPU (it costs far more than softbuffer there), or when asked
//! with `--software`.

use super::canvas::Canvas;
use pixels::wgpu::DeviceType;
use std::num::NonZeroU32;
use std::sync::Arc;
use winit::window::Window;

type SoftSurface = softbuffer::Surface<Arc<Window>, Arc<Window>>;

pub enum Presenter {
    Gpu(Box<pixels::Pixels<'static>>),
    Software {
        surface: SoftSurface,
        /// Kept alive for the surface.
        _context: softbuffer::Context<Arc<Window>>,
    },
}

impl Presenter {
    /// The GPU path unless `software`; falls back to software with a note when the GPU path
    /// cannot start.
    pub fn new(window: &Arc<Window>, software: bool) -> anyhow::Result<Self> {
        if !software {
            match gpu(window) {
                // A CPU adapter (Mesa's llvmpipe, say) renders the whole window on the CPU
                // for every picture, about 20 times the cost of handing it the picture.
                Ok(pixels) if pixels.adapter().get_info().device_type == DeviceType::Cpu => {
                    let name = pixels.adapter().get_info().name;
                    tracing::info!(
                        "the wgpu adapter {name} renders on the CPU; drawing in software"
                    );
                }
                Ok(pixels) => return Ok(Self::Gpu(Box::new(pixels))),
                Err(error) => eprintln!(
                    "note: GPU drawing is not available ({error}); using software drawing"
                ),
            }
        }
        let context = softbuffer::Context::new(Arc::clone(window))
            .map_err(|e| anyhow::anyhow!("cannot draw in the window: {e}"))?;
        let surface = softbuffer::Surface::new(&context, Arc::clone(window))
            .map_err(|e| anyhow::anyhow!("cannot draw in the window: {e}"))?;
        Ok(Self::Software {
            surface,
            _context: context,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Gpu(_) => "GPU (wgpu)",
            Self::Software { .. } => "software",
        }
    }

    /// Shows `canvas`, which has the window's size.
    pub fn present(&mut self, canvas: &Canvas) -> anyhow::Result<()> {
        let (w, h) = (canvas.width() as u32, canvas.height() as u32);
        let (Some(nw), Some(nh)) = (NonZeroU32::new(w), NonZeroU32::new(h)) else {
            return Ok(()); // minimised
        };
        match self {
            Self::Gpu(pixels) => {
                let size = pixels.texture().size();
                if (size.width, size.height) != (w, h) {
                    pixels
                        .resize_buffer(w, h)
                        .map_err(|e| anyhow::anyhow!("cannot resize the picture: {e}"))?;
                    pixels
                        .resize_surface(w, h)
                        .map_err(|e| anyhow::anyhow!("cannot resize the window surface: {e}"))?;
                }
                pixels.frame_mut().copy_from_slice(canvas.rgba());
                pixels
                    .render()
                    .map_err(|e| anyhow::anyhow!("drawing failed: {e}"))
            }
            Self::Software { surface, .. } => {
                surface
                    .resize(nw, nh)
                    .map_err(|e| anyhow::anyhow!("cannot resize the window surface: {e}"))?;
                let mut buffer = surface
                    .buffer_mut()
                    .map_err(|e| anyhow::anyhow!("cannot draw in the window: {e}"))?;
                for (out, px) in buffer.iter_mut().zip(canvas.rgba().chunks_exact(4)) {
                    *out = u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2]);
                }
                buffer
                    .present()
                    .map_err(|e| anyhow::anyhow!("cannot show the picture: {e}"))
            }
        }
    }
}

fn gpu(window: &Arc<Window>) -> Result<pixels::Pixels<'static>, pixels::Error> {
    let size = window.inner_size();
    let (w, h) = (size.width.max(1), size.height.max(1));
    let surface = pixels::SurfaceTexture::new(w, h, Arc::clone(window));
    // The frontend paces frames itself; waiting for vertical blank here would fight it.
    pixels::PixelsBuilder::new(w, h, surface)
        .present_mode(pixels::wgpu::PresentMode::AutoNoVsync)
        .build()
}
