//! IR filetests: `tests/filetests/**/*.ir`.
//!
//! A file starts with `; RUN: <step> [<step> …]`, then the input IR, then a line
//! `; CHECK:` followed by the expected output, verbatim. Steps are pass names (see
//! `gcnc::passes::PASSES`), `pipeline` (the whole middle end), or `divergence` (prints the
//! IR with `; divergent` after every divergent value and `; divergent if` on ifs' condition
//! definitions). The verifier runs on the input and after every step; the output must
//! re-parse to itself. `GCNC_BLESS=1 cargo test --test filetests` rewrites expectations.

use gcnc::ir::{parse_module, print_module, print_module_annotated, verify_module};
use gcnc::passes;
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
        } else if p.extension().is_some_and(|e| e == "ir") {
            out.push(p);
        }
    }
}

const CHECK: &str = "; CHECK:";

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
    let mut m = parse_module(input).map_err(|e| format!("input: {}", e))?;
    verify_module(&m).map_err(|e| format!("input does not verify: {}", e))?;
    let mut annotated = None;
    for step in &steps {
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
    let actual = annotated.unwrap_or_else(|| print_module(&m));
    let reparsed = parse_module(&actual).map_err(|e| format!("output does not parse: {}", e))?;
    if print_module(&reparsed) != print_module(&m) {
        return Err("output does not round-trip".into());
    }
    if actual != expected {
        if bless {
            std::fs::write(path, format!("{}{}\n{}", input, CHECK, actual)).unwrap();
            return Ok(());
        }
        return Err(format!(
            "output differs (GCNC_BLESS=1 to accept)\n--- expected\n{}\n--- actual\n{}",
            expected, actual
        ));
    }
    Ok(())
}

#[test]
fn filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    collect(&dir, &mut files);
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

/// Every filetest input, whatever its RUN line, must survive the whole pipeline with the
/// verifier on after every pass (a cheap fuzz over hand-written shapes).
#[test]
fn every_filetest_input_survives_the_pipeline() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    let mut failures = Vec::new();
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
