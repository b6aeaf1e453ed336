//! The frontend's composition (picture and marks, status band with the input display, the
//! dashboard's figures and charts, RAM inspector with a selected address) compared with a
//! committed image, and the key table in docs/keys.md kept in step with the bindings.
//!
//! Regenerate both after an intended change with
//! `UPDATE_GOLDEN=1 cargo test --features window --test frontend`. The key table needs the
//! window's key codes, so these tests come with the `window` feature (CI runs them).

#![cfg(feature = "window")]

mod common;
use common::cartridge;

use jewelbot_host::frontend::canvas::Canvas;
use jewelbot_host::frontend::changes::Changes;
use jewelbot_host::frontend::view::{self, Snapshot, Ui};
use jewelbot_host::frontend::{compose, layout, panel};
use jewelbot_host::frontend::{keys, screenshot};
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::{
    Buttons, Chart, Field, Figure, FrameContext, Inspection, Panel, Plugin, Ram, RomIdentity, Story,
};
use magic_jewelry::screen;
use std::path::{Path, PathBuf};

/// Frame at which the picture is taken.
const FRAME: u64 = 900;
/// Window size of the golden image, a 1280x720 screen: the picture at 2x with the band and
/// the dashboard below it, the inspector beside.
const WIDTH: usize = 1280;
const HEIGHT: usize = 720;
/// The address selected in the inspector: its full description shows.
const SELECTED: u16 = 0x5D;

/// Starts the game, then publishes deterministic lines, a mark on the falling column, an
/// inspection of a few documented addresses and a story of fixed figures and charts. (The real plug-in's lines hold timings, and its
/// wording belongs to the plug-in, not to the frontend under test.)
struct Overlay;

impl Plugin for Overlay {
    fn name(&self) -> &'static str {
        "overlay-test"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("any ROM".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let frame = ctx.frame_number();
        let start = (60..64).contains(&frame);
        ctx.set_buttons(if start { Buttons::START } else { Buttons::NONE });
        let (x, y) = (ctx.ram()[0x56], ctx.ram()[0x57] as i8);
        let status = ctx.status();
        status.lines = vec![
            format!("test overlay | frame {frame}"),
            "a long status line wraps at the picture's edge so nothing is cut off".into(),
        ];
        status.marks = vec![screen::OPEN_CARTRIDGE.column_mark(x.min(5), y.clamp(0, 12))];
    }
    fn inspect(&self, ram: &Ram) -> Inspection {
        let field = |address: u16, width: u16, label: &str, meaning: &str| Field {
            address,
            width,
            label: label.into(),
            value: (0..width)
                .map(|i| format!("{:02X}", ram[usize::from(address + i)]))
                .collect::<Vec<_>>()
                .join(" "),
            meaning: meaning.into(),
        };
        let playfield = (0..15)
            .map(|row| {
                let cells: String = (0..8)
                    .map(|col| match ram[0x380 + row * 8 + col] {
                        0 => '.',
                        v => char::from(b'0' + (v % 10)),
                    })
                    .collect();
                format!("{row:>2} {cells}")
            })
            .collect();
        Inspection {
            fields: vec![
                field(0x56, 1, "column x", "falling column x"),
                field(0x57, 1, "column y", "bottom jewel row"),
                field(0x59, 1, "fall timer", "counts up to the fall speed"),
                field(
                    0x5C,
                    3,
                    "current",
                    "colours of the falling column, top jewel first; all 7 for the wild column, \
                     and the top one 8 while a landed wild column is resolved",
                ),
                field(0x77, 8, "score", "decimal digits, lowest first, cut here"),
            ],
            panels: vec![Panel {
                title: "playfield bytes $0380-$03F7 (last digit)".into(),
                lines: playfield,
            }],
        }
    }

