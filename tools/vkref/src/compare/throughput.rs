//! `vkref compare --jobs N`: corpus-scale throughput — shaders compiled per second with N
//! compiles in flight, gcnc against RADV given the same parallelism.
//!
//! Design:
//! - Per target and compiler, every shader is compiled once; the wall time from the first
//!   compile's start to the last one's end gives shaders per second. gcnc runs on N
//!   threads of this process taking shaders from one shared queue (nothing is shared
//!   between compiles but the SPIR-V bytes). RADV runs on N worker processes of its own
//!   (one per thread, [`radv::Worker`], cache defeated as in the latency comparison),
//!   started and warmed up with one untimed compile before the clock starts, so process
//!   and device start-up are not counted.
//! - A RADV compile over [`super::RADV_DEADLINE`] kills its worker and counts as failed;
//!   a crashed worker is replaced (its start-up then counts: it is part of getting the
//!   work done). Failures are counted, not timed out of the rate: the rate divides the
//!   compiled shaders by the wall time.
//! - A progress line on stderr (rewritten in place on a terminal) says how far each run is.

use super::{compute_entry, config, deadline_error, gcnc_compile, watched, Compiler};
use crate::radv::{self, Backend, Family};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// One compiler's run over all shaders on one target.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub family: Family,
    pub compiler: Compiler,
    pub jobs: usize,
    pub shaders: usize,
    pub compiled: usize,
    /// Shader names and errors of the compiles that failed, in name order.
    pub failed: Vec<(String, String)>,
    pub wall_s: f64,
}

impl Run {
    pub fn shaders_per_s(&self) -> f64 {
        self.compiled as f64 / self.wall_s
    }
}

/// A shader to compile: name, SPIR-V bytes, compute entry point (or why there is none).
pub struct Input {
    pub name: String,
    pub spirv: Vec<u8>,
    pub entry: Result<String, String>,
}

impl Input {
    pub fn new(name: String, spirv: Vec<u8>) -> Input {
        let entry = compute_entry(&spirv);
        Input { name, spirv, entry }
    }
}

/// The shared queue and progress of one run.
struct Queue<'a> {
    inputs: &'a [Input],
    next: AtomicUsize,
    done: AtomicUsize,
    failed: Mutex<Vec<(usize, String)>>,
    label: String,
    tty: bool,
}

impl Queue<'_> {
    fn take(&self) -> Option<(usize, &Input)> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        self.inputs.get(i).map(|s| (i, s))
    }
    fn finish(&self, i: usize, r: Result<(), String>) {
        if let Err(e) = r {
            self.failed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((i, e));
        }
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let n = self.inputs.len();
        let step = (n / 20).max(1);
        if self.tty {
            eprint!("\r{}: {done}/{n}", self.label);
        } else if done % step == 0 || done == n {
            eprintln!("{}: {done}/{n}", self.label);
        }
    }
}

/// Compiles every input once with `compiler` on `family` on `jobs` threads.
pub fn run_one(inputs: &[Input], family: Family, compiler: Compiler, jobs: usize) -> Run {
    let jobs = jobs.max(1);
    let q = Queue {
        inputs,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        failed: Mutex::new(Vec::new()),
        label: format!("{} {} ×{jobs}", family.gfx_target(), compiler.name()),
        tty: std::io::stderr().is_terminal(),
    };
    let wall_s = match compiler {
        Compiler::Gcnc => {
            let start = Instant::now();
            std::thread::scope(|s| {
                for _ in 0..jobs {
                    s.spawn(|| {
                        while let Some((i, sh)) = q.take() {
                            let r = gcnc_compile(&sh.spirv, family).map(drop);
                            q.finish(i, r);
                        }
                    });
                }
            });
            start.elapsed().as_secs_f64()
        }
        Compiler::Aco => radv_run(&q, family, Backend::Aco, jobs),
        Compiler::Llvm => radv_run(&q, family, Backend::Llvm, jobs),
    };
    if q.tty {
        eprintln!();
    }
    let mut failed: Vec<(usize, String)> = q.failed.into_inner().unwrap_or_else(|p| p.into_inner());
    failed.sort();
    Run {
        family,
        compiler,
        jobs,
        shaders: inputs.len(),
        compiled: inputs.len() - failed.len(),
        failed: failed
            .into_iter()
            .map(|(i, e)| (inputs[i].name.clone(), e))
            .collect(),
        wall_s,
    }
}

/// RADV on `jobs` workers; returns the wall time of the timed part.
fn radv_run(q: &Queue, family: Family, backend: Backend, jobs: usize) -> f64 {
    let cfg = config(family, backend);
    // Start and warm up the workers before the clock starts.
    let warm = q
        .inputs
        .iter()
        .find_map(|s| Some((&s.spirv, s.entry.as_ref().ok()?)));
    let mut workers: Vec<Option<radv::Worker>> = (0..jobs)
        .map(|_| {
            let mut w = radv::Worker::spawn(cfg).ok()?;
            if let Some((spv, e)) = warm {
                let _ = w.time(spv, e, 1);
            }
            Some(w)
        })
        .collect();
    let start = Instant::now();
    std::thread::scope(|s| {
        for slot in workers.iter_mut() {
            s.spawn(move || {
                while let Some((i, sh)) = q.take() {
                    let r = match &sh.entry {
                        Err(e) => Err(format!("reflection: {e}")),
                        Ok(entry) => compile_on(slot, cfg, &sh.spirv, entry),
                    };
                    q.finish(i, r);
                }
            });
        }
    });
    start.elapsed().as_secs_f64()
}

