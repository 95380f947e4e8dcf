//! gcnc's fuzz targets, one function per entry point a user or a driver can hand bytes to.
//!
//! Design: each target is a plain function of a byte slice, so the same code runs under
//! libFuzzer (`fuzz/fuzz_targets/*.rs`, `cargo +nightly fuzz run NAME`, see
//! docs/fuzzing.md) and under the stable test suite, which replays the committed corpora
//! (`fuzz/corpus/NAME/`) and a short seeded mutation run of each (`tests/replay.rs`).
//! A target returns normally for every input: gcnc answers malformed input with a typed
//! error. A panic, an abort, a hang or an out-of-memory is a finding.
//!
//! Where an input starts with a configuration byte ([`config`]), it picks one of the five
//! target configurations (and, for SPIR-V, the compile mode); the rest is the payload.
//!
//! Beyond "no panic", the targets check invariants that hold for every input:
//! - `spirv`: a compile that succeeds gives the same bytes when repeated (determinism).
//! - `disasm`: whatever the decoder accepts prints; where the assembler takes that text
//!   back, the instruction it makes encodes, decodes and prints as the same text.
//! - `asm`: whatever the assembler accepts encodes, decodes and prints as text that
//!   parses back to the same encoding.
//! - `cache_entry`: a cache file that was not written by the cache is never returned, and a
//!   part read back through the cache is the part its key builds.

use gcnc::amdgpu::abi_graphics::GraphicsState;
use gcnc::cache::{EntryKind, ShaderCache};
use gcnc::isa::{self, Gen, Target, Wave};
use gcnc::link::PipelineState;
use gcnc::parts::{PartCache, PartKey};
use gcnc::Options;
use std::sync::OnceLock;

/// The names of all targets, as `fuzz/fuzz_targets/` and `fuzz/corpus/` spell them.
pub const TARGETS: &[&str] = &[
    "spirv",
    "ir_text",
    "elf_link",
    "cache_entry",
    "disasm",
    "asm",
    "emu",
];

/// Runs the target called `name` on `data`; `false` for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "spirv" => spirv(data),
        "ir_text" => ir_text(data),
        "elf_link" => elf_link(data),
        "cache_entry" => cache_entry(data),
        "disasm" => disasm(data),
        "asm" => asm(data),
        "emu" => emu(data),
        _ => return false,
    }
    true
}

/// The five configurations gcnc supports, chosen by the low bits of a byte.
pub fn config(b: u8) -> Target {
    let (gen, wave) = match b % 5 {
        0 => (Gen::Gfx9, Wave::W64),
        1 => (Gen::Gfx10, Wave::W32),
        2 => (Gen::Gfx10, Wave::W64),
        3 => (Gen::Gfx11, Wave::W32),
        _ => (Gen::Gfx11, Wave::W64),
    };
    Target { gen, wave }
}

/// Splits off the configuration byte.
fn split(data: &[u8]) -> Option<(u8, &[u8])> {
    data.split_first().map(|(b, rest)| (*b, rest))
}

/// Little-endian words of `bytes` (a trailing partial word is dropped).
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A vertex and a fragment shader of the test corpus: the fixed other half of a pipeline
/// whose fuzzed half is the input.
static FIXED_VS: &[u8] = include_bytes!("../../../tests/shaders/vert/fullscreen.spv");
static FIXED_FS: &[u8] = include_bytes!("../../../tests/shaders/frag/gfx_fs_varyings.spv");

/// SPIR-V → ELF. Configuration byte: bits 0–2 the target ([`config`]), bit 3 unlinked
/// (compute), bit 4 the input as both halves of a graphics pipeline (as the vertex shader
/// with a fixed fragment shader, then as the fragment shader with a fixed vertex shader)
/// instead of a compute shader.
pub fn spirv(data: &[u8]) {
    let Some((c, payload)) = split(data) else {
        return;
    };
    let w = words(payload);
    let opts = Options::new(config(c & 7));
    if c & 0x10 != 0 {
        let state = GraphicsState::default();
        let (vs, fs) = (words(FIXED_VS), words(FIXED_FS));
        let _ = gcnc::compile_graphics::compile_pipeline(&w, &fs, &opts, &state);
        let _ = gcnc::compile_graphics::compile_pipeline(&vs, &w, &opts, &state);
        return;
    }
    let compile = |w: &[u32]| {
        if c & 8 != 0 {
            gcnc::compile_spirv_unlinked(w, &opts)
        } else {
            gcnc::compile_spirv(w, &opts)
        }
    };
    if let Ok(first) = compile(&w) {
        let again = compile(&w).expect("a compile that succeeded fails when repeated");
        assert!(
            first.elf == again.elf,
            "the same input gave different bytes"
        );
    }
}