    fn story(&self, recent: usize) -> Story {
        let wave = |i: usize| ((i * 37) % 23) as f64;
        Story {
            figures: vec![
                Figure::new("columns", "1,234"),
                Figure::new("points a column", "1,397"),
                Figure::new("biggest chain", "4 steps, 16,106"),
                Figure::new("tallest stack", "7 now, max 11"),
                Figure::new("game overs", "0"),
            ],
            charts: vec![
                Chart {
                    label: "jewels on the board".into(),
                    values: (0..recent.min(300)).map(|i| 10.0 + wave(i) / 2.0).collect(),
                },
                Chart {
                    label: "points a column".into(),
                    values: (0..recent.min(300))
                        .map(|i| if i % 9 == 0 { 300.0 * wave(i) } else { 0.0 })
                        .collect(),
                },
            ],
        }
    }
}

/// Declines every ROM, so the band shows its notice.
struct Declines;

impl Plugin for Declines {
    fn name(&self) -> &'static str {
        "declines"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Err("not this game".into())
    }
    fn on_frame(&mut self, _: &mut FrameContext<'_>) {}
}

fn session() -> Session {
    let rom = cartridge().expect("the open cartridge loads");
    Session::new(
        rom,
        vec![Box::new(Overlay), Box::new(Declines)],
        SessionConfig::default(),
    )
    .expect("session")
}

/// Every part shown, an address selected, and the bar and message as the window sets them.
fn golden_ui(snapshot: &Snapshot) -> Ui {
    Ui {
        inspector: true,
        inspector_lines: panel::content_lines(&snapshot.inspections),
        selected: Some(SELECTED),
        bar: "AI plays | 1x | slot 1 | 60 fps | F1 help".into(),
        message: Some("saved slot 1".into()),
        ..Ui::default()
    }
}

fn compose_at_frame() -> Canvas {
    let mut session = session();
    let mut changes = Changes::new();
    while session.frame_number() < FRAME - 1 {
        session.run_frame().expect("frame");
    }
    let every_part = Ui {
        inspector: true,
        ..Ui::default()
    };
    let before = Snapshot::capture(&mut session, &every_part, true);
    changes.observe(&before.inspections, &before.ram, 1_000);
    session.run_frame().expect("frame");
    let snapshot = Snapshot::capture(&mut session, &every_part, true);
    // Changes from the last frame are lit at half strength.
    let now = 1_000 + jewelbot_host::frontend::changes::HIGHLIGHT_MS / 2;
    changes.observe(&snapshot.inspections, &snapshot.ram, 1_000);
    let ui = golden_ui(&snapshot);
    let mut canvas = Canvas::new(WIDTH, HEIGHT);
    compose::compose(
        &mut canvas,
        &snapshot,
        &changes,
        &ui,
        &keys::help_rows(&hosted_plugin_keys()),
        now,
        compose::Redraw::Whole,
    );
    canvas
}

/// The window keys of the plug-in the binary hosts, as the window builds them.
fn hosted_plugin_keys() -> Vec<keys::PluginKey> {
    use jewelbot_plugin::Plugin;
    let plugin = magic_jewelry::plugin::MagicJewelryPlugin::default();
    keys::plugin_keys(&plugin.options())
}

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

fn golden_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/frontend.png")
}

