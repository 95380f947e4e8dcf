//! `gcnc-emu`: runs a raw or PAL-ELF code object on the emulator with a given SGPR and
//! memory setup, then writes requested memory ranges to files. (`gcnc run`, which also
//! compiles SPIR-V and sets up descriptor sets, is wired by the main CLI later.)
//!
//! ```text
//! gcnc-emu CODE [--target gfx900|gfx1030|gfx1100] [--wave 32|64] [--entry OFF]
//!          [--dispatch X,Y,Z] [--group X,Y,Z] [--sgpr V,V,...] [--lds BYTES]
//!          [--map ADDR=FILE | ADDR=@SIZE]... [--dump ADDR:LEN=OUT]...
//!          [--budget N] [--war] [--no-hazards] [--no-uninit] [--no-waitcnt]
//! ```
//! Numbers accept 0x hex. Errors are printed with the failing instruction and a register
//! dump, exit status 1; usage errors exit with 2.

use gcnc::isa::{Gen, Target, Wave};
use gcnc_emu::{run, Dispatch, Memory};
use std::process::ExitCode;

fn num(s: &str) -> Result<u64, String> {
    let r = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else {
        s.parse()
    };
    r.map_err(|_| format!("bad number `{s}`"))
}

fn triple(s: &str) -> Result<[u32; 3], String> {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| num(x).map(|n| n as u32))
        .collect::<Result<_, _>>()?;
    let mut out = [1u32; 3];
    if v.is_empty() || v.len() > 3 {
        return Err(format!("expected X[,Y[,Z]], got `{s}`"));
    }
    out[..v.len()].copy_from_slice(&v);
    Ok(out)
}

fn main() -> ExitCode {
    match real_main() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("gcnc-emu: {e}");
            ExitCode::from(2)
        }
    }
}

fn real_main() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut code_path = None;
    let mut gen: Option<Gen> = None;
    let mut wave: Option<Wave> = None;
    let mut entry = None;
    let mut groups = [1, 1, 1];
    let mut group = None;
    let mut sgprs = Vec::new();
    let mut lds = None;
    let mut maps: Vec<(u64, String)> = Vec::new();
    let mut dumps: Vec<(u64, u64, String)> = Vec::new();
    let mut budget = None;
    let mut checks = gcnc_emu::Checks::default();
    let mut i = 0;
    let val = |i: &mut usize| -> Result<String, String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("{} needs a value", args[*i - 1]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--target" => gen = Some(val(&mut i)?.parse()?),
            "--wave" => {
                let w = num(&val(&mut i)?)?;
                wave = Some(Wave::from_lanes(w).ok_or(format!("wave size {w}"))?);
            }
            "--entry" => entry = Some(num(&val(&mut i)?)?),
            "--dispatch" => groups = triple(&val(&mut i)?)?,
            "--group" => group = Some(triple(&val(&mut i)?)?),
            "--sgpr" => {
                for s in val(&mut i)?.split(',') {
                    sgprs.push(num(s)? as u32);
                }
            }
            "--lds" => lds = Some(num(&val(&mut i)?)? as u32),
            "--map" => {
                let v = val(&mut i)?;
                let (a, f) = v.split_once('=').ok_or("--map ADDR=FILE|@SIZE")?;
                maps.push((num(a)?, f.to_string()));
            }
            "--dump" => {
                let v = val(&mut i)?;
                let (r, f) = v.split_once('=').ok_or("--dump ADDR:LEN=OUT")?;
                let (a, l) = r.split_once(':').ok_or("--dump ADDR:LEN=OUT")?;
                dumps.push((num(a)?, num(l)?, f.to_string()));
            }
            "--budget" => budget = Some(num(&val(&mut i)?)?),
            "--war" => checks.war = true,
            "--no-hazards" => checks.hazards = false,
            "--no-uninit" => checks.uninit = false,
            "--no-waitcnt" => checks.waitcnt = false,
            "-h" | "--help" => {
                println!("usage: gcnc-emu CODE [--target GFX] [--wave 32|64] [--entry OFF] [--dispatch X,Y,Z] [--group X,Y,Z] [--sgpr V,...] [--lds N] [--map ADDR=FILE|@SIZE]... [--dump ADDR:LEN=OUT]... [--budget N] [--war|--no-hazards|--no-uninit|--no-waitcnt]");
                return Ok(true);
            }
            a if a.starts_with("--") => return Err(format!("unknown option {a}")),
            a => {
                if code_path.replace(a.to_string()).is_some() {
                    return Err("more than one code file".into());
                }
            }
        }
        i += 1;
    }
    let path = code_path.ok_or("no code file given")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut d = if bytes.starts_with(b"\x7fELF") {
        Dispatch::from_elf(&bytes, wave).map_err(|e| e.to_string())?
    } else {
        let gen = gen.ok_or("a raw code file needs --target")?;
        let t = match wave {
            None => Target::new(gen),
            Some(w) => Target::with_wave(gen, w)?,
        };
        Dispatch::new(t, bytes)
    };
    if let Some(e) = entry {
        d.entry = e;
    }
    d.groups = groups;
    if let Some(g) = group {
        d.group_size = g;
    }
    d.user_sgprs = sgprs;
    if let Some(l) = lds {
        d.lds_bytes = l;
    }
    if let Some(b) = budget {
        d.budget = b;
    }
    d.checks = checks;
    let mut mem = Memory::new();
    for (addr, what) in &maps {
        if let Some(sz) = what.strip_prefix('@') {
            mem.map(*addr, num(sz)?);
        } else {
            let data = std::fs::read(what).map_err(|e| format!("{what}: {e}"))?;
            mem.map(*addr, data.len() as u64);
            mem.write(*addr, &data).map_err(|e| e.to_string())?;
        }
    }
    match run(&d, &mut mem) {
        Ok(stats) => {
            eprintln!(
                "ran {} workgroup(s), {} wave(s), {} instruction(s)",
                stats.workgroups, stats.waves, stats.instructions
            );
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(false);
        }
    }
    for (addr, len, out) in &dumps {
        let data = mem
            .read_vec(*addr, *len as usize)
            .map_err(|e| e.to_string())?;
        std::fs::write(out, data).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(true)
}
