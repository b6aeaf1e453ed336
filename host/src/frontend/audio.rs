//! Sound: a cpal output stream fed with the emulator's samples through a lock-free ring.
//!
//! The emulator and the sound card run on different clocks, so the feed stretches or squeezes
//! each frame's samples by at most half a percent to keep the ring near a target fill: no
//! underruns (crackle) and no growing delay. Without a sound device the frontend plays silently.

use super::pacing::Speed;
use super::ring::Ring;
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Audio kept queued, in seconds: enough to ride out a late frame, short enough to feel live.
const TARGET_FILL_SECONDS: f64 = 0.05;
/// Largest speed correction applied to the samples (inaudible as pitch).
const MAX_ADJUST: f64 = 0.005;
/// How fast the held value fades to silence on an underrun (per sample), avoiding a click.
const UNDERRUN_DECAY: f32 = 0.995;

/// State shared with the sound card's callback.
struct Shared {
    ring: Ring,
    muted: AtomicBool,
    /// Set by the callback when it ran out of samples; the feed then queues silence first.
    starved: AtomicBool,
}

/// The output stream, or nothing when the machine has no usable sound device.
pub struct Audio {
    /// Kept alive for as long as sound plays.
    _stream: Option<cpal::Stream>,
    shared: Arc<Shared>,
    feed: Feed,
    sample_rate: Option<u32>,
}

impl Audio {
    /// Opens the default output device; on failure prints one warning and plays silently.
    pub fn open(muted: bool) -> Self {
        match open_stream() {
            Ok((stream, shared, rate)) => {
                shared.muted.store(muted, Ordering::Relaxed);
                Self {
                    _stream: Some(stream),
                    feed: Feed::new(rate),
                    shared,
                    sample_rate: Some(rate),
                }
            }
            Err(reason) => {
                eprintln!("warning: no sound ({reason}); playing silently");
                Self::silent()
            }
        }
    }

    /// No device: samples are dropped.
    pub fn silent() -> Self {
        Self {
            _stream: None,
            shared: Arc::new(Shared::new(1)),
            feed: Feed::new(48_000),
            sample_rate: None,
        }
    }

    /// The device's rate, which the emulator should mix at; `None` without a device.
    pub fn sample_rate(&self) -> Option<u32> {
        self.sample_rate
    }

    pub fn is_muted(&self) -> bool {
        self.shared.muted.load(Ordering::Relaxed)
    }

    pub fn set_muted(&self, muted: bool) {
        self.shared.muted.store(muted, Ordering::Relaxed);
    }

    /// Queues one emulated frame's samples at the given speed (unthrottled play is silent).
    pub fn push_frame(&mut self, samples: &[f32], speed: Speed) {
        if self.sample_rate.is_some() {
            self.feed.push(&self.shared, samples, speed);
        }
    }
}

impl Shared {
    fn new(capacity: usize) -> Self {
        Self {
            ring: Ring::new(capacity),
            muted: AtomicBool::new(false),
            starved: AtomicBool::new(true),
        }
    }
}

fn open_stream() -> Result<(cpal::Stream, Arc<Shared>, u32), String> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| "no default output device".to_owned())?;
    let supported = device
        .default_output_config()
        .map_err(|e| format!("no output configuration: {e}"))?;
    let config = supported.config();
    let rate = config.sample_rate;
    // A quarter second of room: far more than the target fill.
    let shared = Arc::new(Shared::new((rate as usize / 4).max(4096)));
    let stream = match supported.sample_format() {
        SampleFormat::F32 => build::<f32>(&device, config, &shared),
        SampleFormat::I16 => build::<i16>(&device, config, &shared),
        SampleFormat::U16 => build::<u16>(&device, config, &shared),
        SampleFormat::I32 => build::<i32>(&device, config, &shared),
        other => return Err(format!("unsupported sample format {other}")),
    }?;
    stream
        .play()
        .map_err(|e| format!("cannot start the stream: {e}"))?;
    Ok((stream, shared, rate))
}

fn build<T>(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    shared: &Arc<Shared>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels).max(1);
    let shared = Arc::clone(shared);
    let mut held = 0.0f32;
    let reported = AtomicBool::new(false);
    device
        .build_output_stream(
            config,
            move |out: &mut [T], _: &cpal::OutputCallbackInfo| {
                let muted = shared.muted.load(Ordering::Relaxed);
                for frame in out.chunks_mut(channels) {
                    if let Some(sample) = shared.ring.pop() {
                        held = sample;
                    } else {
                        held *= UNDERRUN_DECAY;
                        shared.starved.store(true, Ordering::Relaxed);
                    }
                    let value = T::from_sample(if muted { 0.0 } else { held });
                    frame.fill(value);
                }
            },
            move |error| {
                if !reported.swap(true, Ordering::Relaxed) {
                    eprintln!("warning: sound stream: {error}");
                }
            },
            None,
        )
        .map_err(|e| format!("cannot open the output stream: {e}"))
}

