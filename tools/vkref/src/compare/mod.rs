//! `vkref compare`: gcnc against RADV/ACO and RADV/LLVM on the same SPIR-V — compile time,
//! code quality, peak memory — written as a markdown table (see [`table`]).
//!
//! Design:
//! - Every `*.spv` of a directory (sorted by name), for every target: gcnc compiles it
//!   in process (front-end → middle-end → backend → ELF, exactly what `gcnc compile` does,
//!   default options), RADV compiles it on its null device in one worker process per
//!   (family, backend) ([`crate::radv`]), with the pipeline layout reflected from the SPIR-V.
//! - Like with like: gcnc and RADV both compile wave64 on GFX9 and wave32 on GFX10.3/GFX11
//!   (gcnc's default there; RADV through `RADV_PERFTEST=cswave32` and a required subgroup
//!   size). [`wave_for`] is the one place that decides.
//! - Compile times are medians of `reps` runs taken interleaved — gcnc, ACO, LLVM, gcnc,
//!   ACO, LLVM, … — after one untimed warm-up run each (which also yields the statistics),
//!   so drift of a shared machine hits all three alike. A compiler whose warm-up says that
//!   `reps` runs would take over [`BUDGET_NS`] gets fewer (at least [`MIN_RUNS`]), dropping
//!   out of the round-robin early, so the whole comparison stays within minutes. gcnc's time covers SPIR-V words →
//!   ELF bytes; RADV's covers `vkCreateComputePipelines` with a fresh shader module.
//! - RADV's cache is defeated (fresh module with a differing bound word each creation,
//!   `RADV_DEBUG=nocache`, `MESA_SHADER_CACHE_DISABLE=true`); [`CacheLine`] records the proof
//!   per target and backend: a measured cache hit against the median fresh creation.
//! - Peak memory per compile is the heap high-water mark at the `malloc` level
//!   ([`heap::measure`]), the same rule for gcnc (in this process) and RADV (in its worker,
//!   [`crate::radv::Worker::peak_memory`]). It needs an executable that interposes `malloc`
//!   (`vkref` does); elsewhere it is absent from the table, not zero.
//! - A shader gcnc rejects is kept with its error message and counted; a RADV failure
//!   (its GFX9 LLVM backend crashes on some shaders, and takes minutes on others: a request
//!   over [`RADV_DEADLINE`] kills the worker) likewise. Totals, ratios, the
//!   helped/hurt summary and the time-per-word fit use only the shaders all three compiled.
//!
//! Output is deterministic apart from the measured numbers: shaders in name order, targets
//! in the order given, no maps with unstable order.

pub mod dynamic;
pub mod graphics;
pub mod heap;
pub mod summary;
pub mod table;
pub mod throughput;

use crate::device::Error;
use crate::radv::{self, Backend, CacheCheck, Config, Family};
use crate::reflect::{self, Stage};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What to compare.
#[derive(Debug, Clone)]
pub struct Options {
    pub targets: Vec<Family>,
    /// Timed runs per compiler, shader and target (odd numbers give a true median).
    pub reps: u32,
    /// Only shaders whose name (path below the directory without `.spv`) or file stem is
    /// listed (all when empty).
    pub only: Vec<String>,
    /// The RADV backends to compare with (`--backends aco` skips LLVM, whose compiles
    /// take most of a comparison's time); gcnc always runs.
    pub backends: Vec<Backend>,
    /// Also run each corpus shader's gcnc code on the emulator with its own inputs and
    /// report the instructions a wave executes ([`dynamic`]).
    pub dynamic: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            targets: Family::ALL.to_vec(),
            reps: 21,
            only: Vec::new(),
            backends: vec![Backend::Aco, Backend::Llvm],
            dynamic: true,
        }
    }
}

/// The three compilers, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Compiler {
    Gcnc,
    Aco,
    Llvm,
}

impl Compiler {
    pub const ALL: [Compiler; 3] = [Compiler::Gcnc, Compiler::Aco, Compiler::Llvm];
    pub fn name(self) -> &'static str {
        match self {
            Compiler::Gcnc => "gcnc",
            Compiler::Aco => "ACO",
            Compiler::Llvm => "LLVM",
        }
    }
    fn backend(self) -> Option<Backend> {
        match self {
            Compiler::Gcnc => None,
            Compiler::Aco => Some(Backend::Aco),
            Compiler::Llvm => Some(Backend::Llvm),
        }
    }
}

