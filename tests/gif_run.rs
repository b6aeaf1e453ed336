//! `jewelbot run --headless --gif FILE`: the run's pictures as an animated GIF, never over a
//! file the user has without `--force`.

mod common;
use common::jewelbot;

/// Each picture's size and delay, in order.
fn pictures(path: &std::path::Path) -> Vec<(u16, u16, u16)> {
    let file = std::fs::File::open(path).expect("the GIF exists");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(file)
        .expect("a GIF header");
    let mut found = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a picture decodes") {
        found.push((frame.width, frame.height, frame.delay));
    }
    found
}

#[test]
fn a_run_becomes_a_gif_and_an_existing_file_is_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("run.gif");
    let gif_arg = path.to_str().expect("utf-8 temp path");
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "301",
        "--mode",
        "fast",
        "--gif",
        gif_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("151 pictures written"), "{stderr}");
    let bytes = std::fs::read(&path).expect("written");
    assert!(bytes.starts_with(b"GIF89a"));
    let found = pictures(&path);
    assert_eq!(found.len(), 151);
    assert!(found.iter().all(|&(w, h, _)| (w, h) == (256, 240)));
    let hundredths: u32 = found[..150].iter().map(|&(_, _, d)| u32::from(d)).sum();
    assert_eq!(hundredths, 500, "150 pictures are 5 seconds");

    let (code, stdout, stderr) =
        jewelbot(&["run", "--headless", "--frames", "20", "--gif", gif_arg]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(stdout.is_empty(), "it ran: {stdout}");
    assert_eq!(std::fs::read(&path).expect("kept"), bytes);

    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "20",
        "--gif",
        gif_arg,
        "--force",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(pictures(&path).len(), 10);
}

/// What a Lua script draws with FCEUX's `gui` is on the picture, so in the GIF, as FCEUX's
/// recordings keep it.
#[test]
fn a_scripts_drawings_are_in_the_gif() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("draw.lua");
    std::fs::write(
        &script,
        "while true do gui.box(10, 20, 40, 50, 'red', 'red') emu.frameadvance() end",
    )
    .expect("a script");
    let path = dir.path().join("drawn.gif");
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "30",
        "--lua",
        common::arg(&script),
        "--gif",
        common::arg(&path),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let file = std::fs::File::open(&path).expect("the GIF exists");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(file).expect("a GIF header");
    let mut last = None;
    while let Some(frame) = decoder.read_next_frame().expect("a picture decodes") {
        last = Some(frame.buffer.to_vec());
    }
    let rgba = last.expect("pictures");
    let pixel = |x: usize, y: usize| rgba[(y * 256 + x) * 4..(y * 256 + x) * 4 + 3].to_vec();
    // Inside, on the edge, and outside the box.
    assert_eq!(pixel(25, 35), [255, 0, 0]);
    assert_eq!(pixel(10, 20), [255, 0, 0]);
    assert_ne!(pixel(41, 51), [255, 0, 0]);
}