/// Turns frames of emulator samples into a steady stream for the ring.
struct Feed {
    target: usize,
    /// Position of the next output sample, relative to the start of the next input chunk
    /// (-1 is the last sample of the previous chunk).
    position: f64,
    previous: f32,
    decimated: Vec<f32>,
}

impl Feed {
    fn new(sample_rate: u32) -> Self {
        Self {
            target: (f64::from(sample_rate) * TARGET_FILL_SECONDS) as usize,
            position: 0.0,
            previous: 0.0,
            decimated: Vec::new(),
        }
    }

    fn push(&mut self, shared: &Shared, samples: &[f32], speed: Speed) {
        let step = match speed {
            Speed::RealTime => 1,
            // Every other sample: the sound plays an octave up but without gaps.
            Speed::Double => 2,
            Speed::Unthrottled => return,
        };
        if shared.starved.swap(false, Ordering::Relaxed) {
            // Start (or restart after a pause) with a cushion of silence.
            while shared.ring.len() < self.target && shared.ring.push(0.0) {}
            self.previous = 0.0;
            self.position = 0.0;
        }
        self.decimated.clear();
        self.decimated.extend(samples.iter().step_by(step));
        let fill = shared.ring.len() as f64;
        let target = self.target.max(1) as f64;
        let ratio = 1.0 + (MAX_ADJUST * (target - fill) / target).clamp(-MAX_ADJUST, MAX_ADJUST);
        self.resample(&shared.ring, ratio);
    }

    /// Linear interpolation at `ratio` output samples per input sample.
    fn resample(&mut self, ring: &Ring, ratio: f64) {
        let input = &self.decimated;
        let Some(&last) = input.last() else {
            return;
        };
        let n = input.len() as f64;
        let step = 1.0 / ratio;
        let at = |i: isize| -> f32 {
            if i < 0 {
                self.previous
            } else {
                input[i as usize]
            }
        };
        let mut p = self.position;
        while p < n - 1.0 {
            let i = p.floor();
            let frac = (p - i) as f32;
            let a = at(i as isize);
            let b = at(i as isize + 1);
            // A full ring drops samples; the ratio brings the fill back down.
            let _ = ring.push(a + (b - a) * frac);
            p += step;
        }
        self.position = p - n;
        self.previous = last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(ring: &Ring, n: usize) -> Vec<f32> {
        (0..n).filter_map(|_| ring.pop()).collect()
    }

    #[test]
    fn keeps_the_fill_near_the_target_when_the_clocks_differ() {
        let shared = Shared::new(48_000);
        let mut feed = Feed::new(48_000);
        let frame = vec![0.25f32; 800];
        // The card takes 0.3% more samples than the emulator makes.
        for _ in 0..3000 {
            feed.push(&shared, &frame, Speed::RealTime);
            drain(&shared.ring, 802);
        }
        let fill = shared.ring.len();
        assert!(
            (1000..=2400).contains(&fill),
            "fill {fill} drifted from the target {}",
            feed.target
        );
        assert!(!shared.starved.load(Ordering::Relaxed));
    }

    #[test]
    fn output_is_continuous_across_frames() {
        let shared = Shared::new(48_000);
        shared.starved.store(false, Ordering::Relaxed);
        let mut feed = Feed::new(48_000);
        let ramp: Vec<f32> = (0..1600).map(|i| i as f32 / 1600.0).collect();
        feed.push(&shared, &ramp[..800], Speed::RealTime);
        feed.push(&shared, &ramp[800..], Speed::RealTime);
        let out = drain(&shared.ring, 4000);
        assert!(out.len() > 1500);
        for pair in out.windows(2) {
            let jump = pair[1] - pair[0];
            assert!((0.0..0.002).contains(&jump), "jump {jump} in {pair:?}");
        }
    }

    #[test]
    fn double_speed_keeps_the_sample_rate_and_unthrottled_is_silent() {
        let shared = Shared::new(48_000);
        shared.starved.store(false, Ordering::Relaxed);
        let mut feed = Feed::new(48_000);
        feed.push(&shared, &[0.1; 800], Speed::Double);
        let n = shared.ring.len();
        assert!((395..=405).contains(&n), "{n} samples for a 2x frame");
        feed.push(&shared, &[0.1; 800], Speed::Unthrottled);
        assert_eq!(shared.ring.len(), n);
    }

    #[test]
    fn a_starved_ring_is_refilled_with_silence_first() {
        let shared = Shared::new(48_000);
        let mut feed = Feed::new(48_000);
        feed.push(&shared, &[0.5; 800], Speed::RealTime);
        let out = drain(&shared.ring, 10_000);
        assert!(out.len() >= feed.target + 790);
        assert!(out[..feed.target].iter().all(|s| *s == 0.0));
        assert!(out[feed.target + 10..]
            .iter()
            .all(|s| (*s - 0.5).abs() < 1e-6));
    }
}
