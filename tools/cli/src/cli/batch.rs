//! `gcnc batch DIR_OR_LIST --target T [--wave N] [--jobs N] [-o OUTDIR] [--json]`: many
//! compute shaders compiled on all cores.
//!
//! Inputs: every `*.spv` file under a directory, its subdirectories included (sorted by
//! path), or the files a list names (one path per line, relative to the current
//! directory; blank lines and `#` comments skipped), in the list's order. Each is compiled
//! exactly as `gcnc compile FILE --target T [--wave N]` compiles it (`gcnc::compile_spirv`
//! with the target's defaults and the environment's settings), so its ELF under `-o
//! OUTDIR` holds the same bytes. A directory's shaders keep their relative paths there
//! (`OUTDIR/sub/NAME.elf`); a list's go to `OUTDIR/NAME.elf`, and two listed inputs with
//! the same file stem would write the same output and are refused before anything runs.
//!
//! Work is spread over a rayon pool of `--jobs` threads (default: every core); results
//! are collected by input index, so the report's order and content never depend on the
//! threads. A progress bar (indicatif) is drawn on stderr only when stderr is a terminal.
//!
//! The report: compiled and rejected counts, the rejections grouped by reason (which layer
//! refused and its class, e.g. `front end: Unsupported`) with each file's message, the
//! wall time and shaders per second; `--json` prints the same as one JSON object with
//! each shader's statistics (RADV names) instead. A rejected shader is a result, not a
//! failure: the command fails only on bad arguments, an unreadable list or an unwritable
//! output.

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Parsed `gcnc batch` arguments.
#[derive(clap::Args)]
pub struct Args {
    /// A directory (searched with its subdirectories for `.spv` files), or a file listing one SPIR-V path per line.
    pub input: String,
    #[arg(long)]
    pub target: String,
    #[arg(long)]
    pub wave: Option<u32>,
    /// Compile on this many threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write each compiled shader's ELF under OUTDIR: a directory's at their relative paths, a list's as <file stem>.elf.
    #[arg(short = 'o')]
    pub output: Option<String>,
    /// Print the report as JSON (for scripts).
    #[arg(long)]
    pub json: bool,
}

/// One input's outcome.
enum Outcome {
    Compiled {
        elf: Vec<u8>,
        stats: gcnc::amdgpu::emit::Stats,
    },
    /// (reason group, message)
    Rejected(String, String),
}

/// The `*.spv` files under `dir`, depth first; a subdirectory that cannot be read is an
/// error rather than a silently smaller batch.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in rd {
        let p = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.is_file() && p.extension().is_some_and(|e| e == "spv") {
            out.push(p);
        }
    }
    Ok(())
}

