#![no_main]
//! libFuzzer entry of `gcnc_fuzz::elf_link` (docs/fuzzing.md).
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcnc_fuzz::elf_link(data));