/// IR text → ELF, with the middle end (as `gcnc compile x.ir`). Configuration byte, then
/// the text (invalid UTF-8 is the caller's error and not gcnc's input).
pub fn ir_text(data: &[u8]) {
    let Some((c, payload)) = split(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(payload) else {
        return;
    };
    if let Ok(m) = gcnc::ir::parse::parse_module(text) {
        let _ = gcnc::compile_module(&m, &Options::new(config(c)));
    }
}

/// An unlinked ELF and a link state → the link stage (and the emulator's ELF loader).
/// Layout: a 16-bit little-endian length, that many bytes of state JSON, the ELF.
pub fn elf_link(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let n = u16::from_le_bytes([data[0], data[1]]) as usize;
    let rest = &data[2..];
    let (state, elf) = rest.split_at(n.min(rest.len()));
    let state = match std::str::from_utf8(state).map(PipelineState::from_json) {
        Ok(Ok(s)) => s,
        _ => PipelineState::default(),
    };
    let _ = gcnc::link::needed_parts(&[elf], &state);
    let _ = gcnc::link::link(&[elf], &state, &PartCache::new());
    if let Ok(e) = gcnc::binary::ElfFile::parse(elf) {
        let _ = e.to_code_object();
        let _ = e.pal_metadata();
    }
    let _ = gcnc_emu::dispatch::Dispatch::from_elf(elf, None);
}

/// A link state whose user-data layout differs from what an unlinked shader assumes
/// (descriptor set 0 and the push constants through the descriptor table), so the link
/// needs a CS prolog; scripts/fuzz-seed.sh links its seeds with the same state.
const PROLOG_STATE: &str = r#"{"descriptor_layout":[{"set":0,"binding":0,"kind":"buffer","offset":0,"stride":16},{"set":0,"binding":1,"kind":"buffer","offset":16,"stride":16}],"user_data":{"sgprs":[{"item":"descriptor_table","entry":0}],"table":[{"descriptor_set":0},{"descriptor_set_hi":0},"push_constant_pointer","push_constant_pointer_hi"]},"spec_constants":{"0":5}}"#;

/// The part key whose cache entry `cache_entry` replaces: the CS prolog of a corpus
/// shader compiled unlinked, linked with [`PROLOG_STATE`].
fn part_key() -> &'static PartKey {
    static KEY: OnceLock<PartKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let spv = include_bytes!("../../../tests/shaders/compute/push_constants.spv");
        let c = gcnc::compile_spirv_unlinked(&words(spv), &Options::new(config(3)))
            .expect("the corpus shader compiles unlinked");
        let state = PipelineState::from_json(PROLOG_STATE).expect("the prolog state parses");
        let keys = gcnc::link::needed_parts(&[&c.elf], &state).expect("its parts are known");
        keys.into_iter()
            .next()
            .expect("an unlinked shader needs a prolog")
    })
}

