#![no_main]
//! libFuzzer entry of `gcnc_fuzz::asm` (docs/fuzzing.md).
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcnc_fuzz::asm(data));
