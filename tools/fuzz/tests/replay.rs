//! Every fuzz target on its committed corpus (`fuzz/corpus/NAME/`), on the inputs that once
//! failed (`fuzz/regressions/NAME/`), and on a short seeded mutation run of the corpus: the
//! stable-toolchain share of the fuzzing that docs/fuzzing.md describes (the long
//! coverage-guided runs are `cargo +nightly fuzz run NAME`). A panic in a target is a
//! failure that names the input (and, for a mutation, its number: the run is seeded).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir`, sorted by name (none when it does not exist).
fn inputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut v: Vec<_> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// xorshift64*: the mutation run is the same on every machine.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One to four libFuzzer-like mutations of `d`; half of them leave the configuration
/// byte alone so every configuration of a target keeps being hit.
fn mutate(d: &mut Vec<u8>, rng: &mut Rng) {
    for _ in 0..1 + rng.below(4) {
        let lo = if rng.below(2) == 0 { 1.min(d.len()) } else { 0 };
        if d.len() <= lo {
            d.push(rng.next() as u8);
            continue;
        }
        let at = lo + rng.below(d.len() - lo);
        match rng.below(6) {
            0 => d[at] ^= 1 << rng.below(8),
            1 => d[at] = rng.next() as u8,
            2 => {
                // an interesting 32-bit value over an aligned word
                let w = [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 64, 4096][rng.below(7)];
                let a = at & !3;
                if a + 4 <= d.len() {
                    d[a..a + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
            3 => {
                let n = 1 + rng.below(16.min(d.len() - at));
                d.drain(at..at + n);
            }
            4 => {
                let src = rng.below(d.len());
                let chunk: Vec<u8> = d[src..(src + 1 + rng.below(16)).min(d.len())].to_vec();
                d.splice(at..at, chunk);
            }
            _ => d.truncate(at),
        }
    }
}

/// Runs `target` on each input: how many ran, and those that panicked with the message.
fn failures(target: &str, cases: impl Iterator<Item = (String, Vec<u8>)>) -> (usize, Vec<String>) {
    let mut n = 0;
    let mut bad = vec![];
    for (name, data) in cases {
        n += 1;
        let ran = catch_unwind(AssertUnwindSafe(|| gcnc_fuzz::run(target, &data)));
        assert!(
            !matches!(ran, Ok(false)),
            "no fuzz target is called {target}"
        );
        if let Err(p) = ran {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            bad.push(format!("{target}/{name}: {msg}"));
        }
    }
    (n, bad)
}

/// Mutations per corpus input: enough to reach each target's error paths in seconds at
/// the test profile's optimisation level.
const MUTATIONS: usize = 4;

fn check(target: &str) {
    let corpus = inputs(&fuzz_dir().join("corpus").join(target));
    assert!(
        corpus.len() >= 5,
        "fuzz/corpus/{target} has {} inputs: seed it with scripts/fuzz-seed.sh",
        corpus.len()
    );
    let regressions = inputs(&fuzz_dir().join("regressions").join(target));
    let (n_corpus, mut bad) = failures(target, corpus.iter().cloned());
    let (n_reg, b) = failures(target, regressions.into_iter());
    bad.extend(b);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    let mut mutated = vec![];
    for (name, data) in &corpus {
        for k in 0..MUTATIONS {
            let mut d = data.clone();
            mutate(&mut d, &mut rng);
            mutated.push((format!("{name} mutation {k}"), d));
        }
    }
    let (n_mut, b) = failures(target, mutated.into_iter());
    bad.extend(b);
    eprintln!("{target}: {n_corpus} corpus, {n_reg} regression, {n_mut} mutated inputs");
    assert!(
        bad.is_empty(),
        "{} inputs fail:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_target_has_a_test_and_a_libfuzzer_entry() {
    let here = include_str!("replay.rs");
    for t in gcnc_fuzz::TARGETS {
        assert!(
            here.contains(&format!("fn {t}()")),
            "no replay test for {t}"
        );
        let entry = fuzz_dir().join("fuzz_targets").join(format!("{t}.rs"));
        assert!(entry.exists(), "no libFuzzer entry {}", entry.display());
    }
}

#[test]
fn spirv() {
    check("spirv");
}
#[test]
fn ir_text() {
    check("ir_text");
}
#[test]
fn elf_link() {
    check("elf_link");
}
#[test]
fn cache_entry() {
    check("cache_entry");
}
#[test]
fn disasm() {
    check("disasm");
}
#[test]
fn asm() {
    check("asm");
}
#[test]
fn emu() {
    check("emu");
}
