//! Size scaling of compile time (issues 16 and 17): synthetic shaders ([`synth`]) of four
//! shapes — straight-line arithmetic, a deep if/else nest, many loops, vec4 arithmetic —
//! at 1×, 4×, 16× and 64× their base size, compiled by gcnc (SPIR-V words → linked PAL
//! ELF, `gcnc::compile_spirv` with default options), with the time of each phase and each
//! pass divided by the SPIR-V words. Linear scaling keeps µs/word flat down a shape's rows;
//! the growth column is µs/word against the 1× row.
//!
//! The backend is also split into its parts ([`BACKEND_PARTS`]: selection, the register
//! allocator's liveness, assignment and spilling — the allocator times its own stages —,
//! the passes after allocation, encoding with the link). After each shape's table, the
//! µs/word growth from 1× to the largest size of every phase and part (those taking at
//! least 1 % of the largest compile): linear scaling keeps each near 1, and one far above
//! it points at a superlinear algorithm.
//!
//! Runs:
//! - `cargo bench --bench scaling` — every shape at 1×, 4×, 16×, 64× on gfx1100 wave32,
//!   each the median of up to 7 runs (fewer when they would take over 3 s, at least 3).
//!   Arguments after `--`: `--target gfx900|gfx1030|gfx1100[:w32|:w64]`, `--scales 1,4,16,64`,
//!   `--write DIR` (also write each shader to `DIR/SHAPE-SCALEx.spv`, e.g. to count
//!   instructions with callgrind on `gcnc compile`), and shape names (`straight`,
//!   `ifelse`, `loops`, `vec4`) to run only those.
//! - `cargo test --bench scaling` (no `--bench` argument: the short mode) — every shape at
//!   1× and 4×, one run each, so the generator and the compile of its output cannot rot.
//!
//! Times are wall-clock: run it on a quiet machine. Per-pass times come from
//! `Settings::time_passes`.

mod synth;

use gcnc::isa::{Gen, Target};
use gcnc::Phase;
use std::time::Instant;
use synth::Shape;

/// Units of a shape at 1×.
const BASE_UNITS: usize = 16;
/// Wall time the runs of one shader may take before fewer are done.
const BUDGET_S: f64 = 3.0;
const MAX_RUNS: usize = 7;
const MIN_RUNS: usize = 3;

struct Args {
    full: bool,
    target: Target,
    scales: Vec<usize>,
    shapes: Vec<Shape>,
    write: Option<std::path::PathBuf>,
}

fn shape_key(s: Shape) -> &'static str {
    match s {
        Shape::Straight => "straight",
        Shape::IfElse => "ifelse",
        Shape::Loops => "loops",
        Shape::Vectors => "vec4",
    }
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        full: false,
        target: Target::new(Gen::Gfx11),
        scales: Vec::new(),
        shapes: Vec::new(),
        write: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(s) = it.next() {
        match s.as_str() {
            "--bench" => a.full = true,
            "--target" => {
                let t = it.next().ok_or("--target needs a value")?;
                a.target = t.parse().map_err(|e| format!("--target {t}: {e}"))?;
            }
            "--write" => a.write = Some(it.next().ok_or("--write needs a directory")?.into()),
            "--scales" => {
                a.scales = it
                    .next()
                    .ok_or("--scales needs a value")?
                    .split(',')
                    .map(|x| x.trim().parse().map_err(|_| format!("bad scale {x}")))
                    .collect::<Result<_, _>>()?;
            }
            s if s.starts_with('-') => {} // cargo test's own flags
            s => match Shape::ALL.into_iter().find(|&x| shape_key(x) == s) {
                Some(x) => a.shapes.push(x),
                None => return Err(format!("unknown shape {s} (straight, ifelse, loops, vec4)")),
            },
        }
    }
    if a.scales.is_empty() {
        a.scales = if a.full {
            vec![1, 4, 16, 64]
        } else {
            vec![1, 4]
        };
    }
    if a.shapes.is_empty() {
        a.shapes = Shape::ALL.to_vec();
    }
    Ok(a)
}

