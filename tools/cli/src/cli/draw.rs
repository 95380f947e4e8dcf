//! `gcnc draw`: run one graphics draw on the emulator from a draw description (docs/draw.md)
//! and write its attachments.
//!
//! ```text
//! gcnc draw PIPELINE.json --target GFX [--wave 32|64] --out DIR [--elf PIPELINE.elf]
//!           [--budget N] [--draw-budget N]
//! ```
//! Writes `color_<i>.raw` (tightly packed rows in the attachment's format) and
//! `color_<i>.png` per colour attachment, and `depth.raw` (f32 per pixel) when the
//! description has a depth attachment; prints the draw's statistics.
//! Design: the pipeline is a PAL ELF (`--elf`, e.g. one written by `gcnc compile` or
//! assembled by hand); compiling the description's SPIR-V here waits for the compiler's
//! vertex and fragment stages (issue 13), and until then a run without `--elf` is an error
//! that says so. The emulator runs with all its strict checks; a failing draw prints the
//! emulator's error (rule or instruction, pc, wave, register dump) and exits non-zero.

use clap::Args as ClapArgs;
use gcnc_emu::draw::{self, Desc, Options, Pipeline};
use std::path::Path;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The draw description (JSON, docs/draw.md).
    pub input: String,
    /// gfx900, gfx1030 or gfx1100 (checked against the ELF's target).
    #[arg(long)]
    pub target: String,
    /// Wave size of both stages (default: the ELF's).
    #[arg(long)]
    pub wave: Option<u32>,
    /// Directory for the attachments (created).
    #[arg(long)]
    pub out: String,
    /// The pipeline as a PAL ELF with .vs/.gs and .ps hardware stages.
    #[arg(long)]
    pub elf: Option<String>,
    /// Instruction budget per wave (default 1,000,000).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Instruction budget of the whole draw (default 100,000,000).
    #[arg(long)]
    pub draw_budget: Option<u64>,
}

pub fn run(a: &Args) -> Result<(), String> {
    let target = super::target(&a.target, a.wave)?;
    let wave = super::parse_wave(a.wave)?;
    let d = Desc::load(Path::new(&a.input)).map_err(|e| format!("{}: {e}", a.input))?;
    let Some(elf_path) = &a.elf else {
        return Err(format!(
            "{}: compiling vertex + fragment pipelines is not available yet; pass --elf PIPELINE.elf",
            a.input
        ));
    };
    let elf = std::fs::read(elf_path).map_err(|e| format!("{elf_path}: {e}"))?;
    let p = Pipeline::from_elf(&elf, wave).map_err(|e| format!("{elf_path}: {e}"))?;
    if p.ps.target.gen != target.gen {
        return Err(format!(
            "{elf_path}: the ELF is for {}, not {}",
            p.ps.target.gen.mcpu(),
            a.target
        ));
    }
    let mut opt = Options::default();
    if let Some(b) = a.budget {
        opt.budget = b;
    }
    if let Some(b) = a.draw_budget {
        opt.draw_budget = b;
    }
    let (img, stats) = draw::run(&p, &d, &[], &opt).map_err(|e| format!("{}: {e}", a.input))?;
    write_images(Path::new(&a.out), &d, &img.color, img.depth.as_deref())?;
    println!(
        "{} vertex waves, {} primitives, {} pixel waves, {} quads, {} instructions",
        stats.vertex_waves, stats.primitives, stats.pixel_waves, stats.quads, stats.instructions
    );
    Ok(())
}

/// Writes `color_<i>.raw` / `.png` and `depth.raw` into `dir`.
pub fn write_images(
    dir: &Path,
    d: &draw::Draw,
    color: &[Vec<u8>],
    depth: Option<&[u8]>,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: String, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))
    };
    for (i, (c, a)) in color.iter().zip(&d.desc.color_attachments).enumerate() {
        write(format!("color_{i}.raw"), c)?;
        let rgba = draw::png::to_rgba8(a.format, c);
        write(
            format!("color_{i}.png"),
            &draw::png::encode(d.width, d.height, &rgba),
        )?;
    }
    if let Some(z) = depth {
        write("depth.raw".into(), z)?;
    }
    Ok(())
}
