//! `gcnc run`: compile a compute shader (or load a PAL ELF) and run one dispatch of it on
//! the emulator (`tools/emu`), with buffers bound by set/binding, then write or print them.
//!
//! ```text
//! gcnc run SHADER.spv|SHADER.ir|SHADER.elf [--target GFX] [--wave 32|64] [--dispatch X,Y,Z]
//!          [--bind SET:BINDING=FILE|@SIZE|image:...|sampler:...|texel:...]... [--push HEX] [--spec ID=VALUE]...
//!          [--layout L.json] [--state STATE.json] [--dump SET:BINDING=OUT]... [--print SET:BINDING[:FMT]]...
//!          [--asm] [--stats] [--budget N] [--dispatch-budget N]
//! ```
//! Images, samplers and texel buffers (`--bind` values, repeat a binding for array elements):
//! ```text
//! image:DIM:FORMAT:W[xH[xD]][:LEVELS][+SAMPLER]=FILE|@   DIM 1d 2d 3d cube 1darray 2darray cubearray
//!                                                       (D = depth or layers; 6 per cube);
//!                                                       +SAMPLER makes a combined image sampler
//! sampler:SAMPLER                                       a separate sampler
//! texel:FORMAT=FILE|@SIZE                               a uniform or storage texel buffer
//! FORMAT  r8 rgba8 rgba8_snorm rgba8_srgb rgba8ui r32f r32ui r32i rg16f rgba16f rgba32f
//!         rgba32ui rgb10a2 r11g11b10f r5g6b5, or an AMD name such as 16_16_UNORM
//! SAMPLER nearest|linear[/repeat|/mirror|/clamp|/border][/mipnearest|/miplinear]
//!         [/white|/black|/transparent][/never|/less|/equal|/lequal|/greater|/notequal|/gequal|/always]
//! ```
//! An image's FILE holds its texels in the emulator's layout (levels, then slices, then rows
//! without padding; docs/emu.md), `@` zeros; `--dump`/`--print` give the same layout back
//! (all array elements in turn). With SPIR-V input the descriptors go where the compiler put
//! them (`pipeline::default_layout`).
//!
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
    /// (SIZE zero bytes); or an image, sampler or texel buffer (`image:`, `sampler:`,
    /// `texel:` values, see the module doc / docs/emu.md). Repeatable; all bound resources
    /// together hold at most 256 MiB.
    #[arg(
        long,
        value_name = "SET:BINDING=FILE|@SIZE|image:..|sampler:..|texel:.."
    )]
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
    gcnc_emu::draw::desc::parse_hex(s).map_err(|e| format!("--push: {e}"))
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
    let words = spirv_words(&bytes);
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
        setup.layout = super::layout_file(l)?;
    }
    if let Some(p) = &a.push {
        setup.push = hex_bytes(p)?;
    }
    if !is_elf {
        // the layout the compiler used: sets the given layout omits packed from the
        // declared bindings
        if let Some(words) = &words {
            let mut o = gcnc::Options::new(gcnc::isa::Target::new(elf_gen(&elf)?));
            o.layout = setup.layout.clone();
            o.entry = a.entry.clone();
            o.spec = super::spec_values(&[words], &a.spec)?;
            setup.layout =
                pipeline::default_layout(words, &o).map_err(|e| format!("{}: {e}", a.input))?;
        }
    }
    let mut bound: Vec<(u32, u32)> = Vec::new();
    for b in &a.bind {
        let (sb, what) = b
            .split_once('=')
            .ok_or_else(|| format!("--bind `{b}`: expected SET:BINDING=FILE|@SIZE"))?;
        let (set, binding) = set_binding(sb, "--bind")?;
        let used: usize = setup.resources.iter().map(|r| r.data.len()).sum();
        let room = pipeline::MAX_RESOURCE_BYTES - used;
        let (data, place) = if let Some(spec) = what.strip_prefix("image:") {
            let (spec, src) = spec.split_once('=').ok_or_else(|| {
                format!("--bind `{b}`: expected image:DIM:FORMAT:SIZE[:LEVELS][+SAMPLER]=FILE|@")
            })?;
            let view =
                gcnc_emu::bindspec::image_view(spec).map_err(|e| format!("--bind `{b}`: {e}"))?;
            let n = view.bytes() as usize;
            let data = if src == "@" {
                bind_bytes(b, &format!("@{n}"), room)?
            } else {
                let d = bind_bytes(b, src, room)?;
                if d.len() != n {
                    return Err(format!(
                        "--bind `{b}`: {src} holds {} bytes, the image {n}",
                        d.len()
                    ));
                }
                d
            };
            (
                data,
                Place::Images {
                    set,
                    binding,
                    images: vec![view],
                },
            )
        } else if let Some(spec) = what.strip_prefix("sampler:") {
            let s = gcnc_emu::bindspec::sampler(spec).map_err(|e| format!("--bind `{b}`: {e}"))?;
            (
                Vec::new(),
                Place::Samplers {
                    set,
                    binding,
                    samplers: vec![s],
                },
            )
        } else if let Some(spec) = what.strip_prefix("texel:") {
            let (f, src) = spec
                .split_once('=')
                .ok_or_else(|| format!("--bind `{b}`: expected texel:FORMAT=FILE|@SIZE"))?;
            let (format, _) =
                gcnc_emu::bindspec::format_of(f).map_err(|e| format!("--bind `{b}`: {e}"))?;
            (
                bind_bytes(b, src, room)?,
                Place::TexelBuffer {
                    set,
                    binding,
                    format,
                },
            )
        } else {
            (bind_bytes(b, what, room)?, Place::Binding { set, binding })
        };
        // a repeated image or sampler binding adds an array element
        if let Some(k) = bound.iter().position(|&x| x == (set, binding)) {
            let r = &mut setup.resources[k];
            match (&mut r.place, place) {
                (Place::Images { images, .. }, Place::Images { images: more, .. }) => {
                    images.extend(more);
                    r.data.extend(data);
                }
                (Place::Samplers { samplers, .. }, Place::Samplers { samplers: more, .. }) => {
                    samplers.extend(more)
                }
                _ => return Err(format!("--bind: set {set} binding {binding} bound twice")),
            }
            continue;
        }
        bound.push((set, binding));
        setup.resources.push(Resource { data, place });
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

/// The SPIR-V words of the input, if it is SPIR-V (starts with the magic number).
fn spirv_words(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.starts_with(&0x0723_0203u32.to_le_bytes()) {
        return None;
    }
    gcnc::front::spirv::words_from_bytes(bytes).ok()
}

/// The generation an ELF was compiled for.
fn elf_gen(elf: &[u8]) -> Result<gcnc::isa::Gen, String> {
    gcnc::binary::ElfFile::parse(elf)
        .map_err(|e| format!("ELF: {e}"))?
        .gen()
        .ok_or_else(|| "ELF target is not gfx900/gfx1030/gfx1100".to_string())
}
