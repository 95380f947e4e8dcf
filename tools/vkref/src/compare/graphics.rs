//! `vkref compare --graphics DIR`: VS+FS pipelines, gcnc against RADV/ACO and RADV/LLVM —
//! compile time per pipeline and each stage's code statistics — as markdown tables of the
//! compute comparison's shape ([`super::table`]).
//!
//! Design:
//! - The pipelines of a directory ([`pipelines`], subdirectories included): every
//!   `NAME.vert.spv` with a `NAME.frag.spv` beside it, named `NAME`; and every draw
//!   description (`*.json`, docs/draw.md) for its vertex + fragment pair, named
//!   `VS+FS` after the two files' stems, each distinct pair once. Sorted by name.
//! - Both sides compile the pair with the default graphics state (not a description's):
//!   gcnc as `gcnc compile A.vert.spv B.frag.spv` does (`compile_graphics::compile_pipeline`
//!   with an empty `GraphicsState`, SPIR-V words → pipeline ELF bytes), RADV
//!   `vkCreateGraphicsPipelines` with the same state made explicit
//!   ([`crate::radv_graphics::default_state`]), fresh modules each time, caches off.
//! - Wave size like with like, as compute ([`super::wave_for`]): RADV's workers ask for
//!   wave32 on GFX10.3/GFX11 for the vertex (NGG) and fragment stages too; the subgroup
//!   size RADV reports per stage is recorded and printed beside gcnc's.
//! - Statistics per stage under RADV's names: the VS is RADV's executable that runs the
//!   vertex stage (a hardware VS on GFX9, the NGG shader on GFX10.3/GFX11, as gcnc's), the
//!   FS the fragment one; gcnc's count each stage's whole chain (prolog, main part,
//!   epilog; src/compile_graphics.rs).
//! - Times: medians of interleaved runs after an untimed warm-up, within the compute
//!   comparison's budget per compiler ([`super::runs_within_budget`]). Peak memory and the
//!   cache-defeat check are the compute comparison's (same workers, same module salting)
//!   and are not repeated here.
//!
//! Invariant: aggregates cover only the pipelines every compiler that ran compiled on
//! that target; output is deterministic apart from the measured numbers.

use super::summary::{median_f, ratio};
use super::table::{cell_text, header, opt_us, row, time_cells, x};
use super::{
    config, first_line, gcnc_quality, median, radv_quality, runs_within_budget, wave_for,
    with_deadline, Compiler, Options, Quality, NOT_RUN,
};
use crate::radv::{Backend, Family};
use crate::radv_graphics::{entry_of, GraphicsCompiled, Pair};
use crate::reflect::Stage;
use ash::vk;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One pipeline's two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineFiles {
    pub name: String,
    pub vs: PathBuf,
    pub fs: PathBuf,
}

/// The pipelines under `dir` (module doc), filtered by `only` (names).
pub fn pipelines(dir: &Path, only: &[String]) -> Result<Vec<PipelineFiles>, String> {
    let mut found: BTreeMap<String, PipelineFiles> = BTreeMap::new();
    let mut pairs_seen = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in rd {
            let p = e.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            let file = p.file_name().unwrap_or_default().to_string_lossy();
            if let Some(stem) = file.strip_suffix(".vert.spv") {
                let fs = p.with_file_name(format!("{stem}.frag.spv"));
                if fs.is_file() {
                    let rel = p.strip_prefix(dir).unwrap_or(&p).with_file_name(stem);
                    let name = rel.to_string_lossy().into_owned();
                    found.insert(
                        name.clone(),
                        PipelineFiles {
                            name,
                            vs: p.clone(),
                            fs,
                        },
                    );
                }
            } else if file.ends_with(".json") {
                let draw = gcnc_emu::draw::desc::Desc::load(&p)
                    .map_err(|e| format!("{}: {e}", p.display()))?;
                let pair = (draw.vertex_spv, draw.fragment_spv);
                if pairs_seen.contains(&pair) {
                    continue;
                }
                let stem = |f: &Path| {
                    f.file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                };
                let name = format!("{}+{}", stem(&pair.0), stem(&pair.1));
                found.insert(
                    name.clone(),
                    PipelineFiles {
                        name,
                        vs: pair.0.clone(),
                        fs: pair.1.clone(),
                    },
                );
                pairs_seen.push(pair);
            }
        }
    }
    let out: Vec<PipelineFiles> = found
        .into_values()
        .filter(|p| only.is_empty() || only.contains(&p.name))
        .collect();
    if out.is_empty() {
        return Err(format!(
            "no vertex + fragment pairs (NAME.vert.spv + NAME.frag.spv, or draw descriptions) under {}",
            dir.display()
        ));
    }
    Ok(out)
}

