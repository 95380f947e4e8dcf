#![no_main]
//! libFuzzer entry of `gcnc_fuzz::emu` (docs/fuzzing.md).
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcnc_fuzz::emu(data));