/// The wave size both sides compile for on `family`: wave64 on GFX9 (its only mode),
/// wave32 on GFX10.3 and GFX11 (gcnc's and RADV's default for compute there).
pub fn wave_for(family: Family) -> gcnc::isa::Wave {
    family.gen().default_wave()
}

/// Code-quality statistics under RADV's names. `sgprs` is ACO's "Pre-Sched SGPRs" where
/// it exists (ACO reports a fixed 128 "SGPRs" on GFX10+).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quality {
    pub instructions: u64,
    pub code_size: u64,
    pub vgprs: u64,
    pub sgprs: u64,
    pub spilled_sgprs: u64,
    pub spilled_vgprs: u64,
}

/// Reads one statistic out of a [`Quality`].
pub type StatFn = fn(&Quality) -> u64;

/// The statistics compared, in table order: (column name, accessor).
pub const STATS: [(&str, StatFn); 6] = [
    ("Instructions", |q| q.instructions),
    ("Code size", |q| q.code_size),
    ("VGPRs", |q| q.vgprs),
    ("SGPRs", |q| q.sgprs),
    ("Spilled SGPRs", |q| q.spilled_sgprs),
    ("Spilled VGPRs", |q| q.spilled_vgprs),
];

/// One compiler's result for one shader on one target.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The timed runs, nanoseconds, in the order taken.
    pub times_ns: Vec<u64>,
    /// gcnc only: each timed run split into front-end, middle-end and backend.
    pub phases_ns: Vec<[u64; 3]>,
    pub quality: Quality,
    /// Peak memory of one compile in bytes (see the module doc for what each side measures).
    pub peak_bytes: Option<u64>,
}

impl Measured {
    pub fn median_ns(&self) -> u64 {
        median(&self.times_ns)
    }
    /// Median of one phase (0 front-end, 1 middle-end, 2 backend) over the timed runs.
    pub fn phase_median_ns(&self, phase: usize) -> u64 {
        median(&self.phases_ns.iter().map(|p| p[phase]).collect::<Vec<_>>())
    }
}

/// A compiler's outcome: measured, or the error that stopped it.
pub type Outcome = Result<Measured, String>;

/// The outcome of a RADV backend left out by [`Options::backends`].
pub const NOT_RUN: &str = "not run (--backends)";

/// One shader on one target: gcnc, ACO, LLVM (indexed by `Compiler as usize`).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub family: Family,
    /// A backend left out holds `Err(NOT_RUN)`.
    pub outcomes: [Outcome; 3],
    /// Instructions one wave of gcnc's code executes on the emulator with the corpus
    /// inputs ([`dynamic`]): `None` for a shader the corpus does not hold (or when not
    /// asked for).
    pub executed_per_wave: Option<Result<u64, String>>,
}

impl Cell {
    pub fn get(&self, c: Compiler) -> &Outcome {
        &self.outcomes[c as usize]
    }
    /// Whether the compiler ran (it was not left out by [`Options::backends`]).
    pub fn ran(&self, c: Compiler) -> bool {
        !matches!(self.get(c), Err(e) if e == NOT_RUN)
    }
    /// Every compiler that ran compiled: the measurements, `None` for one left out.
    pub fn complete(&self) -> Option<[Option<&Measured>; 3]> {
        let mut m = [None; 3];
        for (i, o) in self.outcomes.iter().enumerate() {
            match o {
                Ok(x) => m[i] = Some(x),
                Err(e) if e == NOT_RUN && i != Compiler::Gcnc as usize => {}
                Err(_) => return None,
            }
        }
        Some(m)
    }
}

/// One shader across the targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Shader {
    /// File stem.
    pub name: String,
    /// SPIR-V size in 32-bit words.
    pub words: usize,
    /// One per target, in [`Report::targets`] order.
    pub cells: Vec<Cell>,
}

/// The cache-defeat proof for one target and RADV backend.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheLine {
    pub family: Family,
    pub backend: Backend,
    /// The shader the check used.
    pub shader: String,
    /// With RADV's cache left on: first creation, same-module repeats, fresh modules.
    pub check: Result<CacheCheck, String>,
    /// Median of the benchmark's fresh-module creations of that shader (cache off).
    pub bench_median_ns: Option<u64>,
}