/// The stages of a pipeline, in table order.
pub const STAGES: [&str; 2] = ["VS", "FS"];

/// The per-stage statistics of the graphics tables: (column name, accessor).
pub const GFX_STATS: [(&str, super::StatFn); 4] = [
    ("Instructions", |q| q.instructions),
    ("VGPRs", |q| q.vgprs),
    ("SGPRs", |q| q.sgprs),
    ("Spills", |q| q.spilled_sgprs + q.spilled_vgprs),
];

/// One compiler's result for one pipeline on one target.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The timed runs, nanoseconds, in the order taken.
    pub times_ns: Vec<u64>,
    /// VS, FS.
    pub stages: [Quality; 2],
    /// The wave size of each stage's code (RADV: the executable's subgroup size).
    pub waves: [u32; 2],
}

impl Measured {
    pub fn median_ns(&self) -> u64 {
        median(&self.times_ns)
    }
}

/// A compiler's outcome on one pipeline and target.
pub type Outcome = Result<Measured, String>;

/// One pipeline on one target: gcnc, ACO, LLVM (indexed by `Compiler as usize`).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub family: Family,
    pub outcomes: [Outcome; 3],
}

impl Cell {
    /// Every compiler that ran compiled: the measurements, `None` for one left out.
    pub fn complete(&self) -> Option<[Option<&Measured>; 3]> {
        let mut m = [None; 3];
        for (i, o) in self.outcomes.iter().enumerate() {
            match o {
                Ok(x) => m[i] = Some(x),
                Err(e) if e == NOT_RUN && i != 0 => {}
                Err(_) => return None,
            }
        }
        Some(m)
    }
}

/// One pipeline across the targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    pub name: String,
    /// SPIR-V words of both stages.
    pub words: usize,
    pub cells: Vec<Cell>,
}

/// Everything a graphics comparison measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub targets: Vec<Family>,
    pub reps: u32,
    pub pipelines: Vec<Pipeline>,
    pub elapsed_s: f64,
    pub cpu: String,
    pub load: (f64, f64),
}

/// Runs the comparison; `progress` gets one line per pipeline and target.
pub fn run(dir: &Path, opts: &Options, mut progress: impl FnMut(&str)) -> Result<Report, String> {
    let start = Instant::now();
    let load_start = super::load_average();
    let files = pipelines(dir, &opts.only)?;
    let reps = opts.reps.max(1);
    let mut out = Vec::new();
    for f in &files {
        let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
        let (vs, fs) = (read(&f.vs)?, read(&f.fs)?);
        let mut cells = Vec::new();
        for &family in &opts.targets {
            let cell = measure_cell(&vs, &fs, family, reps, &opts.backends);
            progress(&progress_line(&f.name, &cell));
            cells.push(cell);
        }
        out.push(Pipeline {
            name: f.name.clone(),
            words: (vs.len() + fs.len()) / 4,
            cells,
        });
    }
    Ok(Report {
        targets: opts.targets.clone(),
        reps,
        pipelines: out,
        elapsed_s: start.elapsed().as_secs_f64(),
        cpu: super::cpu_description(),
        load: (load_start, super::load_average()),
    })
}

fn progress_line(name: &str, cell: &Cell) -> String {
    let parts: Vec<String> = Compiler::ALL
        .iter()
        .filter(|&&c| !matches!(&cell.outcomes[c as usize], Err(e) if e == NOT_RUN))
        .map(|&c| match &cell.outcomes[c as usize] {
            Ok(m) => format!("{} {:.1} us", c.name(), m.median_ns() as f64 / 1e3),
            Err(e) => format!("{} failed ({})", c.name(), first_line(e)),
        })
        .collect();
    format!("{name} {}: {}", cell.family.gfx_target(), parts.join(", "))
}

/// gcnc, SPIR-V bytes of both stages → pipeline ELF, as `gcnc compile A.vert B.frag`.
pub fn gcnc_pipeline(
    vs: &[u8],
    fs: &[u8],
    family: Family,
) -> Result<gcnc::compile_graphics::CompiledPipeline, String> {
    let words =
        |b: &[u8]| gcnc::front::spirv::words_from_bytes(b).map_err(|e| format!("front-end: {e}"));
    let o = gcnc::Options::new(gcnc::isa::Target {
        gen: family.gen(),
        wave: wave_for(family),
    });
    gcnc::compile_graphics::compile_pipeline(&words(vs)?, &words(fs)?, &o, &Default::default())
        .map_err(|e| format!("{}: {e}", e.phase().name()))
}

