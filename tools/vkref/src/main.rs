//! `vkref`: command-line access to the reference drivers.
//!
//! ```text
//! vkref reflect SHADER.spv
//! vkref radv SHADER.spv [--family vega10|navi21|gfx1100] [--backend aco|llvm] [--wave 32|64]
//!                       [--entry main] [--repeats N] [--asm]
//! vkref cache-check SHADER.spv [--family F] [--backend B] [--entry main] [-n N]
//! vkref corpus [NAME...]        run corpus cases on lavapipe against their expectations
//! vkref compare DIR [--graphics] [--targets gfx900,gfx1030,gfx1100] [--backends aco,llvm] [--reps N]
//!                   [--only NAME,...] [--jobs N] [--out FILE] [--splice FILE]
//!                               gcnc vs RADV/ACO vs RADV/LLVM on every .spv under DIR, a
//!                               markdown table (--jobs: throughput, N compiles in flight)
//! vkref run SHADER.spv [--entry main] [--dispatch X,Y,Z] [--bind SET:BINDING=FILE|@SIZE]...
//!           [--push HEX] [--spec ID=VALUE]... [--dump SET:BINDING=OUT]...
//!                               one dispatch on lavapipe with buffers only (a shader that
//!                               is not a corpus case), as `gcnc run` takes its arguments
//! vkref draw DESC.json OUTDIR    run a draw description on lavapipe, write color_<i>.raw/.png
//!                               and depth.raw (the files `gcnc draw` writes)
//! vkref radv-worker             (internal) a RADV worker serving requests on stdin/stdout
//! ```

use std::process::ExitCode;

mod interpose_malloc;

/// `println!` that ignores a closed stdout (`vkref ... | head`) instead of panicking.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
use vkref::radv::{self, Backend, Config, Family};

fn usage() -> ExitCode {
    eprintln!(
        "usage:\n  vkref reflect SHADER.spv\n  vkref radv SHADER.spv [--family vega10|navi21|gfx1100] [--backend aco|llvm] [--wave 32|64] [--entry main] [--repeats N] [--asm]\n  vkref cache-check SHADER.spv [--family F] [--backend B] [--entry main] [-n N]\n  vkref corpus [NAME...]\n  vkref run SHADER.spv [--entry main] [--dispatch X,Y,Z] [--bind SET:BINDING=FILE|@SIZE]... [--push HEX] [--spec ID=VALUE]... [--dump SET:BINDING=OUT]...\n  vkref draw DESC.json OUTDIR\n  vkref compare DIR [--graphics] [--targets gfx900,gfx1030,gfx1100] [--backends aco,llvm] [--reps N] [--only NAME,...] [--jobs N] [--out FILE] [--splice FILE]"
    );
    ExitCode::from(2)
}

struct Opts {
    file: Option<String>,
    family: Family,
    backend: Backend,
    wave: gcnc::isa::Wave,
    entry: String,
    repeats: u32,
    asm: bool,
    names: Vec<String>,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        file: None,
        family: Family::Navi21,
        backend: Backend::Aco,
        wave: gcnc::isa::Wave::W64,
        entry: "main".into(),
        repeats: 5,
        asm: false,
        names: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--family" => {
                let v = val(a)?;
                o.family = Family::parse(&v).ok_or(format!("unknown family {v:?}"))?;
            }
            "--backend" => {
                let v = val(a)?;
                o.backend = Backend::parse(&v).ok_or(format!("unknown backend {v:?}"))?;
            }
            "--wave" => {
                o.wave = val(a)?
                    .parse()
                    .ok()
                    .and_then(gcnc::isa::Wave::from_lanes)
                    .ok_or("--wave takes 32 or 64")?
            }
            "--entry" => o.entry = val(a)?,
            "--repeats" | "-n" => {
                o.repeats = val(a)?.parse().map_err(|_| "--repeats takes a number")?
            }
            "--asm" => o.asm = true,
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => {
                if o.file.is_none() {
                    o.file = Some(s.to_string());
                }
                o.names.push(s.to_string());
            }
        }
    }
    Ok(o)
}

