//! `gcnc run`: compile a compute shader (or load a PAL ELF) and run one dispatch of it on
//! the emulator (`tools/emu`), with buffers bound by set/binding, then write or print them.
//!
//! ```text
//! gcnc run SHADER.spv|SHADER.ir|SHADER.elf [--target GFX] [--wave 32|64] [--dispatch X,Y,Z]
//!          [--bind SET:BINDING=FILE|@SIZE]... [--push HEX] [--spec ID=VALUE]...
//!          [--layout L.json] [--state STATE.json] [--dump SET:BINDING=OUT]... [--print SET:BINDING[:FMT]]...
//!          [--asm] [--stats] [--budget N] [--dispatch-budget N]
//! ```
//! Limits (docs/emu.md): the bound buffers hold at most `pipeline::MAX_RESOURCE_BYTES`
//! together (checked before anything is allocated or read past it), and a dispatch runs
//! at most `--dispatch-budget` instructions over all its waves.
//! Design: compilation is `gcnc compile`'s (`cli::compile::build`, same options); the
//! memory and register setup is the emulator library's `gcnc_emu::pipeline` (docs/abi.md),
//! so this file only parses, reads files and reports. The emulator runs with all its
//! strict checks; a failing run prints the emulator's error (instruction, pc, wave and a
//! register dump) and exits non-zero. Nothing here panics on bad input: every malformed
//! argument is an error naming the argument.

use super::compile;
use clap::Args as ClapArgs;
use gcnc_emu::pipeline::{self, Place, Resource, Setup};

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// SPIR-V (.spv), IR text (.ir) or a PAL ELF written by `gcnc compile`.
    pub input: String,
    /// gfx900, gfx1030 or gfx1100 (required to compile; checked against an ELF's target).
    #[arg(long)]
    pub target: Option<String>,
    #[arg(long)]
    pub wave: Option<u32>,
    /// Workgroup counts X[,Y[,Z]].
    #[arg(long, default_value = "1,1,1")]
    pub dispatch: String,
    /// Bind a storage/uniform buffer: SET:BINDING=FILE (its bytes) or SET:BINDING=@SIZE
    /// (SIZE zero bytes). Repeatable; all bound buffers together hold at most 256 MiB.
    #[arg(long, value_name = "SET:BINDING=FILE|@SIZE")]
    pub bind: Vec<String>,
    /// Push-constant bytes as hex (`0a000000ff...`; spaces and `_` are ignored).
    #[arg(long)]
    pub push: Option<String>,
    /// Specialization constant ID=VALUE (SPIR-V input), read by the constant's type:
    /// `2=0.5`, `3=true`, `4=-7`, or a `0x` bit pattern.
    #[arg(long)]
    pub spec: Vec<String>,
    #[arg(long)]
    pub entry: Option<String>,
    /// Pipeline layout JSON (docs/abi.md), used both to compile and to place descriptors.
    #[arg(long)]
    pub layout: Option<String>,
    /// The pipeline state an ELF was linked with (`gcnc link --state`, docs/link.md): what
    /// its user-data entries and descriptor table hold, and its descriptor offsets.
    #[arg(long)]
    pub state: Option<String>,
    /// Write a bound buffer after the run: SET:BINDING=OUT. Repeatable.
    #[arg(long, value_name = "SET:BINDING=OUT")]
    pub dump: Vec<String>,
    /// Print a bound buffer after the run: SET:BINDING[:hex|u32|i32|f32]. Repeatable.
    #[arg(long, value_name = "SET:BINDING[:FMT]")]
    pub print: Vec<String>,
    /// Print the disassembly of the compiled code.
    #[arg(long)]
    pub asm: bool,
    /// Print RADV-named statistics of the compiled code.
    #[arg(long)]
    pub stats: bool,
    /// Skip the middle end (IR input that is already optimised).
    #[arg(long)]
    pub no_opt: bool,
    /// Instruction budget per wave (default 1,000,000).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Instruction budget of the whole dispatch, all waves together (default 100,000,000).
    #[arg(long)]
    pub dispatch_budget: Option<u64>,
}