/// RADV's per-stage statistics and wave sizes of a captured pipeline.
fn radv_stages(c: &GraphicsCompiled) -> Result<([Quality; 2], [u32; 2]), String> {
    let mut q = [Quality::default(); 2];
    let mut w = [0; 2];
    for (i, flag) in [vk::ShaderStageFlags::VERTEX, vk::ShaderStageFlags::FRAGMENT]
        .into_iter()
        .enumerate()
    {
        let e = c.stage(flag).ok_or_else(|| {
            let names: Vec<&str> = c.executables.iter().map(|e| e.name.as_str()).collect();
            format!(
                "RADV reported no {} executable (it has {names:?})",
                STAGES[i]
            )
        })?;
        q[i] = radv_quality(e);
        w[i] = e.subgroup_size;
    }
    Ok((q, w))
}

/// Measures one pipeline on one target with all three compilers.
fn measure_cell(vs: &[u8], fs: &[u8], family: Family, reps: u32, backends: &[Backend]) -> Cell {
    let entries = entry_of(vs, Stage::Vertex)
        .and_then(|v| Ok((v, entry_of(fs, Stage::Fragment)?)))
        .map_err(|e| format!("reflection: {e}"));
    let pair = entries.as_ref().ok().map(|(ve, fe)| Pair {
        vs,
        vs_entry: ve,
        fs,
        fs_entry: fe,
    });
    let lanes = wave_for(family).lanes();
    let mut warm = [0u64; 3];
    let t = Instant::now();
    let gcnc_first = gcnc_pipeline(vs, fs, family).map(|c| {
        (
            [gcnc_quality(&c.vs.stats), gcnc_quality(&c.ps.stats)],
            [lanes; 2],
        )
    });
    warm[0] = t.elapsed().as_nanos() as u64;
    let mut firsts = [gcnc_first, Err(String::new()), Err(String::new())];
    for (i, backend) in [Backend::Aco, Backend::Llvm].into_iter().enumerate() {
        firsts[i + 1] = match &pair {
            _ if !backends.contains(&backend) => Err(NOT_RUN.to_string()),
            Some(p) => with_deadline(config(family, backend), |w| w.compile_graphics(p, 1))
                .and_then(|c| {
                    warm[i + 1] = c.compile_ns.first().copied().unwrap_or(0);
                    radv_stages(&c)
                }),
            // no pair: reflection failed, and says why
            None => Err(entries.as_ref().err().cloned().unwrap_or_default()),
        };
    }
    let runs = warm.map(|w| runs_within_budget(w, reps));
    let mut times: [Vec<u64>; 3] = Default::default();
    let mut failed: [Option<String>; 3] = Default::default();
    for r in 0..reps {
        for c in Compiler::ALL {
            let i = c as usize;
            if firsts[i].is_err() || failed[i].is_some() || r >= runs[i] {
                continue;
            }
            match (c, &pair) {
                (Compiler::Gcnc, _) => {
                    let t = Instant::now();
                    let out = gcnc_pipeline(vs, fs, family);
                    times[i].push(t.elapsed().as_nanos() as u64);
                    drop(std::hint::black_box(out));
                }
                (c, Some(p)) => {
                    let b = if c == Compiler::Aco {
                        Backend::Aco
                    } else {
                        Backend::Llvm
                    };
                    match with_deadline(config(family, b), |w| w.time_graphics(p, 1)) {
                        Ok(t) => times[i].extend(t),
                        Err(e) => failed[i] = Some(e),
                    }
                }
                (_, None) => {}
            }
        }
    }
    let outcomes = std::array::from_fn(|i| {
        if let Some(e) = &failed[i] {
            return Err(e.clone());
        }
        firsts[i].clone().map(|(stages, waves)| Measured {
            times_ns: std::mem::take(&mut times[i]),
            stages,
            waves,
        })
    });
    Cell { family, outcomes }
}

/// The marker lines between which `--splice` puts the graphics tables.
pub const BEGIN: &str = "<!-- vkref compare --graphics: begin (generated, do not edit) -->";
pub const END: &str = "<!-- vkref compare --graphics: end -->";

/// Totals of one target over the complete cells.
struct Totals {
    pipelines: usize,
    rejected: usize,
    total_ns: [Option<u64>; 3],
    median_ratio: [f64; 2],
}

