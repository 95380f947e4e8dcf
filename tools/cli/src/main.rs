//! The `gcnc` command line (package `gcnc-cli`, binary `gcnc`). It is a package of its own so
//! that it may use the emulator (`tools/emu`), which itself depends on the `gcnc` library.
//! Each subcommand lives in `src/cli/<name>.rs`; this file only
//! parses arguments and dispatches, so the list below is the whole user interface.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gcnc",
    version,
    about = "SPIR-V to AMD GCN/RDNA compiler without LLVM"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble LLVM-syntax assembly (one instruction per line) to raw machine code.
    Asm {
        #[arg(long)]
        target: String,
        #[arg(long)]
        wave: Option<u32>,
        input: String,
        #[arg(short = 'o')]
        output: String,
    },
    /// Disassemble raw machine code or an ELF's .text, printing llvm-mc's text.
    Disasm {
        #[arg(long)]
        target: String,
        #[arg(long)]
        wave: Option<u32>,
        /// Treat the file as raw bytes even if it starts with the ELF magic.
        #[arg(long)]
        raw: bool,
        /// Add the byte offset of each instruction as a comment.
        #[arg(long)]
        offsets: bool,
        /// Add the instruction dwords as a comment.
        #[arg(long)]
        hex: bool,
        file: String,
    },
    /// Per generation: instructions in the ISA tables and how many are verified against LLVM.
    IsaCoverage,
    /// Compile a compute shader (SPIR-V or IR text) to a PAL ELF; with two SPIR-V
    /// inputs, a vertex and a fragment shader to one VS+PS pipeline ELF (default state,
    /// docs/abi.md "Graphics").
    Compile {
        input: String,
        /// The fragment shader of a graphics pipeline (`input` is then the vertex shader).
        fragment: Option<String>,
        #[arg(long)]
        target: String,
        #[arg(long)]
        wave: Option<u32>,
        #[arg(long)]
        entry: Option<String>,
        #[arg(long)]
        layout: Option<String>,
        /// Specialization constant ID=VALUE (SPIR-V input), read by the constant's type:
        /// `2=0.5`, `3=true`, `4=-7`, or a `0x` bit pattern.
        #[arg(long)]
        spec: Vec<String>,
        #[arg(short = 'o')]
        output: Option<String>,
        /// Print RADV-named statistics.
        #[arg(long)]
        stats: bool,
        /// Print the disassembly.
        #[arg(long)]
        asm: bool,
        /// Skip the middle-end pipeline (the IR is already optimised).
        #[arg(long)]
        no_opt: bool,
        /// Cap the SGPR budget of register allocation.
        #[arg(long)]
        max_sgprs: Option<u16>,
        /// Cap the VGPR budget of register allocation.
        #[arg(long)]
        max_vgprs: Option<u16>,
        /// Compile unlinked (docs/link.md): descriptor and user-data layout left to
        /// `gcnc link`; the ELF carries relocations and `gcnc.prelink`.
        #[arg(long)]
        unlinked: bool,
        /// With --unlinked: a SpecId whose value comes at link (repeatable).
        #[arg(long)]
        link_spec: Vec<u32>,
        /// With two inputs: a draw description (docs/draw.md) as the pipeline state
        /// (vertex inputs, attachment formats, descriptors, specialization constants).
        #[arg(long)]
        state: Option<String>,
    },
    /// Link unlinked shader ELFs with the pipeline state into one PAL pipeline ELF.
    Link {
        /// Unlinked ELFs (one per hardware stage).
        #[arg(required = true, num_args = 1..=2)]
        inputs: Vec<String>,
        /// Pipeline state JSON (docs/link.md).
        #[arg(long)]
        state: String,
        #[arg(short = 'o')]
        output: String,
        /// Shader cache directory for built parts.
        #[arg(long)]
        cache_dir: Option<String>,
        /// Print where each part went.
        #[arg(long, short = 'v')]
        verbose: bool,
    },
    /// Compile many compute shaders (a directory of .spv files or a list) on all cores,
    /// with a progress bar and a summary (or --json).
    Batch(cli::batch::Args),
    /// Print a shader's IR, optionally after running the middle end up to a pass.
    Ir(cli::ir::Args),
    /// Compile a compute shader (or load a PAL ELF) and run one dispatch on the emulator.
    Run(cli::run::Args),
    /// Run one graphics draw (a JSON draw description and a pipeline ELF) on the emulator.
    Draw(cli::draw::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Asm {
            target,
            wave,
            input,
            output,
        } => cli::asm::run(&target, wave, &input, &output),
        Command::Disasm {
            target,
            wave,
            raw,
            offsets,
            hex,
            file,
        } => cli::disasm::run(
            &target,
            wave,
            &file,
            &cli::disasm::Opts { raw, offsets, hex },
        )
        .map(|s| print!("{s}")),
        Command::Compile {
            input,
            fragment: Some(fragment),
            target,
            wave,
            entry: _,
            layout,
            spec,
            output,
            stats,
            asm,
            state,
            ..
        } => cli::compile::run_pipeline(&cli::compile::PipelineArgs {
            vertex: input,
            fragment,
            target,
            wave,
            layout,
            spec,
            output,
            stats,
            asm,
            state,
        }),
        Command::Compile {
            input,
            fragment: None,
            target,
            wave,
            entry,
            layout,
            spec,
            output,
            stats,
            asm,
            no_opt,
            max_sgprs,
            max_vgprs,
            unlinked,
            link_spec,
            state: None,
        } => cli::compile::run(&cli::compile::Args {
            input,
            target,
            wave,
            entry,
            layout,
            spec,
            output,
            stats,
            asm,
            no_opt,
            max_sgprs,
            max_vgprs,
            unlinked,
            link_spec,
        }),
        Command::Compile { state: Some(_), .. } => Err(
            "--state is the state of a graphics pipeline: give a vertex and a fragment shader"
                .into(),
        ),
        Command::Link {
            inputs,
            state,
            output,
            cache_dir,
            verbose,
        } => cli::link::run(&cli::link::Opts {
            inputs,
            state,
            output,
            cache_dir,
            verbose,
        }),
        Command::Batch(a) => cli::batch::run(&a),
        Command::Ir(a) => cli::ir::run(&a),
        Command::Run(a) => cli::run::run(&a),
        Command::Draw(a) => cli::draw::run(&a),
        Command::IsaCoverage => {
            print!("{}", cli::isa_coverage::report());
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gcnc: {e}");
            ExitCode::FAILURE
        }
    }
}
