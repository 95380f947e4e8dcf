//! `gcnc ir FILE [--entry NAME] [--stage STAGE] [--spec ID=VALUE]... [--after PASS|all] [--divergence]`:
//! prints a shader's IR, as read or after the middle end ran up to (and including) the first
//! run of PASS, or all of it; `--divergence` marks the values the divergence analysis finds
//! divergent.
//!
//! Input is SPIR-V (`.spv`, or any file starting with the SPIR-V magic number), translated
//! by the front-end (`src/front/spirv`), or the IR text form (`.ir`).

use clap::Args as ClapArgs;
use gcnc::front::spirv::{translate, words_from_bytes, Options, MAGIC};
use gcnc::ir::{parse_module, print_module, print_module_annotated, verify_module, Module};
use gcnc::passes;
use std::path::PathBuf;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file: SPIR-V (.spv) or IR text (.ir).
    pub input: PathBuf,
    /// SPIR-V entry point name (default: the first supported one).
    #[arg(long)]
    pub entry: Option<String>,
    /// SPIR-V entry point stage: compute, vertex or fragment (default: any).
    #[arg(long)]
    pub stage: Option<String>,
    /// Specialization constant value, `SPEC_ID=VALUE`, read by the constant's type
    /// (`2=0.5`, `3=true`, `4=-7`) or a `0x` bit pattern. Repeatable.
    #[arg(long = "spec", value_name = "ID=VALUE")]
    pub spec: Vec<String>,
    /// Run the pipeline up to this pass (its first run), or `all`.
    #[arg(long)]
    pub after: Option<String>,
    /// Mark divergent values with `; divergent` (divergence analysis).
    #[arg(long)]
    pub divergence: bool,
}

fn load(args: &Args) -> Result<Module, String> {
    let path = &args.input;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let is_spirv = ext == "spv" || bytes.get(..4) == Some(&MAGIC.to_le_bytes()[..]);
    if is_spirv {
        let words = words_from_bytes(&bytes).map_err(|e| format!("{}: {}", path.display(), e))?;
        let spec = super::spec_values(&[&words], &args.spec)?;
        let stage =
            match args.stage.as_deref() {
                None => None,
                Some(s) => Some(gcnc::ir::Stage::from_name(s).ok_or_else(|| {
                    format!("--stage {}: expected compute, vertex or fragment", s)
                })?),
            };
        let opts = Options {
            entry: args.entry.clone(),
            spec,
            stage,
        };
        return translate(&words, &opts).map_err(|e| format!("{}: {}", path.display(), e));
    }
    match ext {
        "ir" => {
            let text =
                String::from_utf8(bytes).map_err(|e| format!("{}: {}", path.display(), e))?;
            let m = parse_module(&text).map_err(|e| format!("{}:{}", path.display(), e))?;
            verify_module(&m).map_err(|e| format!("{}: {}", path.display(), e))?;
            Ok(m)
        }
        _ => Err(format!(
            "{}: unsupported input (expected .spv or .ir)",
            path.display()
        )),
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    let mut m = load(args)?;
    let stop = match args.after.as_deref() {
        None => None,
        Some("all") => Some(None),
        Some(p) => {
            if passes::pass_by_name(p).is_none() {
                let names: Vec<&str> = passes::PASSES.iter().map(|p| p.0).collect();
                return Err(format!(
                    "unknown pass {:?}; passes: {}, or all",
                    p,
                    names.join(", ")
                ));
            }
            Some(Some(p))
        }
    };
    if let Some(stop_after) = stop {
        let run = passes::run_pipeline_with(&mut m, &super::settings_from_env(), stop_after)
            .map_err(|e| e.to_string())?;
        super::print_timings(&run.timings);
    }
    if args.divergence {
        let d = passes::divergence::analyze(&m);
        print!(
            "{}",
            print_module_annotated(&m, &|f, i| d.is_divergent(f, i).then(|| "divergent".into()))
        );
    } else {
        print!("{}", print_module(&m));
    }
    Ok(())
}
