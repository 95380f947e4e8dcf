//! gcnc's disassembler on the code real drivers emit: every compute corpus shader and every
//! vertex + fragment pipeline of the draw tests compiled by RADV (its ACO and its LLVM
//! backend, on the null device) for gfx900 wave64, gfx1030 wave32 and gfx1100 wave32; each instruction of the result (the code words RADV's disassembly
//! lists) is decoded and printed by gcnc and by llvm-mc-19, which must agree: the same text
//! and the same length, or both reject (`support::decode_like_llvm`, the rule every
//! decoder test uses). This is where issue 17 found 2.5–3 % of driver instructions
//! misprinted on GFX9 and GFX10.3: forms gcnc never emits, so round trips of its own code
//! could not see them.
//!
//! Needs RADV's null device and llvm-mc-19 (a failure in CI when missing).

#[path = "../../../tests/support/mod.rs"]
mod support;

use gcnc::isa::{Target, Wave};
use std::collections::BTreeSet;
use std::path::Path;
use vkref::compare::graphics;
use vkref::corpus;
use vkref::radv::{self, Backend, Config, Family, Worker};
use vkref::radv_graphics::{entry_of, Pair};
use vkref::reflect::Stage;

/// The code of a RADV disassembly as words, in order: every line that ends in
/// `; WORD WORD...` (eight hex digits each, ACO lower case, LLVM upper case), up to the
/// `s_code_end` padding. Mesa's own LLVM prints the words of what it cannot decode line
/// by line (`(invalid instruction)`), so lines are not instructions: the stream is split
/// again by [`split`].
fn code_words(asm: &str) -> Vec<u32> {
    let mut words = Vec::new();
    for l in asm.lines() {
        if l.trim_start().starts_with("s_code_end") {
            break;
        }
        let Some((_, tail)) = l.rsplit_once(';') else {
            continue;
        };
        let ws: Vec<&str> = tail.split_whitespace().collect();
        let hex = |w: &&str| w.len() == 8 && w.bytes().all(|c| c.is_ascii_hexdigit());
        if !ws.is_empty() && ws.iter().all(hex) {
            words.extend(ws.iter().map(|w| u32::from_str_radix(w, 16).unwrap()));
        }
    }
    words
}

/// The code split into instructions at the lengths gcnc decodes; where gcnc rejects a
/// word, the item is that word with the next four (what LLVM makes of the same bytes
/// decides whether the rejection is right) and the walk goes on at the next word.
fn split(words: &[u32], t: Target) -> Vec<Vec<u8>> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut items = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match gcnc::isa::decode(&bytes[at..], 0, t) {
            Ok((_, len)) if len > 0 => {
                items.push(bytes[at..at + len].to_vec());
                at += len;
            }
            _ => {
                items.push(bytes[at..bytes.len().min(at + 20)].to_vec());
                at += 4;
            }
        }
    }
    items
}

