//! Passes preserve meaning: every filetest input that the reference interpreter
//! (`ir::interp`) can run is executed for several invocations before and after each
//! deref-level pass of the pipeline (everything up to `lower_explicit_io`), and the memory
//! it leaves must be identical, bit for bit.

use gcnc::ir::interp::{self, Invocation};
use gcnc::ir::{parse_module, Module};
use gcnc::passes::{self, Pass};
use std::path::Path;

fn inputs() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        // the inline-IR filetests (not the backend ones in a subdirectory)
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            let input = match t.find("\n; CHECK:\n") {
                Some(k) => t[..k + 1].to_string(),
                None => t,
            };
            (p.file_name().unwrap().to_string_lossy().into_owned(), input)
        })
        .collect()
}

const INVOCATIONS: [Invocation; 4] = [
    Invocation {
        local_id: [0, 0, 0],
        workgroup_id: [0, 0, 0],
    },
    Invocation {
        local_id: [1, 0, 0],
        workgroup_id: [0, 0, 0],
    },
    Invocation {
        local_id: [5, 2, 0],
        workgroup_id: [1, 0, 0],
    },
    Invocation {
        local_id: [3, 1, 0],
        workgroup_id: [0, 2, 0],
    },
];

fn sequence() -> Vec<Pass> {
    use passes::*;
    let opt: [Pass; 5] = [
        ("copy_prop", copy_prop::run),
        ("fold_constants", fold_constants::run),
        ("simplify_algebraic", simplify_algebraic::run),
        ("cse", cse::run),
        ("dce", dce::run),
    ];
    let mut s: Vec<Pass> = vec![
        ("inline", inline::run),
        ("lower_io_to_temporaries", lower_io_to_temporaries::run),
        ("copy_prop", copy_prop::run),
        ("dce", dce::run),
        ("mem2reg", mem2reg::run),
    ];
    s.extend(opt);
    s.extend(opt);
    s.push(("unroll_loops", unroll_loops::run));
    s.extend(opt);
    s.push(("mem2reg", mem2reg::run));
    s.extend(opt);
    s.push(("if_to_select", if_to_select::run));
    s.extend(opt);
    s
}

fn run_all(m: &Module) -> Option<Vec<interp::Memory>> {
    INVOCATIONS
        .iter()
        .map(|&inv| interp::run(m, inv).ok())
        .collect()
}

#[test]
fn deref_level_passes_preserve_memory_effects() {
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for (name, text) in inputs() {
        let mut m = parse_module(&text).unwrap();
        let Some(reference) = run_all(&m) else {
            continue;
        };
        for pass in sequence() {
            passes::run_pass(&mut m, pass).unwrap();
            match run_all(&m) {
                Some(now) if now == reference => {}
                Some(_) => {
                    failures.push(format!("{}: memory differs after {}", name, pass.0));
                    break;
                }
                None => {
                    failures.push(format!("{}: cannot run after {}", name, pass.0));
                    break;
                }
            }
        }
        checked.push(name);
    }
    println!("checked: {:?}", checked);
    assert!(
        checked.len() >= 10,
        "too few filetests are interpretable: {:?}",
        checked
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn interpreter_sees_a_wrong_transformation() {
    // The check above is only meaningful if a real change in behaviour is caught.
    let text = inputs()
        .into_iter()
        .find(|(n, _)| n == "mem2reg.ir")
        .unwrap()
        .1;
    let m = parse_module(&text).unwrap();
    let before = run_all(&m).unwrap();
    // Drop the last store: data[x] then keeps the value stored before it.
    let broken = text.replace("    store_deref %24, %22 write_mask=0x1\n", "");
    assert_ne!(broken, text);
    let m2 = parse_module(&broken).unwrap();
    assert_ne!(run_all(&m2).unwrap(), before);
}

/// The whole pipeline — including `lower_explicit_io`, `vectorize_mem` and
/// `scalarize_mem` — leaves the same buffer bytes as the deref-form input. The
/// interpreter finds deref-form buffer bytes through its own walk of the explicit layout,
/// so this checks the lowering's offsets, strides, row-major columns, bools and
/// descriptor indices, and the access splitting/merging after it.
#[test]
fn whole_pipeline_preserves_buffer_effects() {
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for (name, text) in inputs() {
        let m = parse_module(&text).unwrap();
        let Some(reference) = run_all(&m) else {
            continue;
        };
        // Contraction (`fuse_multiply_add`) rounds once where the input rounds twice, a
        // change SPIR-V allows but bytes compared exactly would report: every ALU op is
        // marked `exact` (NoContraction) so this checks the lowering, not the rounding.
        let mut lowered = m.clone();
        for (_, f) in lowered.functions.iter_mut() {
            for (_, d) in f.insts.iter_mut() {
                d.exact = matches!(d.kind, gcnc::ir::InstKind::Alu { .. });
            }
        }
        passes::run_pipeline(&mut lowered).unwrap();
        let results: Option<Vec<_>> = INVOCATIONS
            .iter()
            .map(|&inv| interp::run(&lowered, inv).ok())
            .collect();
        let Some(results) = results else {
            // Lowered stage I/O is not modelled; compute shaders are.
            continue;
        };
        for (r, l) in reference.iter().zip(&results) {
            if r.buffers != l.buffers {
                failures.push(format!(
                    "{}: buffer bytes differ\n--- reference\n{:?}\n--- lowered\n{:?}",
                    name, r.buffers, l.buffers
                ));
                break;
            }
        }
        checked.push(name);
    }
    println!("checked: {:?}", checked);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked.len() >= 8, "too few: {:?}", checked);
}