impl CacheLine {
    /// Ok when the check is sensitive (a same-module repeat hits the cache), fresh modules
    /// miss it, and the benchmark's creations cost at least ten cache hits.
    pub fn verdict(&self) -> Result<(), String> {
        let c = self.check.as_ref().map_err(|e| e.clone())?;
        c.verdict()?;
        let hit = median(&c.same_module_ns);
        match self.bench_median_ns {
            Some(b) if b >= hit.saturating_mul(10) => Ok(()),
            Some(b) => Err(format!(
                "benchmark creations take {b} ns, a cache hit {hit} ns: they look cached"
            )),
            None => Err("the benchmark compiled nothing to compare with".into()),
        }
    }
}

/// Everything a comparison measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub targets: Vec<Family>,
    pub reps: u32,
    pub shaders: Vec<Shader>,
    pub cache: Vec<CacheLine>,
    /// RADV's device and driver strings, per target (from its workers).
    pub drivers: Vec<(Family, String)>,
    /// Wall time of the whole comparison, seconds.
    pub elapsed_s: f64,
    /// CPU model and count, from `/proc/cpuinfo`.
    pub cpu: String,
    /// `/proc/loadavg`'s 1-minute load at the start and at the end: a busy machine makes
    /// every absolute time noisy (the ratios less so, the runs being interleaved).
    pub load: (f64, f64),
}

/// CPU model name and logical CPU count.
pub fn cpu_description() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")?
                .split_once(':')
                .map(|x| x.1.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let n = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    format!("{model}, {n} logical CPUs")
}

/// The 1-minute load average (0 when unknown).
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

pub(crate) fn median(v: &[u64]) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2
    }
}

/// The `*.spv` files under `dir`, subdirectories included, sorted by path, filtered by
/// `only` (a file's [`shader_name`] or its file stem).
pub fn shader_files(dir: &Path, only: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in rd {
            let e = e.map_err(|e| format!("{}: {e}", d.display()))?;
            let p = e.path();
            let is_dir = e
                .file_type()
                .map_err(|e| format!("{}: {e}", p.display()))?
                .is_dir();
            if is_dir {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "spv")
                && (only.is_empty()
                    || only.contains(&stem(&p))
                    || only.contains(&shader_name(dir, &p)))
            {
                files.push(p);
            }
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(format!("no matching .spv files under {}", dir.display()));
    }
    Ok(files)
}

