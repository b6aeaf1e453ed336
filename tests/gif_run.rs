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