fn totals(r: &Report, ti: usize) -> Totals {
    let ran: [bool; 3] = std::array::from_fn(|i| {
        r.pipelines
            .iter()
            .any(|p| !matches!(&p.cells[ti].outcomes[i], Err(e) if e == NOT_RUN))
    });
    let mut total_ns: [Option<u64>; 3] = std::array::from_fn(|i| ran[i].then_some(0));
    let mut ratios = [Vec::new(), Vec::new()];
    let mut n = 0;
    for m in r.pipelines.iter().filter_map(|p| p.cells[ti].complete()) {
        n += 1;
        for i in 0..3 {
            if let (Some(t), Some(x)) = (&mut total_ns[i], m[i]) {
                *t += x.median_ns();
            }
        }
        for i in 0..2 {
            if let (Some(g), Some(o)) = (m[0], m[i + 1]) {
                ratios[i].push(ratio(g.median_ns(), o.median_ns()));
            }
        }
    }
    Totals {
        pipelines: n,
        rejected: r
            .pipelines
            .iter()
            .filter(|p| p.cells[ti].outcomes[0].is_err())
            .count(),
        total_ns,
        median_ratio: [median_f(&ratios[0]), median_f(&ratios[1])],
    }
}

/// The waves of a compiler's code over the complete cells of a target: "VS/FS" when all
/// agree, "mixed" otherwise, "—" when none.
fn waves(r: &Report, ti: usize, c: Compiler) -> String {
    let mut seen: Vec<[u32; 2]> = r
        .pipelines
        .iter()
        .filter_map(|p| p.cells[ti].complete()?[c as usize].map(|m| m.waves))
        .collect();
    seen.dedup();
    match seen.as_slice() {
        [] => "—".into(),
        [w] => format!("{}/{}", w[0], w[1]),
        _ => "mixed".into(),
    }
}

