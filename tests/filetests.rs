//! Filetests: `tests/filetests/**/*.ir` (IR inline) and `**/*.test` (input named by an
//! `; INPUT:` line), one runner for every kind.
//!
//! A file starts with `; RUN: <step> [<step> …]`, then either the input IR or a line
//! `; INPUT: <path>` naming a `.ir` or `.spv` file relative to the repository root (SPIR-V
//! goes through the front-end first), then a line `; CHECK:` followed by the expected
//! output, verbatim. Steps:
//! - a pass name (see `gcnc::passes::PASSES`), or `pipeline` (the whole middle end);
//! - `divergence`: prints the IR with `; divergent` after every divergent value and
//!   `; divergent if` on ifs' condition definitions;
//! - `asm:<target>[:w32|:w64]` (e.g. `asm:gfx1100`): compiles the module through the
//!   backend for a whole compute pipeline and prints the linked code — a heading with the
//!   statistics, then the disassembly (LLVM's syntax) with branch targets as labels; several
//!   `asm:` steps print one section each. `asm:` steps come last.
//!
//! The verifier runs on the input and after every IR step; IR output must re-parse to
//! itself. `GCNC_BLESS=1 cargo test --test filetests` rewrites expectations.
//!
//! Backend filetests live in `tests/filetests/backend/`: one per backend test shader
//! (`tests/backend/*.ir`, `tests/shaders/compute/*.spv`), so that any change to selection,
//! allocation or scheduling shows as a reviewable diff.