/// One configuration's result: its summary line and its disagreements.
fn check(mc: &str, family: Family, backend: Backend, wave: Wave) -> (String, Vec<String>) {
    let t = Target {
        gen: family.gen(),
        wave,
    };
    let cfg = Config::new(family, backend, wave);
    // a worker of its own (the pooled ones share one lock), so configurations run in
    // parallel
    let mut worker = Worker::spawn(cfg).unwrap_or_else(|e| panic!("{cfg}: {e}"));
    let cases = corpus::cases();
    // distinct instructions over the corpus, in a stable order
    let mut items: BTreeSet<Vec<u8>> = BTreeSet::new();
    let (mut shaders, mut crashed, mut unoffered) = (0, 0, 0);
    for c in &cases {
        match worker.compile(c.spirv, c.entry, 1) {
            Ok(r) => {
                let asm = r.disassembly().expect("RADV gives its assembly");
                let words = code_words(asm);
                assert!(
                    !words.is_empty(),
                    "{} on {cfg}: no instruction words in\n{asm}",
                    c.name
                );
                items.extend(split(&words, t));
                shaders += 1;
            }
            // RADV's GFX9 LLVM backend is known to crash on some shaders (tests/radv.rs);
            // they are counted, not compared, and the next shader gets a fresh worker
            Err(vkref::Error::Crashed { .. })
                if family == Family::Vega10 && backend == Backend::Llvm =>
            {
                crashed += 1;
                worker = Worker::spawn(cfg).unwrap_or_else(|e| panic!("{cfg}: {e}"));
            }
            // f16 sampled types (img_d16): no Vulkan device offers them, RADV included,
            // so RADV never compiles such a shader; any other missing feature is a failure
            // (the worker sends its error back as text)
            Err(vkref::Error::Usage(m))
                if m.contains(&format!(
                    "needs the device feature {};",
                    vkref::device::F16_IMAGES
                )) =>
            {
                unoffered += 1;
            }
            Err(e) => panic!("{} on {cfg}: {e}", c.name),
        }
    }
    // the vertex + fragment pipelines of the draw tests, RADV's default state for each
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let pipelines = graphics::pipelines(&root, &[]).expect("draw pipelines");
    let (mut stages, mut gfx_failed) = (0, Vec::new());
    for p in &pipelines {
        let (vs, fs) = (std::fs::read(&p.vs).unwrap(), std::fs::read(&p.fs).unwrap());
        let vs_entry = entry_of(&vs, Stage::Vertex).unwrap();
        let fs_entry = entry_of(&fs, Stage::Fragment).unwrap();
        let pair = Pair {
            vs: &vs,
            vs_entry: &vs_entry,
            fs: &fs,
            fs_entry: &fs_entry,
        };
        match worker.compile_graphics(&pair, 0) {
            Ok(g) => {
                for e in &g.executables {
                    let asm = e.compiled.disassembly().expect("RADV gives its assembly");
                    items.extend(split(&code_words(asm), t));
                    stages += 1;
                }
            }
            // RADV 22.3 crashes on some pipelines (barycentrics; GFX9 LLVM): counted, not
            // compared; a fresh worker for the next
            Err(e @ vkref::Error::Crashed { .. }) => {
                gfx_failed.push(format!("{}: {e}", p.name));
                worker = Worker::spawn(cfg).unwrap_or_else(|e| panic!("{cfg}: {e}"));
            }
            Err(e) => panic!("{} on {cfg}: {e}", p.name),
        }
    }
    assert!(
        gfx_failed.len() * 4 <= pipelines.len(),
        "{cfg}: RADV failed on {gfx_failed:?}"
    );
    let items: Vec<Vec<u8>> = items.into_iter().collect();
    let mut bad = Vec::new();
    let (agree, decoded) =
        support::decode_like_llvm(mc, t, &format!("{backend:?}"), &items, &mut bad);
    assert!(
        shaders >= cases.len() / 2,
        "{cfg}: only {shaders} shaders compiled"
    );
    assert!(
        decoded >= items.len() * 9 / 10,
        "{cfg}: LLVM decoded only {decoded} of {}",
        items.len()
    );
    let line = format!(
        "{cfg}: {shaders} compute shaders ({crashed} crashed RADV, {unoffered} need a feature no device offers), {stages} graphics stages \
         ({} pipelines crashed RADV), {} distinct instructions, {agree} agree ({decoded} \
         decoded by LLVM), {} do not",
        gfx_failed.len(),
        items.len(),
        items.len() - agree
    );
    (line, bad)
}

#[test]
fn radv_instructions_disassemble_as_llvm_does() {
    radv::set_worker_exe(env!("CARGO_BIN_EXE_vkref"));
    if vkref::oracle::radv().is_none() {
        return;
    }
    let Some(mc) = support::llvm_mc() else {
        return;
    };
    let configs = [
        (Family::Vega10, Wave::W64),
        (Family::Navi21, Wave::W32),
        (Family::Gfx1100, Wave::W32),
    ];
    let results: Vec<(String, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = configs
            .iter()
            .flat_map(|&(f, w)| [Backend::Aco, Backend::Llvm].map(|b| (f, b, w)))
            .map(|(f, b, w)| {
                let mc = &mc;
                s.spawn(move || check(mc, f, b, w))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let summary: Vec<&str> = results.iter().map(|(l, _)| l.as_str()).collect();
    let bad: Vec<&String> = results.iter().flat_map(|(_, b)| b).collect();
    println!("{}", summary.join("\n"));
    assert!(
        bad.is_empty(),
        "{}\n{}",
        summary.join("\n"),
        bad.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