/// Renders the graphics report.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    s += "## VS+FS pipelines: gcnc vs RADV/ACO vs RADV/LLVM\n\n";
    s += &format!(
        "{} pipelines × {} targets ({}); compile time is the median of {} runs per compiler (fewer, at least {}, where they would take over {:.1} s), taken interleaved after one untimed warm-up; the comparison took {:.0} s. \
Both sides compile each vertex + fragment pair with gcnc's default graphics state (one vertex binding with every input packed in location order, one 32-bit-per-channel colour attachment per fragment output). \
gcnc's time is both stages' SPIR-V words → pipeline ELF bytes in process; RADV's is `vkCreateGraphicsPipelines` on its null device with fresh shader modules each time. \
Statistics are per stage (VS: the vertex stage as the hardware runs it, a VS on gfx900 and an NGG shader on gfx1030/gfx1100; FS); cells hold `gcnc / ACO / LLVM`, `Spills` is spilled SGPRs + VGPRs. \
Totals and ratios cover only pipelines all three compiled.\n\n",
        r.pipelines.len(),
        r.targets.len(),
        r.targets.iter().map(|f| f.gfx_target()).collect::<Vec<_>>().join(", "),
        r.reps,
        super::MIN_RUNS.min(r.reps),
        super::BUDGET_NS as f64 / 1e9,
        r.elapsed_s
    );
    s += &format!(
        "- machine: {}; 1-minute load average {:.2} at the start, {:.2} at the end\n",
        r.cpu, r.load.0, r.load.1
    );
    s += "\n### Graphics summary\n\n";
    s += &header(&[
        "target",
        "gcnc wave VS/FS",
        "ACO wave VS/FS",
        "LLVM wave VS/FS",
        "compiled by all",
        "gcnc rejects",
        "gcnc total µs",
        "ACO total µs",
        "LLVM total µs",
        "gcnc/ACO",
        "gcnc/LLVM",
        "median gcnc/ACO",
        "median gcnc/LLVM",
    ]);
    for (ti, fam) in r.targets.iter().enumerate() {
        let t = totals(r, ti);
        let ratio_of = |i: usize| match (t.total_ns[0], t.total_ns[i]) {
            (Some(g), Some(o)) => ratio(g, o),
            _ => f64::NAN,
        };
        s += &row(&[
            fam.gfx_target().into(),
            waves(r, ti, Compiler::Gcnc),
            waves(r, ti, Compiler::Aco),
            waves(r, ti, Compiler::Llvm),
            t.pipelines.to_string(),
            t.rejected.to_string(),
            opt_us(t.total_ns[0]),
            opt_us(t.total_ns[1]),
            opt_us(t.total_ns[2]),
            x(ratio_of(1)),
            x(ratio_of(2)),
            x(t.median_ratio[0]),
            x(t.median_ratio[1]),
        ]);
    }
    s += "\n### Graphics helped / hurt against ACO\n\n";
    s += "Per stage and statistic over the pipelines all three compiled: helped = gcnc lower than ACO, hurt = higher; change = gcnc total against ACO total.\n\n";
    s += &header(&[
        "target",
        "stage",
        "statistic",
        "helped",
        "hurt",
        "same",
        "ACO total",
        "gcnc total",
        "change %",
    ]);
    for (ti, fam) in r.targets.iter().enumerate() {
        let cells: Vec<[Option<&Measured>; 3]> = r
            .pipelines
            .iter()
            .filter_map(|p| p.cells[ti].complete())
            .filter(|m| m[1].is_some())
            .collect();
        if cells.is_empty() {
            continue;
        }
        for (si, stage) in STAGES.iter().enumerate() {
            for (stat, get) in GFX_STATS {
                let (mut helped, mut hurt, mut same, mut aco, mut gcnc) = (0, 0, 0, 0u64, 0u64);
                for m in &cells {
                    let g = get(&m[0].expect("complete").stages[si]);
                    let a = get(&m[1].expect("ACO ran").stages[si]);
                    gcnc += g;
                    aco += a;
                    match g.cmp(&a) {
                        std::cmp::Ordering::Less => helped += 1,
                        std::cmp::Ordering::Greater => hurt += 1,
                        std::cmp::Ordering::Equal => same += 1,
                    }
                }
                let change = if aco == 0 {
                    if gcnc == 0 {
                        0.0
                    } else {
                        f64::INFINITY
                    }
                } else {
                    (gcnc as f64 - aco as f64) * 100.0 / aco as f64
                };
                s += &row(&[
                    fam.gfx_target().into(),
                    stage.to_string(),
                    stat.into(),
                    helped.to_string(),
                    hurt.to_string(),
                    same.to_string(),
                    aco.to_string(),
                    gcnc.to_string(),
                    format!("{change:+.2}"),
                ]);
            }
        }
    }
    for (ti, fam) in r.targets.iter().enumerate() {
        s += &format!(
            "\n### Graphics per pipeline, {} ({})\n\n",
            fam.gfx_target(),
            wave_for(*fam)
        );
        let names: Vec<String> = STAGES
            .iter()
            .flat_map(|st| GFX_STATS.iter().map(move |(n, _)| format!("{st} {n}")))
            .collect();
        let mut cols = vec![
            "pipeline",
            "words",
            "gcnc µs",
            "ACO µs",
            "LLVM µs",
            "gcnc/ACO",
            "gcnc/LLVM",
        ];
        cols.extend(names.iter().map(String::as_str));
        s += &header(&cols);
        for p in &r.pipelines {
            let c = &p.cells[ti];
            let ms: [Option<&Measured>; 3] = std::array::from_fn(|i| c.outcomes[i].as_ref().ok());
            let mut cells = time_cells(&p.name, p.words, ms.map(|m| m.map(Measured::median_ns)));
            for si in 0..2 {
                for (_, get) in GFX_STATS {
                    cells.push(
                        ms.iter()
                            .map(|m| {
                                m.map(|m| get(&m.stages[si]).to_string())
                                    .unwrap_or_else(|| "—".into())
                            })
                            .collect::<Vec<_>>()
                            .join(" / "),
                    );
                }
            }
            s += &row(&cells);
        }
    }
    s += "\n### Graphics gcnc rejects\n\n";
    s += &header(&["target", "pipeline", "error"]);
    for (ti, fam) in r.targets.iter().enumerate() {
        for p in &r.pipelines {
            if let Err(e) = &p.cells[ti].outcomes[0] {
                s += &row(&[fam.gfx_target().into(), p.name.clone(), cell_text(e)]);
            }
        }
    }
    s += "\n### Graphics RADV failures\n\n";
    s += &header(&["target", "backend", "pipeline", "error"]);
    for (ti, fam) in r.targets.iter().enumerate() {
        for c in [Compiler::Aco, Compiler::Llvm] {
            for p in &r.pipelines {
                match &p.cells[ti].outcomes[c as usize] {
                    Err(e) if e != NOT_RUN => {
                        s += &row(&[
                            fam.gfx_target().into(),
                            c.name().into(),
                            p.name.clone(),
                            cell_text(first_line(e)),
                        ])
                    }
                    _ => {}
                }
            }
        }
    }
    s
}