/// The bytes of `--bind` argument `b` (`@SIZE` or a file), refused before allocating or
/// reading more than `room` bytes.
fn bind_bytes(b: &str, what: &str, room: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let over = || {
        format!(
            "--bind {b}: the bound buffers would exceed {} bytes together (docs/emu.md)",
            pipeline::MAX_RESOURCE_BYTES
        )
    };
    if let Some(n) = what.strip_prefix('@') {
        let n: u64 = n
            .parse()
            .map_err(|_| format!("--bind `{b}`: `{n}` is not a byte count"))?;
        if n > room as u64 {
            return Err(over());
        }
        return Ok(vec![0u8; n as usize]);
    }
    let f = std::fs::File::open(what).map_err(|e| format!("--bind {b}: {what}: {e}"))?;
    let mut data = Vec::new();
    f.take(room as u64 + 1)
        .read_to_end(&mut data)
        .map_err(|e| format!("--bind {b}: {what}: {e}"))?;
    if data.len() > room {
        return Err(over());
    }
    Ok(data)
}

fn set_binding(s: &str, what: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{what} `{s}`: expected SET:BINDING");
    let (a, b) = s.split_once(':').ok_or_else(bad)?;
    Ok((
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

fn triple(s: &str) -> Result<[u32; 3], String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.is_empty() || v.len() > 3 {
        return Err(format!("--dispatch `{s}`: expected X[,Y[,Z]]"));
    }
    let mut out = [1u32; 3];
    for (k, x) in v.iter().enumerate() {
        out[k] = x
            .trim()
            .parse()
            .ok()
            .filter(|&n: &u32| n > 0)
            .ok_or_else(|| format!("--dispatch `{s}`: `{x}` is not a positive count"))?;
    }
    Ok(out)
}

fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<char> = s
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if digits.len() % 2 != 0 {
        return Err(format!("--push: odd number of hex digits in `{s}`"));
    }
    digits
        .chunks(2)
        .map(|p| {
            let t: String = p.iter().collect();
            u8::from_str_radix(&t, 16).map_err(|_| format!("--push: `{t}` is not hex"))
        })
        .collect()
}

/// Buffer contents as text: `fmt` is hex (default), u32, i32 or f32; 8 values a line
/// after the byte offset.
fn format_buffer(data: &[u8], fmt: &str) -> Result<String, String> {
    let mut out = String::new();
    for (row, chunk) in data.chunks(32).enumerate() {
        out.push_str(&format!("  {:#06x}:", row * 32));
        for w in chunk.chunks(4) {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            let v = u32::from_le_bytes(b);
            out.push_str(&match fmt {
                "hex" => format!(" {v:08x}"),
                "u32" => format!(" {v}"),
                "i32" => format!(" {}", v as i32),
                "f32" => format!(" {:?}", f32::from_bits(v)),
                other => return Err(format!("--print: unknown format `{other}`")),
            });
        }
        out.push('\n');
    }
    Ok(out)
}

pub fn run(a: &Args) -> Result<(), String> {
    let bytes = std::fs::read(&a.input).map_err(|e| format!("{}: {e}", a.input))?;
    let is_elf = bytes.starts_with(b"\x7fELF");
    if a.state.is_some() && !is_elf {
        return Err(format!(
            "{}: --state applies to an ELF linked by gcnc link, not to a shader to compile",
            a.input
        ));
    }
    let elf = if is_elf {
        if !a.spec.is_empty() || a.entry.is_some() || a.asm || a.stats || a.no_opt {
            return Err(format!(
                "{}: --spec, --entry, --asm, --stats and --no-opt apply to a shader to compile, not to an ELF",
                a.input
            ));
        }
        if let Some(t) = &a.target {
            let want: gcnc::isa::Gen = t.parse()?;
            let d = gcnc_emu::Dispatch::from_elf(&bytes, None)
                .map_err(|e| format!("{}: {e}", a.input))?;
            if d.target.gen != want {
                return Err(format!(
                    "{}: the ELF is for {}, not {t}",
                    a.input,
                    d.target.gen.mcpu()
                ));
            }
        }
        bytes
    } else {
        let target = a
            .target
            .clone()
            .ok_or("--target is required to compile a shader")?;
        let c = compile::build(&compile::Args {
            input: a.input.clone(),
            target,
            wave: a.wave,
            entry: a.entry.clone(),
            layout: a.layout.clone(),
            spec: a.spec.clone(),
            output: None,
            stats: false,
            asm: false,
            no_opt: a.no_opt,
            max_sgprs: None,
            max_vgprs: None,
            unlinked: false,
            link_spec: Vec::new(),
        })?;
        if a.asm {
            print!("{}", c.asm().map_err(|e| e.to_string())?);
        }
        if a.stats {
            print!("{}", c.stats.to_text());
        }
        c.elf
    };
    let mut setup = Setup::new(triple(&a.dispatch)?);
    setup.wave = super::parse_wave(a.wave)?;
    setup.budget = a.budget;
    setup.dispatch_budget = a.dispatch_budget;
    if let Some(s) = &a.state {
        let t = std::fs::read_to_string(s).map_err(|e| format!("{s}: {e}"))?;
        setup.link_state =
            Some(gcnc::link::state::PipelineState::from_json(&t).map_err(|e| format!("{s}: {e}"))?);
    }
    if let Some(l) = &a.layout {
        let t = std::fs::read_to_string(l).map_err(|e| format!("{l}: {e}"))?;
        setup.layout =
            gcnc::amdgpu::abi::PipelineLayout::from_json(&t).map_err(|e| format!("{l}: {e}"))?;
    }
    if let Some(p) = &a.push {
        setup.push = hex_bytes(p)?;
    }
    let mut bound = Vec::new();
    for b in &a.bind {
        let (sb, what) = b
            .split_once('=')
            .ok_or_else(|| format!("--bind `{b}`: expected SET:BINDING=FILE|@SIZE"))?;
        let (set, binding) = set_binding(sb, "--bind")?;
        if bound.contains(&(set, binding)) {
            return Err(format!("--bind: set {set} binding {binding} bound twice"));
        }
        let used: usize = setup.resources.iter().map(|r| r.data.len()).sum();
        let data = bind_bytes(b, what, pipeline::MAX_RESOURCE_BYTES - used)?;
        bound.push((set, binding));
        setup.resources.push(Resource {
            data,
            place: Place::Binding { set, binding },
        });
    }
    let index = |sb: (u32, u32), opt: &str| {
        bound.iter().position(|&x| x == sb).ok_or_else(|| {
            format!(
                "{opt}: set {} binding {} is not bound (use --bind)",
                sb.0, sb.1
            )
        })
    };
    let mut dumps = Vec::new();
    for d in &a.dump {
        let (sb, out) = d
            .split_once('=')
            .ok_or_else(|| format!("--dump `{d}`: expected SET:BINDING=OUT"))?;
        dumps.push((
            index(set_binding(sb, "--dump")?, "--dump")?,
            out.to_string(),
        ));
    }
    let mut prints = Vec::new();
    for p in &a.print {
        let mut it = p.splitn(3, ':');
        let sb = format!("{}:{}", it.next().unwrap_or(""), it.next().unwrap_or(""));
        let fmt = it.next().unwrap_or("hex").to_string();
        format_buffer(&[], &fmt)?;
        prints.push((index(set_binding(&sb, "--print")?, "--print")?, sb, fmt));
    }
    let (ran, stats) =
        pipeline::run_elf(&elf, &setup).map_err(|e| format!("{}: emulator: {e}", a.input))?;
    println!(
        "ran {} workgroup(s), {} wave(s) of {} lanes on {}, {} instruction(s)",
        stats.workgroups,
        stats.waves,
        ran.dispatch.target.wave.lanes(),
        ran.dispatch.target.gen.mcpu(),
        stats.instructions
    );
    for (k, sb, fmt) in &prints {
        let data = ran.resource(*k).map_err(|e| e.to_string())?;
        println!(
            "set {} ({} bytes):",
            sb.replacen(':', " binding ", 1),
            data.len()
        );
        print!("{}", format_buffer(&data, fmt)?);
    }
    for (k, out) in &dumps {
        let data = ran.resource(*k).map_err(|e| e.to_string())?;
        std::fs::write(out, data).map_err(|e| format!("--dump {out}: {e}"))?;
    }
    Ok(())
}
