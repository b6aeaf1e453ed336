//! cargo-fuzz target: see `fuzz/README.md`. The harness is `jewelbot_fuzz::eval_files::run`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = jewelbot_fuzz::eval_files::run(data);
});
