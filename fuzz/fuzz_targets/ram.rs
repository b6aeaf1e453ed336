//! cargo-fuzz target: see `fuzz/README.md`. The harness is `jewelbot_fuzz::ram::run`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = jewelbot_fuzz::ram::run(data);
});