use gcnc::ir::{parse_module, print_module, print_module_annotated, verify_module, Module, Stage};
use gcnc::isa::{Gen, Operand, Props, Target, Wave};
use gcnc::passes;
use gcnc::{compile_module, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "ir" || e == "test") {
            out.push(p);
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `asm:gfx1100`, `asm:gfx1030:w64` → the target (the generation's default wave if none).
fn parse_asm_step(step: &str) -> Result<Option<Target>, String> {
    let Some(rest) = step.strip_prefix("asm:") else {
        return Ok(None);
    };
    let mut it = rest.split(':');
    let gen: Gen = it.next().unwrap_or("").parse()?;
    let t = match it.next() {
        None => Target::new(gen),
        Some("w32") => Target::with_wave(gen, Wave::W32)?,
        Some("w64") => Target::with_wave(gen, Wave::W64)?,
        Some(w) => return Err(format!("bad wave `{w}` in `{step}`")),
    };
    Ok(Some(t))
}

/// The module a filetest names with `; INPUT:` (IR text or SPIR-V through the front-end).
fn load_input(path: &str) -> Result<Module, String> {
    let p = root().join(path);
    if path.ends_with(".spv") {
        let bytes = std::fs::read(&p).map_err(|e| format!("{path}: {e}"))?;
        let words = gcnc::front::spirv::words_from_bytes(&bytes).map_err(|e| e.to_string())?;
        // graphics shaders live in tests/shaders/{vert,frag}
        let stage = if path.starts_with("tests/shaders/vert/") {
            gcnc::ir::Stage::Vertex
        } else if path.starts_with("tests/shaders/frag/") {
            gcnc::ir::Stage::Fragment
        } else {
            gcnc::ir::Stage::Compute
        };
        let opts = gcnc::front::spirv::Options {
            stage: Some(stage),
            ..Default::default()
        };
        gcnc::front::spirv::translate(&words, &opts).map_err(|e| format!("{path}: {e}"))
    } else {
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{path}: {e}"))?;
        parse_module(&text).map_err(|e| format!("{path}: {e}"))
    }
}

/// One `asm:` section: a heading with the statistics, then the linked code of the
/// pipeline, one instruction per line, with `.L<n>:` before every branch target and the
/// target named after the branch. Offsets are left out so that a change shows only where
/// the code changed.
fn asm_section(m: &Module, t: Target) -> Result<String, String> {
    let mut o = Options::new(t);
    o.optimize = false;
    let err = |e: gcnc::Error| format!("{}: {e}", t.gen.mcpu());
    // (code, statistics, (offset, part name) of each part)
    let (text, s, parts) = if matches!(m.stage, Stage::Vertex | Stage::Fragment) {
        // a graphics stage alone, against the default pipeline state: its chain (fetch
        // prolog, main part, export epilog)
        let c = gcnc::compile_graphics::compile_stage_module(m, &o, &Default::default())
            .map_err(err)?;
        let parts = part_spans(&c.placed);
        (c.text, c.stats, parts)
    } else {
        let c = compile_module(m, &o).map_err(err)?;
        let parts = part_spans(&c.placed);
        (c.text, c.stats, parts)
    };
    let s = &s;
    let data_parts: Vec<(usize, usize)> =
        parts.iter().filter(|p| p.3).map(|p| (p.0, p.1)).collect();
    let end = parts.iter().map(|p| p.0 + p.1).max().unwrap_or(0);
    let mut insts = Vec::new();
    // from the first part: the entry's alignment padding before a prolog is not shown
    let mut off = parts.iter().map(|p| p.0).min().unwrap_or(0);
    while off < end {
        // a part's constant data (after its last instruction) is not decoded: go on at
        // the next part
        if let Some(p) = data_parts.iter().find(|p| p.0 + p.1 == off) {
            off = parts
                .iter()
                .map(|q| q.0)
                .filter(|&o| o > p.0)
                .min()
                .unwrap_or(end);
            continue;
        }
        let (inst, len) = gcnc::isa::decode(&text, off, t).map_err(|e| e.to_string())?;
        insts.push((off, inst));
        off += len;
    }
    // branch targets, numbered in address order
    let target_of = |off: usize, inst: &gcnc::isa::Inst| -> Option<usize> {
        if !inst.op.props().contains(Props::BRANCH) {
            return None;
        }
        match inst.operands.as_slice() {
            [Operand::Imm(v)] => Some((off as i64 + 4 + 4 * (*v as i16 as i64)) as usize),
            _ => None,
        }
    };
    let mut labels = BTreeMap::new();
    for (off, inst) in &insts {
        if let Some(to) = target_of(*off, inst) {
            labels.insert(to, 0);
        }
    }
    for (n, v) in labels.values_mut().enumerate() {
        *v = n;
    }
    let mut out = format!(
        "; {} wave{}: {} instructions, {} bytes, {} SGPRs, {} VGPRs, {} spilled SGPRs, {} spilled VGPRs, {} scratch bytes, {} LDS bytes\n",
        t.gen.mcpu(),
        t.wave.lanes(),
        s.instructions,
        s.code_size,
        s.sgprs,
        s.vgprs,
        s.spilled_sgprs,
        s.spilled_vgprs,
        s.scratch_size,
        s.lds_size
    );
    for (off, inst) in &insts {
        if let Some(p) = parts.iter().find(|p| p.0 == *off) {
            out.push_str(&format!("; part {}\n", p.2));
        }
        if let Some(n) = labels.get(off) {
            out.push_str(&format!(".L{n}:\n"));
        }
        let text = gcnc::isa::print(inst, t).map_err(|e| format!("{off:#x}: {e}"))?;
        match target_of(*off, inst).and_then(|to| labels.get(&to)) {
            Some(n) => out.push_str(&format!("  {text}  ; .L{n}\n")),
            None => out.push_str(&format!("  {text}\n")),
        }
    }
    Ok(out)
}

/// Each placed part's (offset, bytes of instructions, symbol, whether constant data
/// follows its instructions).
fn part_spans(placed: &[gcnc::link::layout::PlacedPart]) -> Vec<(usize, usize, String, bool)> {
    placed
        .iter()
        .map(|p| {
            let code = p.data_at.unwrap_or(p.size) as usize;
            (
                p.offset as usize,
                code,
                p.symbol.clone(),
                code != p.size as usize,
            )
        })
        .collect()
}

const CHECK: &str = "; CHECK:";

/// Where two outputs first differ: the line number and a few lines of each around it.
fn first_difference(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let at = (0..e.len().max(a.len()))
        .find(|&i| e.get(i) != a.get(i))
        .unwrap_or(e.len());
    let window =
        |v: &[&str]| v[at.saturating_sub(3).min(v.len())..(at + 4).min(v.len())].join("\n");
    format!(
        "first difference at output line {} (expected {} lines, got {})\n--- expected\n{}\n--- actual\n{}",
        at + 1,
        e.len(),
        a.len(),
        window(&e),
        window(&a)
    )
}

fn run_file(path: &Path, bless: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let first = text.lines().next().unwrap_or("");
    let steps: Vec<&str> = first
        .strip_prefix("; RUN:")
        .ok_or("first line must be `; RUN: <steps>`")?
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .collect();
    let (input, expected) = match text.find(&format!("\n{}\n", CHECK)) {
        Some(k) => (&text[..k + 1], &text[k + CHECK.len() + 2..]),
        None => (text.as_str(), ""),
    };
    let named = input
        .lines()
        .find_map(|l| l.strip_prefix("; INPUT:"))
        .map(str::trim);
    let mut m = match named {
        Some(p) => load_input(p)?,
        None => parse_module(input).map_err(|e| format!("input: {}", e))?,
    };
    verify_module(&m).map_err(|e| format!("input does not verify: {}", e))?;
    let mut annotated = None;
    let mut asm = None::<String>;
    for step in &steps {
        if let Some(t) = parse_asm_step(step)? {
            asm.get_or_insert_with(String::new)
                .push_str(&asm_section(&m, t)?);
            continue;
        }
        if asm.is_some() {
            return Err(format!("`{step}` after an `asm:` step"));
        }
        match *step {
            "pipeline" => passes::run_pipeline(&mut m).map_err(|e| e.to_string())?,
            "divergence" => {
                let d = passes::divergence::analyze(&m);
                annotated = Some(print_module_annotated(&m, &|fh, i| {
                    d.is_divergent(fh, i).then(|| "divergent".to_string())
                }));
            }
            name => {
                let p = passes::pass_by_name(name).ok_or(format!("unknown pass {:?}", name))?;
                passes::run_pass(&mut m, p).map_err(|e| e.to_string())?;
            }
        }
    }
    let actual = match asm {
        Some(a) => a,
        None => {
            let actual = annotated.unwrap_or_else(|| print_module(&m));
            let reparsed =
                parse_module(&actual).map_err(|e| format!("output does not parse: {}", e))?;
            if print_module(&reparsed) != print_module(&m) {
                return Err("output does not round-trip".into());
            }
            actual
        }
    };
    if actual != expected {
        if bless {
            std::fs::write(path, format!("{}{}\n{}", input, CHECK, actual)).unwrap();
            return Ok(());
        }
        return Err(format!(
            "output differs (GCNC_BLESS=1 to accept)\n{}",
            first_difference(expected, &actual)
        ));
    }
    Ok(())
}

/// Runs every filetest under `dir` (relative to `tests/filetests`) whose path passes `keep`.
fn run_dir(keep: &dyn Fn(&Path) -> bool) {
    let dir = root().join("tests/filetests");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.retain(|f| keep(f));
    assert!(!files.is_empty(), "no filetests found");
    let bless = std::env::var_os("GCNC_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = run_file(f, bless) {
            failures.push(format!("{}: {}", f.display(), e));
        }
    }
    println!("{} filetests, {} failed", files.len(), failures.len());
    if !failures.is_empty() {
        panic!("{}", failures.join("\n\n"));
    }
}

fn is_backend(f: &Path) -> bool {
    f.starts_with(root().join("tests/filetests/backend"))
}

#[test]
fn filetests() {
    run_dir(&|f| !is_backend(f));
}

#[test]
fn backend_filetests() {
    run_dir(&is_backend);
}

/// The backend test shaders: the IR ones (`tests/backend/*.ir`, compiled as they are) and
/// the SPIR-V compute corpus (through the front-end and the middle end).
fn backend_shaders() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for (dir, ext, steps) in [
        ("tests/backend", "ir", ""),
        ("tests/shaders/compute", "spv", "pipeline "),
        ("tests/shaders/images", "spv", "pipeline "),
    ] {
        let mut names: Vec<_> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        names.sort();
        for p in names {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let header = format!(
                "; RUN: {steps}asm:gfx900 asm:gfx1030 asm:gfx1100\n; INPUT: {dir}/{stem}.{ext}\n"
            );
            v.push((format!("{stem}.test"), header));
        }
    }
    v
}

