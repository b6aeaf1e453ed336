//! What drawing the window's parts costs: one composition of a 1280x720 window (the screen the
//! window is fitted to by default) with every part shown, against one with every part hidden,
//! on a snapshot of the Magic Jewelry plug-in playing the open cartridge; the redraw of the game
//! and the band alone, which most pictures are (the panels are redrawn ten times a second);
//! and what capturing the snapshot costs with and without the inspector's and the dashboard's
//! content.
//! Run with `cargo bench --bench window`; the window's own `--fps-trial` measures the same in
//! a real window.

use criterion::{criterion_group, criterion_main, Criterion};
use jewelbot_host::frontend::canvas::Canvas;
use jewelbot_host::frontend::changes::Changes;
use jewelbot_host::frontend::compose::{self, Redraw};
use jewelbot_host::frontend::panel;
use jewelbot_host::frontend::view::{Snapshot, Ui};
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::hint::black_box;

/// Frames played before measuring, so a game is under way with a history to chart.
const WARM_UP: u32 = 6000;

fn session() -> Session {
    let rom =
        jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
            .expect("the open cartridge parses");
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("a mode");
    plugin.set_option("work", "1000").expect("a work budget");
    let plugins: Vec<Box<dyn Plugin>> = vec![Box::new(plugin)];
    let mut session = Session::new(rom, plugins, SessionConfig::default()).expect("loads");
    for _ in 0..WARM_UP {
        session.run_frame().expect("frame runs");
    }
    session
}

fn parts(shown: bool) -> Ui {
    Ui {
        inspector: shown,
        dashboard: shown,
        status: shown,
        input: shown,
        marks: shown,
        ..Ui::default()
    }
}

fn window(c: &mut Criterion) {
    let mut session = session();
    let mut group = c.benchmark_group("window");
    for shown in [true, false] {
        let name = if shown { "every part" } else { "no part" };
        let mut ui = parts(shown);
        let snapshot = Snapshot::capture(&mut session, &ui, true);
        ui.inspector_lines = panel::content_lines(&snapshot.inspections);
        let changes = Changes::new();
        let mut canvas = Canvas::new(1280, 720);
        group.bench_function(format!("compose, {name}"), |b| {
            b.iter(|| {
                compose::compose(&mut canvas, &snapshot, &changes, &ui, &[], 0, Redraw::Whole)
            });
        });
        group.bench_function(format!("capture, {name}"), |b| {
            b.iter(|| black_box(Snapshot::capture(&mut session, &ui, true)));
        });
        if shown {
            group.bench_function("compose the game and the band, every part", |b| {
                b.iter(|| {
                    compose::compose(
                        &mut canvas,
                        &snapshot,
                        &changes,
                        &ui,
                        &[],
                        0,
                        Redraw::GameAndBand,
                    )
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, window);
criterion_main!(benches);
