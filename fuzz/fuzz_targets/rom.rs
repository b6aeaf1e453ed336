//! cargo-fuzz target: see `fuzz/README.md`. The harness is `jewelbot_fuzz::rom::run`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = jewelbot_fuzz::rom::run(data);
});