/// Every backend test shader has a backend filetest (`GCNC_BLESS=1` creates missing ones,
/// which `backend_filetests` then fills in).
#[test]
fn every_backend_test_shader_has_a_filetest() {
    let dir = root().join("tests/filetests/backend");
    let bless = std::env::var_os("GCNC_BLESS").is_some_and(|v| v == "1");
    let mut missing = Vec::new();
    for (name, header) in backend_shaders() {
        let path = dir.join(&name);
        if path.exists() {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, format!("{header}{CHECK}\n")).unwrap();
        } else {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "no backend filetest for: {}",
        missing.join(", ")
    );
}

/// Every filetest input, whatever its RUN line, must survive the whole pipeline with the
/// verifier on after every pass (a cheap fuzz over hand-written shapes).
#[test]
fn every_filetest_input_survives_the_pipeline() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    let mut failures = Vec::new();
    files.retain(|f| f.extension().is_some_and(|e| e == "ir"));
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let input = match text.find(&format!("\n{}\n", CHECK)) {
            Some(k) => &text[..k + 1],
            None => &text,
        };
        let mut m = parse_module(input).unwrap();
        if let Err(e) = passes::run_pipeline(&mut m) {
            failures.push(format!("{}: {}", f.display(), e));
            continue;
        }
        // And the result prints and parses back to itself.
        let out = print_module(&m);
        match parse_module(&out) {
            Ok(m2) if print_module(&m2) == out => {}
            Ok(_) => failures.push(format!(
                "{}: pipeline output does not round-trip",
                f.display()
            )),
            Err(e) => failures.push(format!(
                "{}: pipeline output does not parse: {}",
                f.display(),
                e
            )),
        }
    }
    if !failures.is_empty() {
        panic!("{}", failures.join("\n"));
    }
}

/// An access the lowering cannot express is an error naming it, not IR isel chokes on.
#[test]
fn pipeline_reports_unlowered_accesses() {
    let text = "shader vertex
var @0 input f32 \"no_location\"
var @1 output f32 location=0

entry fn main() {
  block_0:
    32x1 %0 = deref_var @0 : input f32
    32x1 %1 = load_deref %0
    32x1 %2 = deref_var @1 : output f32
    store_deref %2, %1 write_mask=0x1
}
";
    let mut m = parse_module(text).unwrap();
    let e = passes::run_pipeline(&mut m).unwrap_err();
    assert_eq!(e.pass, "lower_explicit_io");
    assert!(e.err.msg.contains("unlowered"), "{}", e);
    assert!(e.err.inst.contains("load_deref"), "{}", e);
}