/// A shader's name in the tables: its path below the compared directory without the
/// `.spv` extension (`dxvk/mipgen`; the file stem for a file directly in it).
pub fn shader_name(dir: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(dir).unwrap_or(file);
    let rel = rel.with_extension("");
    rel.to_string_lossy().into_owned()
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// gcnc, the whole way from SPIR-V bytes to the PAL ELF, as `gcnc compile` does it with
/// default options (the middle-end pipeline, the default wave size for the target). The
/// error names the layer that refused.
pub fn gcnc_compile(spirv: &[u8], family: Family) -> Result<gcnc::compile::Compiled, String> {
    gcnc_compile_phases(spirv, family).0
}

/// [`gcnc_compile`], also returning the nanoseconds spent in each phase: front-end
/// (SPIR-V → IR), middle-end (IR passes), backend (IR → ELF); a phase not reached is 0.
pub fn gcnc_compile_phases(
    spirv: &[u8],
    family: Family,
) -> (Result<gcnc::compile::Compiled, String>, [u64; 3]) {
    let mut phases = [0u64; 3];
    let r = gcnc_phases(spirv, family, &mut phases);
    (r, phases)
}

fn gcnc_phases(
    spirv: &[u8],
    family: Family,
    phases: &mut [u64; 3],
) -> Result<gcnc::compile::Compiled, String> {
    let words =
        gcnc::front::spirv::words_from_bytes(spirv).map_err(|e| format!("front-end: {e}"))?;
    let mut o = gcnc::Options::new(gcnc::isa::Target {
        gen: family.gen(),
        wave: wave_for(family),
    });
    o.settings.time_passes = true;
    let c = gcnc::compile_spirv(&words, &o).map_err(|e| format!("{}: {e}", e.phase().name()))?;
    for t in &c.timings {
        phases[t.phase as usize] += t.elapsed.as_nanos() as u64;
    }
    Ok(c)
}

pub(crate) fn gcnc_quality(s: &gcnc::amdgpu::emit::Stats) -> Quality {
    Quality {
        instructions: s.instructions as u64,
        code_size: s.code_size as u64,
        vgprs: s.vgprs as u64,
        sgprs: s.sgprs as u64,
        spilled_sgprs: s.spilled_sgprs as u64,
        spilled_vgprs: s.spilled_vgprs as u64,
    }
}

pub(crate) fn radv_quality(c: &radv::Compiled) -> Quality {
    Quality {
        instructions: c.instructions().unwrap_or(0),
        code_size: c.stat("Code size").unwrap_or(0),
        vgprs: c.stat("VGPRs").unwrap_or(0),
        sgprs: c.sgprs().unwrap_or(0),
        spilled_sgprs: c.stat("Spilled SGPRs").unwrap_or(0),
        spilled_vgprs: c.stat("Spilled VGPRs").unwrap_or(0),
    }
}

/// The compute entry point's name.
pub fn compute_entry(spirv: &[u8]) -> Result<String, String> {
    let m = reflect::reflect_bytes(spirv).map_err(|e| e.to_string())?;
    m.entry_points
        .iter()
        .find(|e| e.stage == Stage::Compute)
        .map(|e| e.name.clone())
        .ok_or_else(|| "no compute entry point".to_string())
}

/// Times one gcnc compile: total and per phase, nanoseconds.
fn time_gcnc(spirv: &[u8], family: Family) -> (u64, [u64; 3]) {
    let t = Instant::now();
    let (r, phases) = gcnc_compile_phases(spirv, family);
    let ns = t.elapsed().as_nanos() as u64;
    drop(std::hint::black_box(r));
    (ns, phases)
}

/// The timing worker configuration for a compiler on a target.
pub(crate) fn config(family: Family, backend: Backend) -> Config {
    Config::new(family, backend, wave_for(family))
}

/// Same-module and fresh-module creations in each cache check.
const CACHE_REPEATS: u32 = 5;

/// Timed runs one compiler gets on one shader and target: `reps`, fewer when they would
/// take more than [`BUDGET_NS`] (RADV's LLVM backend needs over a second for the spilling
/// shaders), never fewer than [`MIN_RUNS`].
pub const BUDGET_NS: u64 = 1_500_000_000;
pub const MIN_RUNS: u32 = 3;

pub fn runs_within_budget(warm_up_ns: u64, reps: u32) -> u32 {
    let fit = BUDGET_NS / warm_up_ns.max(1);
    (fit.min(reps as u64) as u32).max(MIN_RUNS.min(reps))
}

/// Runs the comparison. `progress` receives one line per shader and target as it goes.
pub fn run(dir: &Path, opts: &Options, mut progress: impl FnMut(&str)) -> Result<Report, String> {
    let start = Instant::now();
    let load_start = load_average();
    let files = shader_files(dir, &opts.only)?;
    let reps = opts.reps.max(1);
    let mut shaders = Vec::new();
    for f in &files {
        let spirv = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = shader_name(dir, f);
        let entry = compute_entry(&spirv);
        let mut cells = Vec::new();
        for &family in &opts.targets {
            let mut cell = measure_cell(&spirv, entry.as_deref(), family, reps, &opts.backends);
            if opts.dynamic {
                cell.executed_per_wave = dynamic::executed_per_wave(&name, &spirv, family);
            }
            progress(&progress_line(&name, family, &cell));
            cells.push(cell);
        }
        shaders.push(Shader {
            name,
            words: spirv.len() / 4,
            cells,
        });
    }
    let mut cache = Vec::new();
    let mut drivers = Vec::new();
    for (ti, &family) in opts.targets.iter().enumerate() {
        if let Ok(d) = radv::with_worker(config(family, Backend::Aco), |w| {
            Ok(format!("{} ({})", w.device_name, w.driver_info))
        }) {
            drivers.push((family, d));
        }
        for &backend in &opts.backends {
            // The check uses the first shader this backend compiled on this target.
            let ci = if backend == Backend::Aco { 1 } else { 2 };
            let pick = shaders.iter().zip(&files).find_map(|(s, f)| {
                let m = s.cells[ti].outcomes[ci].as_ref().ok()?;
                Some((s.name.clone(), f.clone(), m.median_ns()))
            });
            let Some((shader, file, bench)) = pick else {
                continue;
            };
            let check = std::fs::read(&file)
                .map_err(|e| e.to_string())
                .and_then(|spv| {
                    let entry = compute_entry(&spv)?;
                    radv::cache_check(&spv, &entry, family, backend, CACHE_REPEATS)
                        .map_err(|e| e.to_string())
                });
            let line = CacheLine {
                family,
                backend,
                shader,
                check,
                bench_median_ns: Some(bench),
            };
            progress(&table::cache_line_text(&line));
            cache.push(line);
        }
    }
    Ok(Report {
        targets: opts.targets.clone(),
        reps,
        shaders,
        cache,
        drivers,
        elapsed_s: start.elapsed().as_secs_f64(),
        cpu: cpu_description(),
        load: (load_start, load_average()),
    })
}

fn progress_line(name: &str, family: Family, cell: &Cell) -> String {
    let parts: Vec<String> = Compiler::ALL
        .iter()
        .filter(|&&c| cell.ran(c))
        .map(|&c| match cell.get(c) {
            Ok(m) => format!("{} {:.1} us", c.name(), m.median_ns() as f64 / 1e3),
            Err(e) => format!("{} failed ({})", c.name(), first_line(e)),
        })
        .collect();
    format!("{name} {}: {}", family.gfx_target(), parts.join(", "))
}

pub(crate) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Measures one shader on one target with all three compilers.
fn measure_cell(
    spirv: &[u8],
    entry: Result<&str, &String>,
    family: Family,
    reps: u32,
    backends: &[Backend],
) -> Cell {
    // Warm-up and statistics; the warm-up's time sets how many runs fit the budget.
    let mut warm = [0u64; 3];
    let t = Instant::now();
    let gcnc_first = gcnc_compile(spirv, family).map(|c| gcnc_quality(&c.stats));
    warm[0] = t.elapsed().as_nanos() as u64;
    let mut radv_first: [Result<Quality, String>; 2] = [Err(String::new()), Err(String::new())];
    for (i, backend) in [Backend::Aco, Backend::Llvm].into_iter().enumerate() {
        radv_first[i] = match entry {
            _ if !backends.contains(&backend) => Err(NOT_RUN.to_string()),
            Ok(e) => with_deadline(config(family, backend), |w| w.compile(spirv, e, 1)).map(|c| {
                warm[i + 1] = c.compile_ns.first().copied().unwrap_or(0);
                radv_quality(&c)
            }),
            Err(e) => Err(format!("reflection: {e}")),
        };
    }
    let runs = warm.map(|w| runs_within_budget(w, reps));
    let ok = [
        gcnc_first.is_ok(),
        radv_first[0].is_ok(),
        radv_first[1].is_ok(),
    ];
    // Interleaved timed runs.
    let mut times: [Vec<u64>; 3] = Default::default();
    let mut failed: [Option<String>; 3] = Default::default();
    let mut phases = Vec::new();
    for r in 0..reps {
        for c in Compiler::ALL {
            let i = c as usize;
            if !ok[i] || failed[i].is_some() || r >= runs[i] {
                continue;
            }
            match c.backend() {
                None => {
                    let (ns, ph) = time_gcnc(spirv, family);
                    times[i].push(ns);
                    phases.push(ph);
                }
                Some(b) => {
                    let e = entry.expect("RADV compiled, so reflection worked");
                    match with_deadline(config(family, b), |w| w.time(spirv, e, 1)) {
                        Ok(t) => times[i].extend(t),
                        Err(e) => failed[i] = Some(e),
                    }
                }
            }
        }
    }
    // Peak memory, one compile each.
    let gcnc_peak = if ok[0] {
        heap::measure(|| gcnc_compile(spirv, family)).1
    } else {
        None
    };
    let mut radv_peak = [None, None];
    for (i, backend) in [Backend::Aco, Backend::Llvm].into_iter().enumerate() {
        if ok[i + 1] && failed[i + 1].is_none() {
            let cfg = config(family, backend);
            let e = entry.expect("RADV compiled, so reflection worked");
            radv_peak[i] = with_deadline(cfg, |w| w.peak_memory(spirv, e, 1))
                .ok()
                .map(|v| median(&v));
        }
    }
    let firsts = [gcnc_first, radv_first[0].clone(), radv_first[1].clone()];
    let peaks = [gcnc_peak, radv_peak[0], radv_peak[1]];
    let outcomes = std::array::from_fn(|i| {
        if let Some(e) = &failed[i] {
            return Err(e.clone());
        }
        firsts[i].clone().map(|quality| Measured {
            times_ns: std::mem::take(&mut times[i]),
            phases_ns: if i == 0 {
                std::mem::take(&mut phases)
            } else {
                Vec::new()
            },
            quality,
            peak_bytes: peaks[i],
        })
    });
    Cell {
        family,
        outcomes,
        executed_per_wave: None,
    }
}

/// How long one request to a RADV worker may take before the worker is killed and the
/// compile recorded as timed out (RADV's GFX9 LLVM backend takes minutes on spill_vgpr).
pub const RADV_DEADLINE: Duration = Duration::from_secs(60);

/// [`radv::with_worker`] with [`RADV_DEADLINE`] ([`watched`]); the error says when the
/// deadline fired.
pub fn with_deadline<T>(
    cfg: Config,
    f: impl FnOnce(&mut radv::Worker) -> Result<T, Error>,
) -> Result<T, String> {
    let mut fired = false;
    let r = radv::with_worker(cfg, |w| {
        let (r, f2) = watched(w, f);
        fired = f2;
        r
    });
    r.map_err(|e| deadline_error(&e, fired))
}

/// Runs `f` on `w` under [`RADV_DEADLINE`]: a watchdog thread kills the worker (by its
/// pid, which stays reserved until the worker is reaped) when the request overruns.
/// Also returns whether it did.
pub fn watched<T>(
    w: &mut radv::Worker,
    f: impl FnOnce(&mut radv::Worker) -> Result<T, Error>,
) -> (Result<T, Error>, bool) {
    let fired = Arc::new(AtomicBool::new(false));
    let pid = w.pid();
    let (done, wait) = mpsc::channel::<()>();
    let flag = fired.clone();
    let dog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(RADV_DEADLINE) {
            flag.store(true, Ordering::SeqCst);
            kill_worker(pid);
        }
    });
    let r = f(w);
    let _ = done.send(());
    let _ = dog.join();
    (r, fired.load(Ordering::SeqCst))
}

