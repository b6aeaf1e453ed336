//! What the host's tests share: the tiny ROMs (from the host library) and running the binary.
#![allow(dead_code, unused_imports)]

pub use jewelbot_host::rom::tiny::*;

/// The open cartridge, as the command plays it when no ROM is given.
pub fn cartridge() -> Result<jewelbot_host::rom::RomImage, jewelbot_host::rom::RomError> {
    jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
}

/// Runs the `jewelbot` binary with `args`: (exit status, standard output, standard error).
pub fn jewelbot<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_jewelbot"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A path as a command-line argument.
pub fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}