#[test]
fn composition_matches_the_golden_image() {
    let canvas = compose_at_frame();
    let path = golden_path();
    if updating() {
        screenshot::write_png(&path, WIDTH, HEIGHT, canvas.rgba()).expect("write golden");
        return;
    }
    let (w, h, golden) = screenshot::read_png(&path).unwrap_or_else(|e| {
        panic!("{e:#}; create it with UPDATE_GOLDEN=1 cargo test --test frontend")
    });
    assert_eq!((w, h), (WIDTH, HEIGHT), "golden image size");
    let differing = canvas
        .rgba()
        .chunks_exact(4)
        .zip(golden.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    if differing > 0 {
        let actual = Path::new(env!("CARGO_TARGET_TMPDIR")).join("frontend-actual.png");
        let _ = screenshot::write_png(&actual, WIDTH, HEIGHT, canvas.rgba());
        panic!(
            "{differing} pixels differ from {}; this run's picture is {} \
             (UPDATE_GOLDEN=1 cargo test --test frontend accepts it)",
            path.display(),
            actual.display()
        );
    }
}

#[test]
fn the_composition_shows_every_part() {
    let canvas = compose_at_frame();
    let mut session = session();
    let snapshot = Snapshot::capture(
        &mut session,
        &Ui {
            inspector: true,
            ..Ui::default()
        },
        true,
    );
    let layout = layout::layout(WIDTH, HEIGHT, &golden_ui(&snapshot));
    assert_eq!(layout.scale, 2, "the largest scale that fits 1280x720");
    let panel = layout.inspector.expect("inspector shown");
    let dashboard = layout.dashboard.expect("dashboard shown");
    let game = layout.game;
    // The parts sit side by side or one below the other, never over the picture.
    assert!(layout.band.y >= game.bottom() && dashboard.y >= layout.band.bottom());
    assert!(panel.x >= game.right() && panel.right() <= WIDTH as i32);
    // Every labelled address and every row of the board are drawn: the inspector's content
    // fits above its description and hex view.
    let lines = panel::content_lines(&snapshot.inspections);
    assert!(lines >= 5 + 15, "{lines} lines");
    assert!(
        ((2 + lines + layout::DETAIL_LINES) * layout::line_height(layout.text)) as i32
            <= panel.height,
        "{lines} lines do not fit {panel:?}"
    );
    // The dashboard's charts have bars.
    let bars = (dashboard.y..dashboard.bottom())
        .flat_map(|y| (dashboard.x..dashboard.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| canvas.pixel(x as usize, y as usize) == Some([90, 170, 255, 255]))
        .count();
    assert!(bars > 100, "{bars} pixels of bars");
    // The picture is not blank.
    let colours: std::collections::HashSet<_> = (game.y..game.bottom())
        .step_by(7)
        .flat_map(|y| (game.x..game.right()).step_by(7).map(move |x| (x, y)))
        .filter_map(|(x, y)| canvas.pixel(x as usize, y as usize))
        .collect();
    assert!(
        colours.len() >= 4,
        "only {} colours in the picture",
        colours.len()
    );
    // The panel has text on its background.
    let ink = (panel.y..panel.y + 40)
        .flat_map(|y| (panel.x + 8..panel.x + 200).map(move |x| (x, y)))
        .filter(|&(x, y)| canvas.pixel(x as usize, y as usize) == Some(view::ACCENT))
        .count();
    assert!(ink > 20, "no panel title");
}

#[test]
fn the_key_table_in_docs_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/keys.md");
    let table = keys::keys_markdown(&hosted_plugin_keys());
    if updating() {
        std::fs::write(&path, &table).expect("write docs/keys.md");
        return;
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == table,
        "docs/keys.md differs from the key bindings; regenerate it with \
         UPDATE_GOLDEN=1 cargo test --test frontend"
    );
}

/// The window command refuses its files before it looks for a display: an existing movie or
/// GIF path without `--force`, a damaged movie. Nothing is written.
#[test]
fn the_window_refuses_its_files_before_opening() {
    let dir = tempfile::tempdir().expect("temp dir");
    let taken = dir.path().join("taken");
    std::fs::write(&taken, "mine").expect("write");
    let damaged = dir.path().join("damaged.fm2");
    std::fs::write(&damaged, "version 3\n|0|bad|\n").expect("write");
    let window = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jewelbot"))
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .output()
            .expect("jewelbot runs");
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for flag in ["--record-movie", "--gif"] {
        let said = window(&[flag.as_ref(), taken.as_os_str()]);
        assert!(said.contains("exists; pass --force"), "{flag}: {said}");
    }
    let said = window(&["--movie".as_ref(), damaged.as_os_str()]);
    assert!(said.contains("damaged.fm2"), "{said}");
    assert!(!said.contains("no display"), "{said}");
    // With --force the files pass, and the missing display is what stops it.
    let said = window(&["--gif".as_ref(), taken.as_os_str(), "--force".as_ref()]);
    assert!(said.contains("no display"), "{said}");
    assert_eq!(std::fs::read_to_string(&taken).expect("read"), "mine");
}