/// A RADV request's error as the tables show it (`fired`: [`watched`] killed the worker).
pub fn deadline_error(e: &Error, fired: bool) -> String {
    if fired {
        format!("RADV timed out (over {} s)", RADV_DEADLINE.as_secs())
    } else {
        radv_error(e)
    }
}

/// Sends SIGKILL to a worker through libc's `kill(2)` (no `kill` binary needed; a worker
/// that already ended makes it fail harmlessly: its pid is reserved until it is reaped).
fn kill_worker(pid: u32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            kill(pid, SIGKILL);
        }
    }
}

fn radv_error(e: &Error) -> String {
    match e {
        Error::Crashed { status, .. } => format!("RADV crashed ({status})"),
        e => e.to_string(),
    }
}

/// Writes the markdown to `--out`, into `--splice`'s file, and to stdout.
fn write_out(md: &str, out: Option<&str>, splice: Option<&str>) -> Result<(), String> {
    if let Some(o) = out {
        std::fs::write(o, md).map_err(|e| format!("{o}: {e}"))?;
    }
    if let Some(f) = splice {
        let old = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let new = table::splice(&old, md).map_err(|e| format!("{f}: {e}"))?;
        std::fs::write(f, new).map_err(|e| format!("{f}: {e}"))?;
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(md.as_bytes());
    Ok(())
}

/// The command line's usage line.
pub const USAGE: &str = "usage: vkref compare DIR [--graphics] [--targets gfx900,gfx1030,gfx1100] [--backends aco,llvm] [--reps N] [--only NAME,...] [--jobs N] [--out FILE] [--splice FILE]";

/// The `vkref compare` command line ([`USAGE`]). DIR is searched recursively for `.spv`
/// files. Prints progress to stderr and the table to stdout (and to `--out`; `--splice`
/// replaces the part of a markdown file between the [`table::BEGIN`] and [`table::END`]
/// markers, as BENCHMARKS.md has). Fails when the cache-defeat check does.
/// `--backends` picks the RADV backends (gcnc always runs). `--jobs N` (0: one per
/// logical CPU) measures throughput instead ([`throughput`]): every shader compiled once
/// per compiler with N in flight, shaders per second. `--graphics` compares the VS+FS
/// pipelines of DIR instead ([`graphics`]; `--splice` then uses [`graphics::BEGIN`] and
/// [`graphics::END`]).
pub fn main(args: &[String]) -> Result<(), String> {
    let mut opts = Options::default();
    let mut dir = None;
    let mut out = None;
    let mut splice = None;
    let mut jobs = None;
    let mut gfx = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--targets" => {
                opts.targets = val()?
                    .split(',')
                    .map(|t| Family::parse(t.trim()).ok_or(format!("unknown target {t:?}")))
                    .collect::<Result<_, _>>()?;
            }
            "--reps" => opts.reps = val()?.parse().map_err(|_| "--reps takes a number")?,
            "--jobs" => {
                jobs = Some(
                    val()?
                        .parse::<usize>()
                        .map_err(|_| "--jobs takes a number")?,
                )
            }
            "--backends" => {
                opts.backends = val()?
                    .split(',')
                    .map(|b| match b.trim() {
                        "aco" => Ok(Backend::Aco),
                        "llvm" => Ok(Backend::Llvm),
                        b => Err(format!("unknown backend {b:?} (aco, llvm)")),
                    })
                    .collect::<Result<_, _>>()?;
                opts.backends.sort();
                opts.backends.dedup();
            }
            "--only" => opts.only = val()?.split(',').map(|s| s.trim().to_string()).collect(),
            "--out" => out = Some(val()?),
            "--splice" => splice = Some(val()?),
            "--graphics" => gfx = true,
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => dir = Some(PathBuf::from(s)),
        }
    }
    let dir = dir.ok_or(USAGE)?;
    if gfx {
        let report = graphics::run(&dir, &opts, |l| eprintln!("{l}"))?;
        let md = graphics::render(&report);
        if let Some(f) = &splice {
            let old = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
            let new = table::splice_between(&old, &md, graphics::BEGIN, graphics::END)
                .map_err(|e| format!("{f}: {e}"))?;
            std::fs::write(f, new).map_err(|e| format!("{f}: {e}"))?;
        }
        return write_out(&md, out.as_deref(), None);
    }
    if let Some(j) = jobs {
        let j = if j == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            j
        };
        let md = throughput::main(&dir, &opts, j)?;
        return write_out(&md, out.as_deref(), splice.as_deref());
    }
    let report = run(&dir, &opts, |l| eprintln!("{l}"))?;
    let md = table::render(&report);
    write_out(&md, out.as_deref(), splice.as_deref())?;
    let bad: Vec<String> = report
        .cache
        .iter()
        .filter_map(|l| {
            l.verdict()
                .err()
                .map(|e| format!("{}: {e}", l.family.gfx_target()))
        })
        .collect();
    if !bad.is_empty() {
        return Err(format!("cache-defeat check failed: {}", bad.join("; ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_compilers_get_fewer_runs_but_never_below_the_minimum() {
        // 1 ms a compile: all 21 fit in 1.5 s.
        assert_eq!(runs_within_budget(1_000_000, 21), 21);
        // 100 ms: 15 fit.
        assert_eq!(runs_within_budget(100_000_000, 21), 15);
        // 2 s: none fit, the minimum runs anyway.
        assert_eq!(runs_within_budget(2_000_000_000, 21), MIN_RUNS);
        // Fewer reps than the minimum asked for: the reps.
        assert_eq!(runs_within_budget(2_000_000_000, 2), 2);
    }

    #[test]
    fn waves_compared_like_with_like() {
        use gcnc::isa::Wave;
        assert_eq!(wave_for(Family::Vega10), Wave::W64);
        assert_eq!(wave_for(Family::Navi21), Wave::W32);
        assert_eq!(wave_for(Family::Gfx1100), Wave::W32);
    }
}