/// The backend's parts in the table, by stage name (`Timing::pass`): selection, the
/// register allocator's liveness, assignment (with the live-range splits' copies) and
/// spilling (with the scratch setup), the passes after allocation (any other backend
/// stage: rewriting to registers, copies lowered, branches, waits, hazards, ...), and
/// encoding with the link.
const BACKEND_PARTS: [&str; 6] = ["select", "liveness", "assign", "spill", "post-RA", "emit"];

fn backend_part(pass: &str) -> usize {
    match pass {
        "isel" | "optimize_selected" | "insert_wqm" => 0,
        "ra_liveness" => 1,
        "ra_assign" => 2,
        "ra_spill" => 3,
        "encode" | "link" => 5,
        _ => 4,
    }
}

/// One shader's measurement: median total and per-phase times, per-pass medians.
struct Row {
    scale: usize,
    words: usize,
    total_ns: f64,
    phase_ns: [f64; 3],
    /// The backend's time by [`BACKEND_PARTS`] (medians of each part's runs).
    part_ns: [f64; 6],
    /// (pass, phase, median ns), in first-run order, summed over repeated passes.
    passes: Vec<(&'static str, Phase, f64)>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn measure(words: &[u32], target: Target, runs_max: usize) -> Result<Row, String> {
    let mut o = gcnc::Options::new(target);
    o.settings.time_passes = true;
    let mut totals = Vec::new();
    let mut phases: [Vec<f64>; 3] = Default::default();
    let mut parts: [Vec<f64>; 6] = Default::default();
    let mut passes: Vec<(&'static str, Phase, Vec<f64>)> = Vec::new();
    let start = Instant::now();
    for r in 0..runs_max {
        let t = Instant::now();
        let c = gcnc::compile_spirv(words, &o).map_err(|e| format!("{}: {e}", e.phase().name()))?;
        totals.push(t.elapsed().as_nanos() as f64);
        let mut ph = [0.0; 3];
        let mut pa = [0.0; 6];
        let mut this: Vec<(&'static str, Phase, f64)> = Vec::new();
        for tm in &c.timings {
            let ns = tm.elapsed.as_nanos() as f64;
            ph[tm.phase as usize] += ns;
            if tm.phase == Phase::Back {
                pa[backend_part(tm.pass)] += ns;
            }
            match this.iter_mut().find(|p| p.0 == tm.pass && p.1 == tm.phase) {
                Some(p) => p.2 += ns,
                None => this.push((tm.pass, tm.phase, ns)),
            }
        }
        for (i, p) in ph.into_iter().enumerate() {
            phases[i].push(p);
        }
        for (i, p) in pa.into_iter().enumerate() {
            parts[i].push(p);
        }
        for (name, phase, ns) in this {
            match passes.iter_mut().find(|p| p.0 == name && p.1 == phase) {
                Some(p) => p.2.push(ns),
                None => passes.push((name, phase, vec![ns])),
            }
        }
        let spent = start.elapsed().as_secs_f64();
        if r + 1 >= MIN_RUNS.min(runs_max) && spent * (r + 2) as f64 / (r + 1) as f64 > BUDGET_S {
            break;
        }
    }
    Ok(Row {
        scale: 0,
        words: words.len(),
        total_ns: median(&mut totals),
        phase_ns: phases.map(|mut v| median(&mut v)),
        part_ns: parts.map(|mut v| median(&mut v)),
        passes: passes
            .into_iter()
            .map(|(n, ph, mut v)| (n, ph, median(&mut v)))
            .collect(),
    })
}

fn us_per_word(ns: f64, words: usize) -> f64 {
    ns / 1e3 / words as f64
}

fn print_shape(shape: Shape, rows: &[Row]) {
    println!("\n### {} (unit: {} per 1×)\n", shape.name(), BASE_UNITS);
    println!(
        "µs per SPIR-V word; the backend's parts ({}) sum to its column.\n",
        BACKEND_PARTS.join(", ")
    );
    println!(
        "| size | words | total ms | front | middle | backend | {} | total | growth |",
        BACKEND_PARTS.join(" | ")
    );
    println!(
        "|---|---|---|---|---|---|{}---|---|",
        "---|".repeat(BACKEND_PARTS.len())
    );
    let base = us_per_word(rows[0].total_ns, rows[0].words);
    for r in rows {
        let t = us_per_word(r.total_ns, r.words);
        let cells = |v: &[f64]| -> String {
            v.iter()
                .map(|&ns| format!("{:.3}", us_per_word(ns, r.words)))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        println!(
            "| {}× | {} | {:.2} | {} | {} | {:.3} | {:.2} |",
            r.scale,
            r.words,
            r.total_ns / 1e6,
            cells(&r.phase_ns),
            cells(&r.part_ns),
            t,
            t / base
        );
    }
    // per-word growth of every phase and backend part, largest size against the first
    // (parts under 1 % of the largest compile are noise and left out)
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    let named = |r: &Row| -> Vec<(&'static str, f64)> {
        ["front", "middle", "backend"]
            .into_iter()
            .zip(r.phase_ns)
            .chain(BACKEND_PARTS.into_iter().zip(r.part_ns))
            .collect()
    };
    let growths: Vec<String> = named(first)
        .into_iter()
        .zip(named(last))
        .filter(|(_, l)| l.1 >= 0.01 * last.total_ns)
        .map(|(f, l)| {
            let g = us_per_word(l.1, last.words) / us_per_word(f.1.max(1.0), first.words);
            format!("{} ×{g:.2}", f.0)
        })
        .collect();
    println!(
        "\nµs/word growth {}× → {}×, by phase and part: {}",
        first.scale,
        last.scale,
        growths.join(", ")
    );
    let mut growth: Vec<(&str, f64, f64)> = last
        .passes
        .iter()
        .filter(|p| p.2 >= 0.02 * last.total_ns)
        .filter_map(|&(n, ph, ns)| {
            let f = first.passes.iter().find(|p| p.0 == n && p.1 == ph)?;
            let g = us_per_word(ns, last.words) / us_per_word(f.2.max(1.0), first.words);
            Some((n, g, ns / last.total_ns))
        })
        .collect();
    growth.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<String> = growth
        .iter()
        .take(4)
        .map(|(n, g, share)| format!("{n} ×{g:.1} ({:.0} % at {}×)", share * 100.0, last.scale))
        .collect();
    println!(
        "\nµs/word growth {}× → {}×, by pass: {}",
        first.scale,
        last.scale,
        top.join(", ")
    );
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("scaling: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "gcnc compile time by size, {} ({} mode)",
        args.target,
        if args.full { "full" } else { "short" }
    );
    let runs = if args.full { MAX_RUNS } else { 1 };
    let mut failed = Vec::new();
    for &shape in &args.shapes {
        let mut rows = Vec::new();
        for &scale in &args.scales {
            let words = synth::shader(shape, BASE_UNITS * scale);
            if let Some(dir) = &args.write {
                let f = dir.join(format!("{}-{scale}x.spv", shape_key(shape)));
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                if let Err(e) = std::fs::write(&f, bytes) {
                    failed.push(format!("{}: {e}", f.display()));
                }
            }
            match measure(&words, args.target, runs) {
                Ok(mut r) => {
                    r.scale = scale;
                    eprintln!("{} {scale}×: {:.2} ms", shape_key(shape), r.total_ns / 1e6);
                    rows.push(r);
                }
                Err(e) => failed.push(format!("{} {scale}×: {e}", shape_key(shape))),
            }
        }
        if !rows.is_empty() {
            print_shape(shape, &rows);
        }
    }
    if !failed.is_empty() {
        eprintln!("gcnc failed to compile:\n  {}", failed.join("\n  "));
        std::process::exit(1);
    }
}
