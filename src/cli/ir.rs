//! `gcnc ir shader.spv [--entry NAME] [--after PASS] [--spec ID=VALUE]...`: translates a
//! SPIR-V module and prints the IR — straight from the front-end, or after the middle-end
//! pipeline has run up to (and including) the first run of PASS (`--after all` runs the
//! whole pipeline).

use gcnc::front::spirv::{translate, words_from_bytes, Options};
use gcnc::{ir, passes};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// SPIR-V binary to translate.
    pub input: PathBuf,
    /// Entry point name (default: the first supported one).
    #[arg(long)]
    pub entry: Option<String>,
    /// Run the pipeline and print the IR after the first run of this pass ("all": the
    /// whole pipeline).
    #[arg(long)]
    pub after: Option<String>,
    /// Specialization constant values, `SPEC_ID=VALUE` (decimal, 0x hex, or a float with a
    /// `f` suffix for 32-bit floats).
    #[arg(long = "spec", value_name = "ID=VALUE")]
    pub spec: Vec<String>,
}

fn parse_spec(s: &str) -> Result<(u32, u64), String> {
    let (id, v) = s
        .split_once('=')
        .ok_or_else(|| format!("--spec {}: expected ID=VALUE", s))?;
    let id: u32 = id
        .trim()
        .parse()
        .map_err(|_| format!("--spec {}: bad id", s))?;
    let v = v.trim();
    let val = if let Some(f) = v.strip_suffix('f') {
        f.parse::<f32>()
            .map_err(|_| format!("--spec {}: bad float", s))?
            .to_bits() as u64
    } else if let Some(h) = v.strip_prefix("0x") {
        u64::from_str_radix(h, 16).map_err(|_| format!("--spec {}: bad hex", s))?
    } else if let Some(n) = v.strip_prefix('-') {
        (n.parse::<i64>()
            .map_err(|_| format!("--spec {}: bad integer", s))?)
        .wrapping_neg() as u64
    } else {
        v.parse::<u64>()
            .map_err(|_| format!("--spec {}: bad integer", s))?
    };
    Ok((id, val))
}

pub fn run(args: &Args) -> Result<String, String> {
    let bytes =
        std::fs::read(&args.input).map_err(|e| format!("{}: {}", args.input.display(), e))?;
    let words = words_from_bytes(&bytes).map_err(|e| format!("{}: {}", args.input.display(), e))?;
    let mut spec = BTreeMap::new();
    for s in &args.spec {
        let (id, v) = parse_spec(s)?;
        spec.insert(id, v);
    }
    let opts = Options {
        entry: args.entry.clone(),
        spec,
    };
    let mut m = translate(&words, &opts).map_err(|e| format!("{}: {}", args.input.display(), e))?;
    match args.after.as_deref() {
        None => {}
        Some("all") => passes::run_pipeline(&mut m).map_err(|e| e.to_string())?,
        Some(p) => {
            if passes::pass_by_name(p).is_none() {
                let names: Vec<&str> = passes::PASSES.iter().map(|p| p.0).collect();
                return Err(format!(
                    "unknown pass {:?} (passes: {})",
                    p,
                    names.join(", ")
                ));
            }
            passes::run_pipeline_until(&mut m, Some(p)).map_err(|e| e.to_string())?;
        }
    }
    Ok(ir::print_module(&m))
}
