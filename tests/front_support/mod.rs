//! Shared helpers for the front-end tests: corpus discovery, loading, oracle lookup.
#![allow(dead_code)]

#[path = "../support/mod.rs"]
pub mod support;

/// The oracle rule (fail under GCNC_REQUIRE_ORACLES=1, else skip with a notice).
#[allow(unused_imports)]
pub use support::oracle;

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every committed SPIR-V module under tests/shaders/*/, sorted.
pub fn corpus() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let dir = root().join("tests/shaders");
    for d in std::fs::read_dir(&dir).expect("tests/shaders") {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "spv") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

pub fn words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    gcnc::front::spirv::words_from_bytes(&bytes).unwrap()
}

pub fn shader(rel: &str) -> Vec<u32> {
    words(&root().join("tests/shaders").join(rel))
}

/// The GLSL source next to a .spv, if any.
pub fn source_of(spv: &Path) -> Option<PathBuf> {
    ["comp", "vert", "frag", "spvasm"]
        .iter()
        .map(|e| spv.with_extension(e))
        .find(|p| p.exists())
}

/// Instructions of a module: (word offset, opcode, word count).
pub fn insts(words: &[u32]) -> Vec<(usize, u16, usize)> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let wc = (words[at] >> 16) as usize;
        out.push((at, (words[at] & 0xffff) as u16, wc));
        if wc == 0 {
            break;
        }
        at += wc;
    }
    out
}

/// Tiny deterministic PRNG (xorshift64*).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
