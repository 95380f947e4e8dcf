//! `gcnc link a.elf [b.elf] --state state.json -o pipeline.elf [--cache-dir DIR]`: the
//! link stage on unlinked shader ELFs. With `--cache-dir`, generated parts come from (and
//! go to) the on-disk shader cache. Prints one line per placed part to stderr with
//! `--verbose`.

use gcnc::cache::ShaderCache;
use gcnc::link::{self, PipelineState};
use gcnc::parts::{PartCache, PartKey};

pub struct Opts {
    pub inputs: Vec<String>,
    pub state: String,
    pub output: String,
    pub cache_dir: Option<String>,
    pub verbose: bool,
}

pub fn run(o: &Opts) -> Result<(), String> {
    let text = std::fs::read_to_string(&o.state).map_err(|e| format!("{}: {e}", o.state))?;
    // a draw description (docs/draw.md) gives the graphics state of its pipeline
    let is_draw = serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|v| v.get("vertex").is_some() && v.get("fragment").is_some());
    let state = if is_draw {
        let d = gcnc_emu::draw::Desc::load(std::path::Path::new(&o.state))
            .map_err(|e| format!("{}: {e}", o.state))?;
        super::draw::link_state(&d).map_err(|e| format!("{}: {e}", o.state))?
    } else {
        PipelineState::from_json(&text).map_err(|e| format!("{}: {e}", o.state))?
    };
    let mut bytes = Vec::new();
    for p in &o.inputs {
        bytes.push(std::fs::read(p).map_err(|e| format!("{p}: {e}"))?);
    }
    let refs: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
    let parts = PartCache::new();
    if let Some(dir) = &o.cache_dir {
        // Warm the in-process part cache from disk for the parts this link will need.
        let cache = ShaderCache::with_dir(dir).map_err(|e| format!("{dir}: {e}"))?;
        for key in link::needed_parts(&refs, &state).map_err(|e| e.to_string())? {
            let part = cache.part(&key).map_err(|e| e.to_string())?;
            parts.insert(&PartKey::clone(&key), part);
        }
    }
    let linked = link::link(&refs, &state, &parts).map_err(|e| {
        let name = |i: usize| o.inputs.get(i).cloned().unwrap_or_default();
        match &e {
            link::Error::Elf { input, .. }
            | link::Error::NotUnlinked { input, .. }
            | link::Error::TargetMismatch { input, .. }
            | link::Error::MissingSymbol { input, .. }
            | link::Error::BadRelocation { input, .. }
                if *input < o.inputs.len() =>
            {
                format!("{}: {e}", name(*input))
            }
            _ => e.to_string(),
        }
    })?;
    if o.verbose {
        for p in &linked.placed {
            eprintln!(
                "{:#07x} {:5} bytes {}{}{}",
                p.offset,
                p.size,
                p.symbol,
                if p.padding_before > 0 {
                    format!(" (after {} bytes of padding)", p.padding_before)
                } else {
                    String::new()
                },
                if p.fell_through {
                    " (falls through)"
                } else {
                    ""
                }
            );
        }
    }
    std::fs::write(&o.output, &linked.elf).map_err(|e| format!("{}: {e}", o.output))
}