/// One RADV compile on the thread's worker, starting a new one when there is none (the
/// first failed to start, or the last crashed or timed out).
fn compile_on(
    slot: &mut Option<radv::Worker>,
    cfg: radv::Config,
    spirv: &[u8],
    entry: &str,
) -> Result<(), String> {
    if slot.is_none() {
        *slot = Some(radv::Worker::spawn(cfg).map_err(|e| deadline_error(&e, false))?);
    }
    let w = slot.as_mut().expect("started above");
    // the timing request: pipeline creation alone, as the latency comparison times it
    // (a `compile` request also reads back statistics and disassembly)
    let (r, fired) = watched(w, |w| w.time(spirv, entry, 1));
    match r {
        Ok(_) => Ok(()),
        Err(e) => {
            if fired
                || matches!(
                    e,
                    crate::device::Error::Crashed { .. } | crate::device::Error::Worker(_)
                )
            {
                *slot = None;
            }
            Err(deadline_error(&e, fired))
        }
    }
}

/// Every compiler over every target: gcnc first, then the RADV backends asked for.
pub fn run(inputs: &[Input], targets: &[Family], backends: &[Backend], jobs: usize) -> Vec<Run> {
    let mut runs = Vec::new();
    for &family in targets {
        let compilers = std::iter::once(Compiler::Gcnc).chain(backends.iter().map(|b| match b {
            Backend::Aco => Compiler::Aco,
            Backend::Llvm => Compiler::Llvm,
        }));
        for c in compilers {
            let r = run_one(inputs, family, c, jobs);
            eprintln!(
                "{} {} ×{jobs}: {} of {} compiled in {:.2} s, {:.1} shaders/s",
                family.gfx_target(),
                c.name(),
                r.compiled,
                r.shaders,
                r.wall_s,
                r.shaders_per_s()
            );
            runs.push(r);
        }
    }
    runs
}

/// `vkref compare DIR --jobs N`: reads the shaders, runs every compiler, returns the
/// markdown.
pub fn main(dir: &std::path::Path, opts: &super::Options, jobs: usize) -> Result<String, String> {
    let load_start = super::load_average();
    let start = Instant::now();
    let inputs = super::shader_files(dir, &opts.only)?
        .into_iter()
        .map(|f| {
            let spirv = std::fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?;
            Ok(Input::new(super::shader_name(dir, &f), spirv))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let runs = run(&inputs, &opts.targets, &opts.backends, jobs);
    let header = format!(
        "{} shaders from {}, {jobs} compiles in flight per compiler; the runs took {:.0} s.\n\n- machine: {}; 1-minute load average {:.2} at the start, {:.2} at the end\n",
        inputs.len(),
        dir.display(),
        start.elapsed().as_secs_f64(),
        super::cpu_description(),
        load_start,
        super::load_average()
    );
    Ok(render(&header, &runs))
}

/// The throughput table, then each failed compile.
pub fn render(header: &str, runs: &[Run]) -> String {
    let cell = |s: &str| s.replace('|', "/").replace(['\n', '\r'], " ");
    let mut s = String::from("## Throughput: gcnc vs RADV with the same parallelism\n\n");
    s += "Every shader compiled once per compiler and target, N at a time: gcnc on N threads in one process, RADV on N worker processes (started and warmed up before the clock starts; cache defeated). Shaders per second = compiled shaders / wall time; a failed compile counts in the time, not in the shaders.\n\n";
    s += header;
    s += "\n| target | compiler | jobs | shaders | compiled | failed | wall s | shaders/s | gcnc speed-up |\n";
    s += "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for r in runs {
        let gcnc = runs
            .iter()
            .find(|g| g.family == r.family && g.compiler == Compiler::Gcnc);
        let speed_up = gcnc.map_or("—".to_string(), |g| {
            format!("{:.2}", g.shaders_per_s() / r.shaders_per_s())
        });
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.3} | {:.1} | {} |\n",
            r.family.gfx_target(),
            r.compiler.name(),
            r.jobs,
            r.shaders,
            r.compiled,
            r.failed.len(),
            r.wall_s,
            r.shaders_per_s(),
            speed_up
        );
    }
    if runs.iter().any(|r| !r.failed.is_empty()) {
        s += "\n### Failed compiles\n\n| target | compiler | shader | error |\n| --- | --- | --- | --- |\n";
        for r in runs {
            for (name, e) in &r.failed {
                s += &format!(
                    "| {} | {} | {} | {} |\n",
                    r.family.gfx_target(),
                    r.compiler.name(),
                    cell(name),
                    cell(super::first_line(e))
                );
            }
        }
    }
    s
}