/// The input files, in order.
fn inputs(arg: &str) -> Result<Vec<PathBuf>, String> {
    let p = Path::new(arg);
    if p.is_dir() {
        let mut v = Vec::new();
        walk(p, &mut v)?;
        v.sort();
        return Ok(v);
    }
    let bytes = std::fs::read(p).map_err(|e| format!("{arg}: {e}"))?;
    if bytes.starts_with(&0x0723_0203u32.to_le_bytes()) {
        return Err(format!(
            "{arg}: a SPIR-V module, not a directory or a list of files"
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{arg}: neither a directory nor a UTF-8 list of files"))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(PathBuf::from)
        .collect())
}

/// The reason group of a rejection: the layer that refused and its class.
fn reason(e: &gcnc::Error) -> String {
    use gcnc::amdgpu::Error as B;
    match e {
        gcnc::Error::Target(_) => "target".into(),
        gcnc::Error::Front(f) => format!("front end: {:?}", f.kind),
        gcnc::Error::Verify(_) => "IR verifier".into(),
        gcnc::Error::Pass(_) => "middle end".into(),
        gcnc::Error::Backend(b) => format!(
            "backend: {}",
            match b {
                B::Unsupported { .. } => "unsupported",
                B::NotOnTarget { .. } => "not on this target",
                B::RegisterPressure { .. } => "register pressure",
                B::Layout(_) => "layout",
                B::Encode(_) => "encoding",
                B::BranchRange { .. } => "branch range",
                B::Isa { .. } => "ISA",
                B::Binary(_) => "binary",
                B::Verify(_) => "MIR verifier",
                B::NeedsWholePipeline(_) => "needs the whole pipeline",
                B::NoEntryPoint => "no entry point",
            }
        ),
        gcnc::Error::Binary(_) => "binary".into(),
        gcnc::Error::Link(_) => "link".into(),
    }
}

/// Compiles one file as `gcnc compile FILE --target T` does.
fn compile(path: &Path, opts: &gcnc::Options) -> Outcome {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Outcome::Rejected("unreadable".into(), e.to_string()),
    };
    let r = gcnc::front::spirv::words_from_bytes(&bytes)
        .map_err(gcnc::Error::from)
        .and_then(|w| gcnc::compile_spirv(&w, opts));
    match r {
        Ok(c) => Outcome::Compiled {
            elf: c.elf,
            stats: c.stats,
        },
        Err(e) => Outcome::Rejected(reason(&e), e.to_string()),
    }
}

/// Where each input's ELF goes under `dir`: its path relative to the input directory
/// `base`, or for a list its file stem; two inputs with one output are refused.
fn output_paths(
    dir: &Path,
    base: Option<&Path>,
    files: &[PathBuf],
) -> Result<Vec<PathBuf>, String> {
    let mut seen: BTreeMap<PathBuf, &Path> = BTreeMap::new();
    let mut out = Vec::new();
    for f in files {
        let rel = match base.and_then(|b| f.strip_prefix(b).ok()) {
            Some(r) => r.to_path_buf(),
            None => f
                .file_stem()
                .map(PathBuf::from)
                .ok_or_else(|| format!("{}: no file name", f.display()))?,
        };
        let o = dir.join(rel).with_extension("elf");
        if let Some(prev) = seen.insert(o.clone(), f) {
            return Err(format!(
                "{} and {} would both write {}",
                prev.display(),
                f.display(),
                o.display()
            ));
        }
        out.push(o);
    }
    Ok(out)
}

/// The statistics as a JSON object under RADV's names (those of `Stats::to_text`).
fn stats_json(s: &gcnc::amdgpu::emit::Stats) -> serde_json::Value {
    s.to_text()
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(name, v)| (name.to_string(), json!(v.parse::<u64>().ok())))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

pub fn run(a: &Args) -> Result<(), String> {
    let target = super::target(&a.target, a.wave)?;
    let files = inputs(&a.input)?;
    let outputs = match &a.output {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("{d}: {e}"))?;
            let base = Path::new(&a.input);
            Some(output_paths(
                Path::new(d),
                base.is_dir().then_some(base),
                &files,
            )?)
        }
        None => None,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(j) = a.jobs {
        if j == 0 {
            return Err("--jobs must be at least 1".into());
        }
        pool = pool.num_threads(j);
    }
    let pool = pool.build().map_err(|e| e.to_string())?;
    let mut opts = gcnc::Options::new(target);
    opts.settings = super::settings_from_env();

    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(files.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} shaders, eta {eta}")
                .map_err(|e| e.to_string())?,
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let results: Vec<Outcome> = pool.install(|| {
        files
            .par_iter()
            .map(|f| {
                let r = compile(f, &opts);
                bar.inc(1);
                r
            })
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    if let Some(outs) = &outputs {
        for (r, o) in results.iter().zip(outs) {
            if let Outcome::Compiled { elf, .. } = r {
                if let Some(parent) = o.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                std::fs::write(o, elf).map_err(|e| format!("{}: {e}", o.display()))?;
            }
        }
    }

    let compiled = results
        .iter()
        .filter(|r| matches!(r, Outcome::Compiled { .. }))
        .count();
    let rejected = results.len() - compiled;
    let per_second = if seconds > 0.0 {
        results.len() as f64 / seconds
    } else {
        0.0
    };
    // reason → files (in input order) with their messages
    let mut groups: BTreeMap<&str, Vec<(&Path, &str)>> = BTreeMap::new();
    for (r, f) in results.iter().zip(&files) {
        if let Outcome::Rejected(why, msg) = r {
            groups.entry(why).or_default().push((f, msg));
        }
    }
    let jobs = pool.current_num_threads();
    if a.json {
        let shaders: Vec<serde_json::Value> = results
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                Outcome::Compiled { elf, stats } => json!({
                    "file": files[i].display().to_string(),
                    "compiled": true,
                    "output": outputs.as_ref().map(|o| o[i].display().to_string()),
                    "size": elf.len(),
                    "stats": stats_json(stats),
                }),
                Outcome::Rejected(why, msg) => json!({
                    "file": files[i].display().to_string(),
                    "compiled": false,
                    "reason": why,
                    "error": msg,
                }),
            })
            .collect();
        let report = json!({
            "target": target.gen.to_string(),
            "wave": target.wave.lanes(),
            "jobs": jobs,
            "shaders": files.len(),
            "compiled": compiled,
            "rejected": rejected,
            "rejections": groups.iter().map(|(k, v)| (k.to_string(), json!(v.len()))).collect::<serde_json::Map<_, _>>(),
            "seconds": seconds,
            "shaders_per_second": per_second,
            "results": shaders,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    println!(
        "compiled {compiled} of {} shaders for {} wave{} ({rejected} rejected) in {seconds:.2} s on {jobs} thread{}: {per_second:.1} shaders/s",
        files.len(),
        target.gen,
        target.wave.lanes(),
        if jobs == 1 { "" } else { "s" },
    );
    for (why, list) in &groups {
        println!("rejected, {why} ({}):", list.len());
        for (f, msg) in list {
            println!("  {}: {msg}", f.display());
        }
    }
    Ok(())
}
