//! Fuzz-style robustness: corpus modules with words mutated by a seeded PRNG must make the
//! front-end return `Ok` (IR that verifies) or an `Err`, never panic; and the middle end
//! must not panic on what the front-end accepted. The seed and the
//! mutation are printed on failure so a case can be replayed.

mod front_support;

use front_support::*;
use gcnc::front::spirv::{translate, Options};

/// One mutation of `w` chosen by `rng`.
fn mutate(w: &mut Vec<u32>, rng: &mut Rng) -> String {
    let n = w.len();
    // Half of the mutations hit function bodies, where the translator does most work.
    let body = insts(w)
        .iter()
        .find(|i| i.1 == rspirv::spirv::Op::Function as u16)
        .map(|i| i.0)
        .unwrap_or(5);
    let at = if rng.below(2) == 0 && body + 1 < n {
        body + 1 + rng.below(n - body - 1)
    } else {
        5 + rng.below(n - 5)
    };
    match rng.below(7) {
        0 => {
            let v = rng.next() as u32;
            w[at] = v;
            format!("word {at} = {v:#x}")
        }
        1 => {
            let bit = rng.below(32);
            w[at] ^= 1 << bit;
            format!("word {at} ^= bit {bit}")
        }
        2 => {
            // Small values: likely valid ids, literals and enumerants.
            let v = rng.below(64) as u32;
            w[at] = v;
            format!("word {at} = {v}")
        }
        3 => {
            w.truncate(at);
            format!("truncate at {at}")
        }
        4 => {
            // Change an instruction's word count (keeps the opcode).
            let list = insts(w);
            let i = list[rng.below(list.len())];
            let wc = rng.below(8) as u32;
            w[i.0] = (wc << 16) | (w[i.0] & 0xffff);
            format!("word count of instruction at {} = {wc}", i.0)
        }
        5 => {
            // Swap two instructions' words (reordering).
            let list = insts(w);
            let (a, b) = (list[rng.below(list.len())], list[rng.below(list.len())]);
            w.swap(a.0.min(n - 1), b.0.min(n - 1));
            format!("swap words {} and {}", a.0, b.0)
        }
        _ => {
            // Replace an id operand by another id below the bound.
            let v = 1 + rng.below(w[3].max(2) as usize - 1) as u32;
            w[at] = v;
            format!("word {at} = id %{v}")
        }
    }
}

#[test]
fn mutated_corpus_never_panics() {
    // GCNC_FUZZ_SEED / GCNC_FUZZ_ROUNDS allow longer local runs; CI uses the defaults.
    let seed = std::env::var("GCNC_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0f_9c4c_u64);
    let rounds: usize = std::env::var("GCNC_FUZZ_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rng = Rng(seed);
    let mut ok = 0usize;
    let mut errs = 0usize;
    let mut pipeline_errs = 0usize;
    for p in corpus() {
        let base = words(&p);
        for round in 0..rounds {
            let mut w = base.clone();
            let mut what = Vec::new();
            for _ in 0..1 + rng.below(3) {
                if w.len() > 6 {
                    what.push(mutate(&mut w, &mut rng));
                }
            }
            let r = std::panic::catch_unwind(|| translate(&w, &Options::default()));
            match r {
                Ok(Ok(m)) => {
                    gcnc::ir::verify_module(&m).unwrap();
                    // What the front-end accepts, the middle end must not crash on.
                    let r = std::panic::catch_unwind(move || {
                        let mut m = m;
                        gcnc::passes::run_pipeline(&mut m).is_ok()
                    });
                    match r {
                        Ok(true) => {}
                        Ok(false) => pipeline_errs += 1,
                        Err(_) => panic!(
                            "{} round {round}: pipeline panic after {:?}",
                            p.display(),
                            what
                        ),
                    }
                    ok += 1
                }
                Ok(Err(_)) => errs += 1,
                Err(_) => panic!("{} round {round}: panic after {:?}", p.display(), what),
            }
        }
    }
    eprintln!("fuzz: {ok} translated ({pipeline_errs} of them rejected by the middle end), {errs} rejected");
    assert!(errs > 0 && ok + errs > 0);
}
