//! The `gcnc` command line. Each subcommand lives in `src/cli/<name>.rs`; this file only
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
    /// Print a shader's IR, optionally after running the middle end up to a pass.
    Ir(cli::ir::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Ir(a) => cli::ir::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e);
            ExitCode::FAILURE
        }
    }
}
