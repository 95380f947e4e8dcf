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
    /// Translate SPIR-V and print the IR (optionally after a middle-end pass).
    Ir(cli::ir::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Ir(a) => match cli::ir::run(&a) {
            Ok(text) => {
                print!("{}", text);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gcnc ir: {}", e);
                ExitCode::FAILURE
            }
        },
    }
}