/// A cache file on disk. First byte: bit 0 set, the rest is taken as the whole file (a
/// torn, foreign or corrupted file); clear, the rest is a payload stored by the cache
/// itself under the part's key (a checksummed entry whose content is not a part).
pub fn cache_entry(data: &[u8]) {
    let Some((c, payload)) = split(data) else {
        return;
    };
    let key = part_key();
    let dir = scratch_dir();
    let _ = std::fs::remove_dir_all(&dir);
    let writer = ShaderCache::with_dir(&dir).expect("a cache directory");
    let ck = gcnc::cache::CacheKey::part(key);
    let path = writer
        .entry_path(EntryKind::Part, ck)
        .expect("a disk cache");
    if c & 1 != 0 {
        std::fs::write(&path, payload).expect("the entry file");
        let reader = ShaderCache::with_dir(&dir).expect("a cache directory");
        if let Some(got) = reader.get(EntryKind::Part, ck) {
            // only bytes the cache wrote can come back: the file must carry a valid header
            assert!(
                payload.ends_with(&got),
                "a file the cache did not write was read as an entry"
            );
        }
    } else {
        writer
            .put(EntryKind::Part, ck, payload.to_vec())
            .expect("a cache write");
    }
    let reader = ShaderCache::with_dir(&dir).expect("a cache directory");
    let part = reader.part(key).expect("a part its key builds");
    let built = key.build().expect("the part builds");
    assert!(
        part.code == built.code || part.to_code_object().write().ok().as_deref() == Some(payload),
        "a cache entry that is not the part's own bytes changed the part's code"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory of this process and thread for `cache_entry`.
fn scratch_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "gcnc-fuzz-cache-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ))
}

/// `inst` printed, assembled, encoded and decoded again; `None` where the assembler refuses
/// the printed text, as LLVM's refuses some of what its disassembler prints (a GFX9 VOP2
/// reading an SGPR and VCC breaks the constant-bus limit, yet decodes).
fn reassemble(inst: &isa::Inst, t: Target, origin: &str) -> Option<isa::Inst> {
    let text = isa::print(inst, t).ok()?;
    let back = isa::parse_line(&text, 1, t).ok()?;
    let back = back.unwrap_or_else(|| panic!("{origin}: printed `{text}` is not an instruction"));
    let bytes = isa::encode(&back, t)
        .unwrap_or_else(|e| panic!("{origin}: `{text}` assembles but does not encode: {e}"));
    let (again, len) = isa::decode(&bytes, 0, t).unwrap_or_else(|e| {
        panic!("{origin}: `{text}` encodes as {bytes:02x?}, which does not decode: {e}")
    });
    assert_eq!(
        len,
        bytes.len(),
        "{origin}: `{text}` decodes to another length"
    );
    Some(again)
}

/// The round trip of the printer, the assembler, the encoder and the decoder on an
/// instruction the assembler made: its text assembles back and prints the same.
fn round_trip(inst: &isa::Inst, t: Target, origin: &str) {
    let Ok(text) = isa::print(inst, t) else {
        return;
    };
    let again = reassemble(inst, t, origin)
        .unwrap_or_else(|| panic!("{origin}: printed `{text}` does not assemble"));
    let text2 = isa::print(&again, t)
        .unwrap_or_else(|e| panic!("{origin}: `{text}` re-decoded does not print: {e}"));
    assert_eq!(text, text2, "{origin}: the round trip changes the text");
}

/// Machine code → text (`gcnc disasm --raw`). Every decoded instruction prints; where the
/// assembler takes the text back, the instruction it makes round-trips exactly. (A
/// non-canonical encoding may print as text that assembles to the canonical one, as with
/// LLVM: a compressed export enabling channels 1 and 2 prints like one enabling 2 and 3.)
pub fn disasm(data: &[u8]) {
    let Some((c, code)) = split(data) else {
        return;
    };
    let t = config(c);
    let mut off = 0;
    while off < code.len() {
        let Ok((inst, len)) = isa::decode(code, off, t) else {
            return;
        };
        if let Some(canonical) = reassemble(&inst, t, "disasm") {
            round_trip(&canonical, t, "disasm");
        }
        off += len;
    }
}

/// Assembly text → bytes (`gcnc asm`), every accepted line round-tripped.
pub fn asm(data: &[u8]) {
    let Some((c, payload)) = split(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(payload) else {
        return;
    };
    let t = config(c);
    let _ = isa::parse(text, t);
    for (i, line) in text.lines().enumerate().take(256) {
        if let Ok(Some(inst)) = isa::parse_line(line, i as u32 + 1, t) {
            if isa::encode(&inst, t).is_ok() {
                round_trip(&inst, t, "asm");
            }
        }
    }
}

/// Arbitrary machine code on the emulator, one workgroup of one wave, with a small budget
/// and 64 KiB of memory behind the first user SGPR pair: every run ends in `Ok` or a
/// typed error, never a panic or a hang.
pub fn emu(data: &[u8]) {
    let Some((c, code)) = split(data) else {
        return;
    };
    use gcnc_emu::dispatch::{run, Dispatch};
    let mut d = Dispatch::new(config(c), code.to_vec());
    d.user_sgprs = vec![0x1000, 0, 0x1000, 0];
    d.lds_bytes = 4096;
    d.scratch_bytes = 256;
    d.budget = 20_000;
    d.dispatch_budget = 20_000;
    let mut mem = gcnc_emu::memory::Memory::new();
    mem.map(0x1000, 0x1_0000);
    let _ = run(&d, &mut mem);
}
