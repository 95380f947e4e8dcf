//! `vkref compare` on a few shaders: the markdown it writes parses back into well-formed
//! tables whose numbers are the report's (no timing relation is asserted: timings
//! are the benchmark's output, not a specification); RADV's cache check is printed; a shader gcnc
//! cannot read is counted as rejected with its error; peak memory is measured for both
//! sides by the `vkref` executable and left out (not zeroed) where `malloc` is not
//! interposed.

use std::path::{Path, PathBuf};
use vkref::compare::{self, table, Compiler, Options};
use vkref::radv::{self, Family};

fn setup() -> Option<()> {
    radv::set_worker_exe(env!("CARGO_BIN_EXE_vkref"));
    vkref::oracle::radv()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/shaders/compute")
        .join(format!("{name}.spv"))
}

/// A directory with two corpus shaders and one truncated SPIR-V file.
fn shader_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vkref-compare-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    for n in ["arith_i32", "nested_if"] {
        std::fs::copy(corpus(n), d.join(format!("{n}.spv"))).unwrap();
    }
    let mut broken = std::fs::read(corpus("nested_if")).unwrap();
    broken.truncate(64);
    std::fs::write(d.join("broken.spv"), broken).unwrap();
    d
}

fn table<'t>(tables: &'t [table::Parsed], heading: &str) -> &'t table::Parsed {
    tables
        .iter()
        .find(|t| t.heading == heading)
        .unwrap_or_else(|| panic!("no table under {heading:?}"))
}

fn us(ns: u64) -> String {
    format!("{:.1}", ns as f64 / 1e3)
}