fn read(o: &Opts) -> Result<Vec<u8>, String> {
    let f = o.file.as_ref().ok_or("missing SHADER.spv")?;
    std::fs::read(f).map_err(|e| format!("{f}: {e}"))
}

fn run(cmd: &str, o: &Opts) -> Result<(), String> {
    match cmd {
        "reflect" => {
            let m = vkref::reflect::reflect_bytes(&read(o)?).map_err(|e| e.to_string())?;
            say!("{m:#?}");
        }
        "radv" => {
            let spv = read(o)?;
            let cfg = Config::new(o.family, o.backend, o.wave);
            let c = radv::with_worker(cfg, |w| w.compile(&spv, &o.entry, o.repeats))
                .map_err(|e| e.to_string())?;
            say!("config: {cfg}  subgroup size: {}", c.subgroup_size);
            let us: Vec<String> = c
                .compile_ns
                .iter()
                .map(|t| format!("{:.1}", *t as f64 / 1e3))
                .collect();
            say!(
                "compile time (us): median {:.1}  runs [{}]",
                c.median_ns() as f64 / 1e3,
                us.join(", ")
            );
            for s in &c.statistics {
                say!("  {:<22} {:?}", s.name, s.value);
            }
            if let Some(n) = c.instructions() {
                say!(
                    "  {:<22} {n} (instructions, ACO's count or counted in the disassembly)",
                    "="
                );
            }
            if o.asm {
                for (name, text) in &c.representations {
                    say!("--- {name}\n{text}");
                }
            }
        }
        "cache-check" => {
            let spv = read(o)?;
            let c = radv::cache_check(&spv, &o.entry, o.family, o.backend, o.repeats.max(3))
                .map_err(|e| e.to_string())?;
            say!("first creation: {} ns", c.first_ns);
            say!("same module again: {:?} ns", c.same_module_ns);
            say!("fresh modules: {:?} ns", c.fresh_module_ns);
            match c.verdict() {
                Ok(()) => say!("cache defeated: fresh-module creations are real compiles"),
                Err(e) => return Err(e),
            }
        }
        "corpus" => {
            let mut failed = 0;
            let mut passed = 0;
            for case in vkref::corpus::cases() {
                if !o.names.is_empty() && !o.names.iter().any(|n| n == case.name) {
                    continue;
                }
                match vkref::corpus::run_on_lavapipe(&case) {
                    Ok(()) => {
                        passed += 1;
                        say!("ok   {}", case.name)
                    }
                    Err(e)
                        if vkref::corpus::lavapipe_lacks(case.name).is_some_and(|f| {
                            e.contains(&format!("needs the device feature {f};"))
                        }) =>
                    {
                        say!("n/a  {}: {e} (corpus::LAVAPIPE_LACKS)", case.name)
                    }
                    Err(e) => {
                        failed += 1;
                        say!("FAIL {}: {e}", case.name)
                    }
                }
            }
            say!("{passed} passed, {failed} failed");
            if failed > 0 {
                return Err(format!("{failed} corpus cases failed"));
            }
        }
        _ => return Err(format!("unknown command {cmd:?}")),
    }
    Ok(())
}

/// `vkref draw DESC.json OUTDIR`.
fn draw_main(args: &[String]) -> Result<(), String> {
    let [desc, out] = args else {
        return Err("usage: vkref draw DESC.json OUTDIR".into());
    };
    let d = gcnc_emu::draw::Desc::load(std::path::Path::new(desc))
        .map_err(|e| format!("{desc}: {e}"))?;
    let a = vkref::draw::run_draw(&d).map_err(|e| e.to_string())?;
    gcnc_emu::draw::write_files(
        std::path::Path::new(out),
        &d,
        &a.color,
        &a.resolved,
        a.depth.as_deref(),
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    if cmd == "radv-worker" {
        return ExitCode::from(radv::worker_main() as u8);
    }
    if cmd == "draw" {
        return match draw_main(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("vkref draw: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if cmd == "run" {
        return match vkref::run_buffers::main(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("vkref run: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if cmd == "compare" {
        return match vkref::compare::main(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("vkref compare: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let o = match parse(&args[1..]) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("vkref: {e}");
            return usage();
        }
    };
    match run(cmd, &o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vkref: {e}");
            ExitCode::FAILURE
        }
    }
}
