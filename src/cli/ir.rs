//! `gcnc ir FILE [--after PASS|all]`: prints a shader's IR, as read or after the middle
//! end ran up to (and including) the first run of PASS, or all of it.
//!
//! Input is the IR text form (`.ir`). SPIR-V input goes through the front-end, which
//! lives in `src/front/spirv` and is wired in here when present.

use clap::Args as ClapArgs;
use gcnc::ir::{parse_module, print_module, verify_module, Module};
use gcnc::passes;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file: IR text (.ir).
    pub input: PathBuf,
    /// Run the pipeline up to this pass (its first run), or `all`.
    #[arg(long)]
    pub after: Option<String>,
}

fn load(path: &PathBuf) -> Result<Module, String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "ir" => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))?;
            let m = parse_module(&text).map_err(|e| format!("{}:{}", path.display(), e))?;
            verify_module(&m).map_err(|e| format!("{}: {}", path.display(), e))?;
            Ok(m)
        }
        _ => Err(format!(
            "{}: unsupported input (expected an .ir file)",
            path.display()
        )),
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    let mut m = load(&args.input)?;
    match args.after.as_deref() {
        None => {}
        Some("all") => passes::run_pipeline(&mut m).map_err(|e| e.to_string())?,
        Some(p) => {
            if passes::pass_by_name(p).is_none() {
                let names: Vec<&str> = passes::PASSES.iter().map(|p| p.0).collect();
                return Err(format!(
                    "unknown pass {:?}; passes: {}, or all",
                    p,
                    names.join(", ")
                ));
            }
            passes::run_pipeline_until(&mut m, Some(p)).map_err(|e| e.to_string())?;
        }
    }
    print!("{}", print_module(&m));
    Ok(())
}
