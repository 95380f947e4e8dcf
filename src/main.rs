//! The `gcnc` command line. Each subcommand lives in `src/cli/<name>.rs`; this file only
//! parses arguments and dispatches, so the list below is the whole user interface.

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
enum Command {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