#[test]
fn the_table_parses_back_to_the_reports_numbers() {
    if setup().is_none() {
        return;
    }
    let dir = shader_dir("inproc");
    let opts = Options {
        targets: vec![Family::Navi21],
        reps: 3,
        ..Options::default()
    };
    let report = compare::run(&dir, &opts, |l| println!("{l}")).expect("compare");
    let md = table::render(&report);
    println!("{md}");
    let tables = table::parse(&md).expect("well-formed markdown tables");

    // Every shader has a row, in name order, then the total.
    let per = table(&tables, "Per shader, gfx1030 (wave32)");
    let names: Vec<&str> = per.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["arith_i32", "broken", "nested_if", "total (2)"]);
    let col = |n: &str| per.column(n).unwrap_or_else(|| panic!("no column {n}"));
    for (row, sh) in per.rows.iter().zip(&report.shaders) {
        assert_eq!(row[col("words")], sh.words.to_string());
        let cell = &sh.cells[0];
        for (c, head) in Compiler::ALL.iter().zip(["gcnc µs", "ACO µs", "LLVM µs"]) {
            let want = match cell.get(*c) {
                Ok(m) => us(m.median_ns()),
                Err(_) => "—".into(),
            };
            assert_eq!(row[col(head)], want, "{} {head}", sh.name);
        }
        let instrs: Vec<&str> = row[col("Instructions")].split(" / ").collect();
        assert_eq!(instrs.len(), 3, "{row:?}");
        for (c, v) in Compiler::ALL.iter().zip(&instrs) {
            match cell.get(*c) {
                Ok(m) => {
                    assert_eq!(*v, m.quality.instructions.to_string());
                    assert!(m.quality.instructions >= 3, "{} {c:?}", sh.name);
                    assert_eq!(m.times_ns.len(), 3, "{} {c:?}", sh.name);
                }
                Err(_) => assert_eq!(*v, "—"),
            }
        }
        // gcnc's heap is not measured in this test binary (no malloc interposer): absent,
        // not zero. RADV's is measured in the vkref worker.
        let peak: Vec<&str> = row[col("peak KiB")].split(" / ").collect();
        assert_eq!(peak[0], "—", "{row:?}");
        if cell.complete().is_some() {
            for v in &peak[1..] {
                assert!(v.parse::<u64>().unwrap() > 16, "{row:?}");
            }
        }
    }

    // The truncated file: rejected by gcnc's front-end, listed with the error.
    let broken = &report.shaders[1];
    let e = broken.cells[0].get(Compiler::Gcnc).as_ref().unwrap_err();
    assert!(e.starts_with("front-end:"), "{e}");
    let rejects = table(&tables, "gcnc rejects");
    let listed: Vec<&str> = rejects.rows.iter().map(|r| r[1].as_str()).collect();
    let expect: Vec<&str> = report
        .shaders
        .iter()
        .filter(|s| s.cells[0].get(Compiler::Gcnc).is_err())
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(listed, expect);
    assert!(listed.contains(&"broken"));

    // Summary: counts agree with the per-shader rows; ratio = total / total.
    let sum = table(&tables, "Summary");
    assert_eq!(sum.rows.len(), 1);
    let r = &sum.rows[0];
    let scol = |n: &str| sum.column(n).unwrap();
    let complete = report
        .shaders
        .iter()
        .filter(|s| s.cells[0].complete().is_some())
        .count();
    assert_eq!(r[scol("compiled by all")], complete.to_string());
    assert_eq!(r[scol("gcnc rejects")], expect.len().to_string());
    assert_eq!(r[scol("wave")], "32");
    let g: f64 = r[scol("gcnc total µs")].parse().unwrap();
    let a: f64 = r[scol("ACO total µs")].parse().unwrap();
    let ratio: f64 = r[scol("gcnc/ACO")].parse().unwrap();
    assert!((g / a - ratio).abs() < 0.002, "{g} / {a} vs {ratio}");

    // The phase table holds the report's per-phase medians, summed over the complete
    // shaders, and each phase's share of their sum. (Whether the phases add up to the
    // whole compile is a timing relation, not checked here: timings on a busy machine
    // are not a specification.)
    let ph = table(&tables, "gcnc time by phase");
    assert_eq!(ph.rows.len(), 1);
    let pcol = |n: &str| ph.column(n).unwrap_or_else(|| panic!("no column {n}"));
    let mut sums = [0u64; 3];
    for s in &report.shaders {
        if let Some(m) = s.cells[0].complete() {
            for (k, p) in sums.iter_mut().enumerate() {
                *p += m[0].unwrap().phase_median_ns(k);
            }
        }
    }
    let all: u64 = sums.iter().sum();
    let heads = ["front-end", "middle-end", "backend"];
    let shares = ["front %", "middle %", "backend %"];
    for k in 0..3 {
        assert_eq!(ph.rows[0][pcol(&format!("{} µs", heads[k]))], us(sums[k]));
        let share: f64 = ph.rows[0][pcol(shares[k])].parse().unwrap();
        let want = if all == 0 {
            0.0
        } else {
            100.0 * sums[k] as f64 / all as f64
        };
        assert!(
            (share - want).abs() <= 0.05,
            "{} {share} vs {want}",
            shares[k]
        );
    }

    // Helped/hurt: one row per statistic; helped + hurt + same = the complete shaders.
    let hh = table(&tables, "Helped / hurt against ACO");
    assert_eq!(hh.rows.len(), compare::STATS.len());
    for row in &hh.rows {
        let n: usize = (2..5).map(|i| row[i].parse::<usize>().unwrap()).sum();
        assert_eq!(n, complete, "{row:?}");
    }
    assert_eq!(table(&tables, "Compile time per SPIR-V word").rows.len(), 3);

    // Cache defeat, printed per backend: the table shows the report's figures and the
    // report's verdict. The verdict itself is a timing judgement made by the benchmark run
    // (`vkref compare` fails when it is not "defeated"); this test does not repeat it.
    let cache = table(&tables, "Cache defeat");
    assert_eq!(cache.rows.len(), 2);
    assert_eq!(report.cache.len(), 2);
    let ccol = |n: &str| cache.column(n).unwrap_or_else(|| panic!("no column {n}"));
    for (row, l) in cache.rows.iter().zip(&report.cache) {
        assert_eq!(row[ccol("backend")], l.backend.name(), "{row:?}");
        let c = l.check.as_ref().expect("the cache check ran");
        assert_eq!(c.same_module_ns.len(), c.fresh_module_ns.len(), "{row:?}");
        assert!(!c.same_module_ns.is_empty(), "{row:?}");
        assert_eq!(row[ccol("first µs")], us(c.first_ns), "{row:?}");
        let bench = l.bench_median_ns.expect("the benchmark timed the shader");
        assert_eq!(row[ccol("benchmark µs")], us(bench), "{row:?}");
        let verdict = &row[ccol("verdict")];
        match l.verdict() {
            Ok(()) => assert_eq!(verdict, "defeated", "{row:?}"),
            Err(_) => assert!(verdict.starts_with("NOT DEFEATED: "), "{row:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_measures_both_heaps_and_writes_what_it_prints() {
    if setup().is_none() {
        return;
    }
    let dir = shader_dir("cli");
    let out = dir.join("table.md");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_vkref"))
        .args([
            "compare",
            dir.to_str().unwrap(),
            "--targets",
            "gfx900",
            "--reps",
            "3",
        ])
        .args(["--only", "arith_i32,broken", "--out", out.to_str().unwrap()])
        .output()
        .expect("run vkref compare");
    let stderr = String::from_utf8_lossy(&o.stderr);
    // The cache-defeat verdict is a timing judgement: the command states it either way
    // and fails only for it (the table is written first); nothing else may fail.
    let line = stderr
        .lines()
        .find(|l| l.starts_with("cache check gfx900 "))
        .unwrap_or_else(|| panic!("no cache-check line: {stderr}"));
    if line.contains(": cache defeated: ") {
        assert!(o.status.success(), "{stderr}");
    } else {
        assert!(line.contains(": NOT DEFEATED: "), "{line}");
        assert!(!o.status.success(), "{stderr}");
        assert!(stderr.contains("cache-defeat check failed"), "{stderr}");
    }
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.contains("- machine: "), "{md}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), md);
    let tables = table::parse(&md).unwrap();
    let per = table(&tables, "Per shader, gfx900 (wave64)");
    let names: Vec<&str> = per.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["arith_i32", "broken", "total (1)"]);
    let peak = per.column("peak KiB").unwrap();
    let kib: Vec<u64> = per.rows[0][peak]
        .split(" / ")
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{:?}", per.rows[0])))
        .collect();
    assert!(kib.iter().all(|k| *k > 16), "{kib:?}");
    let mem = table(&tables, "Peak memory per compile");
    assert_eq!(mem.rows.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_lines_are_errors() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_vkref"))
        .args(["compare", "/nonexistent-dir", "--reps", "x"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--reps"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_vkref"))
        .args(["compare", "/nonexistent-dir"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent-dir"));
}

/// `--backends aco` leaves LLVM out (its columns `—`, no LLVM rows, no LLVM failures),
/// subdirectories are searched (a shader's name is its path below the directory), and a
/// corpus shader gets its executed-instruction count from the emulator.
#[test]
fn aco_only_over_a_directory_tree_with_dynamic_counts() {
    if setup().is_none() {
        return;
    }
    let dir = shader_dir("tree");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::rename(dir.join("nested_if.spv"), dir.join("sub/nested_if.spv")).unwrap();
    let opts = Options {
        targets: vec![Family::Navi21],
        reps: 1,
        backends: vec![radv::Backend::Aco],
        ..Options::default()
    };
    let report = compare::run(&dir, &opts, |l| println!("{l}")).expect("compare");
    let md = table::render(&report);
    println!("{md}");
    let tables = table::parse(&md).expect("well-formed markdown tables");
    let per = table(&tables, "Per shader, gfx1030 (wave32)");
    let names: Vec<&str> = per.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["arith_i32", "broken", "sub/nested_if", "total (2)"]);
    let col = |n: &str| per.column(n).unwrap_or_else(|| panic!("no column {n}"));
    for row in &per.rows {
        assert_eq!(row[col("LLVM µs")], "—", "{row:?}");
    }
    let sum = table(&tables, "Summary");
    assert_eq!(sum.rows[0][sum.column("compiled by all").unwrap()], "2");
    assert_eq!(sum.rows[0][sum.column("LLVM total µs").unwrap()], "—");
    // The broken file fails RADV's reflection too: listed for ACO, never for LLVM.
    let radv_failures = table(&tables, "RADV failures");
    let backends: Vec<(&str, &str)> = radv_failures
        .rows
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str()))
        .collect();
    assert_eq!(backends, [("ACO", "broken")]);
    let per_word = table(&tables, "Compile time per SPIR-V word");
    let compilers: Vec<&str> = per_word.rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(compilers, ["gcnc", "ACO"]);
    assert!(report.cache.iter().all(|l| l.backend == radv::Backend::Aco));
    // arith_i32 is a corpus shader: a count, the same as the emulator gives the corpus
    // case; nested_if moved under sub/ is no longer matched by name; broken is no corpus
    // shader.
    let executed = |i: usize| report.shaders[i].cells[0].executed_per_wave.clone();
    let n = executed(0).expect("a corpus shader").expect("it runs");
    assert!(n > 3, "{n}");
    assert_eq!(per.rows[0][col("gcnc executed/wave")], n.to_string());
    let spirv = std::fs::read(corpus("arith_i32")).unwrap();
    assert_eq!(
        compare::dynamic::executed_per_wave("arith_i32", &spirv, Family::Navi21),
        Some(Ok(n))
    );
    assert_eq!(executed(1), None);
    assert_eq!(executed(2), None);
    assert_eq!(per.rows[2][col("gcnc executed/wave")], "—");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--jobs 2`: every shader compiled once per compiler with two in flight; the table
/// counts what compiled and what failed, and states shaders per second.
#[test]
fn jobs_mode_reports_throughput() {
    if setup().is_none() {
        return;
    }
    let dir = shader_dir("jobs");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_vkref"))
        .args(["compare", dir.to_str().unwrap(), "--targets", "gfx1100"])
        .args(["--backends", "aco", "--jobs", "2"])
        .output()
        .expect("run vkref compare");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("gfx1100 gcnc ×2: 3/3"), "{stderr}");
    let md = String::from_utf8_lossy(&o.stdout);
    let tables = table::parse(&md).unwrap();
    let t = table(
        &tables,
        "Throughput: gcnc vs RADV with the same parallelism",
    );
    let c = |n: &str| t.column(n).unwrap_or_else(|| panic!("no column {n}"));
    let compilers: Vec<&str> = t.rows.iter().map(|r| r[c("compiler")].as_str()).collect();
    assert_eq!(compilers, ["gcnc", "ACO"]);
    for r in &t.rows {
        assert_eq!(r[c("jobs")], "2");
        assert_eq!(r[c("shaders")], "3");
        assert_eq!(r[c("compiled")], "2", "{r:?}");
        assert_eq!(r[c("failed")], "1", "{r:?}");
        let rate: f64 = r[c("shaders/s")].parse().unwrap();
        assert!(rate > 0.0, "{r:?}");
    }
    let failed = table(&tables, "Failed compiles");
    assert!(
        failed.rows.iter().all(|r| r[2] == "broken"),
        "{:?}",
        failed.rows
    );
    let _ = std::fs::remove_dir_all(&dir);
}
