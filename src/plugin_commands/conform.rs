//! `jewelbot conform`: the conformance scenarios on a ROM.

use crate::setup::open_rom;
use jewelbot_host::session::{Session, SessionConfig};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Runs every conformance scenario, printing a line for each as it finishes.
pub fn conform(path: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    // No plug-in: the scenarios press the buttons themselves.
    let mut session = Session::new(open_rom(path)?, Vec::new(), SessionConfig::default())?;
    let rom = session.rom().clone();
    let identity = rom.identity();
    let limit = magic_jewelry_lab::conform::FRAME_LIMIT;
    let scenarios = magic_jewelry::conformance::scenarios().len() as u64;
    let bar = jewelbot_plugin::progress::bar(scenarios, "scenarios");
    let report =
        magic_jewelry_lab::conform::run_with_progress(&mut session, &identity, limit, out, &bar)?;
    Ok(if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
