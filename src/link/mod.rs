//! The link stage (issue 7): unlinked shader ELFs + the now-complete pipeline state → one
//! PAL pipeline ELF.
//!
//! Steps of [`link`] (one function, so the whole flow is visible here):
//! 1. read each input ([`input::read_input`]): ELF, target, stage entry, main-part code
//!    and relocations, metadata tree with the `gcnc.prelink` section taken out;
//! 2. decide the parts each main part needs from its pre-link metadata and the state (now:
//!    the CS prolog when the final user-data layout differs from the assumed one) and get
//!    them from the [`PartCache`] (built once per process per key);
//! 3. lay out each stage's chain `[padding][prolog][main]` ([`layout`]): the entry is
//!    256-byte aligned, and `s_nop` padding before the prolog puts the main part on a
//!    256-byte boundary too; a part's final `s_branch` to the part right after it is
//!    removed (fall-through);
//! 4. resolve every relocation: `R_AMDGPU_REL16` branches against the laid-out symbols,
//!    32-bit literals (`ABS32`/`ABS32_LO`) against the state's values for `gcnc.*`
//!    symbols ([`crate::binary::prelink::PrelinkSymbol`]); nothing is left for PAL;
//! 5. merge the metadata: the inputs' trees, then each part's registers and counts
//!    ([`crate::binary::merge::merge_metadata`]), then the final user-data map
//!    ([`crate::binary::merge::rewrite_user_data`]); GFX11's INST_PREF_SIZE follows the
//!    linked code size;
//! 6. pad `.text` with `s_code_end` on GFX10+ (pal-abi §6) and write the ELF.
//!
//! A vertex + fragment pair takes [`graphics::link`] instead (the fetch prolog and the
//! export epilogs, the linkage, the whole graphics pipeline's metadata).
//!
//! [`link_read`] starts at step 2 with inputs read before: a warm link from a driver's
//! cache parses nothing.
//!
//! Every input problem is a typed [`Error`]; nothing here panics on input.

pub mod error;
pub mod graphics;
pub mod input;
pub mod layout;
pub mod state;

pub use error::{Error, Result};
pub use state::PipelineState;

use crate::binary::merge::{merge_metadata, rewrite_user_data};
use crate::binary::registers::{self, UserData};
use crate::binary::{msgpack::Key, CodeObject, HwStage, Value};
use crate::parts::{CsPrologKey, Part, PartCache, PartError, PartKey};
use layout::{Chain, PlacedPart};
use std::sync::Arc;

/// What the link produced.
#[derive(Clone, Debug)]
pub struct Linked {
    /// The pipeline code object.
    pub object: CodeObject,
    /// Its ELF bytes.
    pub elf: Vec<u8>,
    /// Where each part went.
    pub placed: Vec<PlacedPart>,
}

fn part_err(e: PartError) -> Error {
    match e {
        PartError::Unsatisfiable(reason) => Error::state("user_data", reason),
        other => Error::state("parts", other.to_string()),
    }
}

/// The CS prolog input `s` needs under `state`, if any (none when the state keeps the
/// assumed layout or the layouts agree).
fn cs_prolog_key(s: &input::Input, state: &PipelineState) -> Result<Option<CsPrologKey>> {
    let (HwStage::Cs, Some(ud)) = (s.stage, &state.user_data) else {
        return Ok(None);
    };
    let outputs = CsPrologKey::outputs_from(&s.prelink.user_sgprs).map_err(part_err)?;
    let key = CsPrologKey {
        target: s.target,
        inputs: ud.sgprs.iter().map(|u| u.item.clone()).collect(),
        table: ud.table.clone(),
        outputs,
        system_sgprs: s.system_sgprs,
        next: s.main_symbol(),
    };
    Ok((!key.plan().map_err(part_err)?.is_empty()).then_some(key))
}

/// The keys of the parts [`link`] will build for these inputs and state (so a caller can
/// fetch them from a shader cache first).
pub fn needed_parts(inputs: &[&[u8]], state: &PipelineState) -> Result<Vec<PartKey>> {
    let mut keys = Vec::new();
    let mut shaders = Vec::new();
    for (i, bytes) in inputs.iter().enumerate() {
        let s = input::read_input(i, bytes)?;
        if let Some(k) = cs_prolog_key(&s, state)? {
            keys.push(PartKey::CsProlog(k));
        }
        shaders.push(s);
    }
    if shaders.iter().any(graphics::is_graphics) {
        return graphics::needed_parts(&shaders, state);
    }
    Ok(keys)
}

/// Links unlinked ELFs (`inputs`, one per hardware stage) with `state` into a pipeline ELF.
pub fn link(inputs: &[&[u8]], state: &PipelineState, parts: &PartCache) -> Result<Linked> {
    let read = inputs
        .iter()
        .enumerate()
        .map(|(i, bytes)| input::read_input(i, bytes));
    link_inputs(read, state, parts)
}

/// [`link`] of inputs read one at a time ([`input::read_input`], or
/// [`input::object_input`] for a code object still in memory: the whole-pipeline compile
/// links its main part without writing and re-reading its ELF).
pub fn link_inputs(
    inputs: impl IntoIterator<Item = Result<input::Input>>,
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    state.validate()?;
    let mut shaders = Vec::new();
    for s in inputs {
        let s = s?;
        check_next(&shaders, &s)?;
        shaders.push(s);
    }
    link_checked(&shaders, state, parts)
}

/// [`link`] of inputs read before ([`input::read_input`] once per unlinked ELF): a driver
/// that keeps the read [`input::Input`] beside its cached unlinked shader links from it
/// without parsing the ELF or its metadata again (the warm link of `benches/link.rs`).
pub fn link_read(
    shaders: &[input::Input],
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    state.validate()?;
    for (k, s) in shaders.iter().enumerate() {
        check_next(&shaders[..k], s)?;
    }
    link_checked(shaders, state, parts)
}

/// Input `s` after the inputs `before` it: the same target, another hardware stage.
fn check_next(before: &[input::Input], s: &input::Input) -> Result<()> {
    let i = s.index;
    if let Some(first) = before.first() {
        if s.target.gen != first.target.gen {
            return Err(Error::TargetMismatch {
                input: i,
                reason: format!("{} here, {} in input 0", s.target.gen, first.target.gen),
            });
        }
    }
    if before.iter().any(|o| o.stage == s.stage) {
        return Err(Error::NotUnlinked {
            input: i,
            reason: format!("a second {} shader", s.stage.short()),
        });
    }
    Ok(())
}

/// The link of read inputs that passed [`check_next`] one by one.
fn link_checked(
    shaders: &[input::Input],
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    if shaders.is_empty() {
        return Err(Error::NotUnlinked {
            input: 0,
            reason: "no input ELF".into(),
        });
    }
    let target = shaders[0].target;
    if shaders.iter().any(graphics::is_graphics) {
        return graphics::link(shaders, state, parts);
    }

    // Parts.
    let mut chains = Vec::new();
    let mut user_maps = Vec::new();
    for s in shaders {
        let mut chain = Chain {
            input: s.index,
            stage: s.stage,
            parts: Vec::new(),
        };
        if let Some(key) = cs_prolog_key(s, state)? {
            let p: Arc<Part> = parts.get(&PartKey::CsProlog(key)).map_err(part_err)?;
            chain.parts.push(layout::ChainPart::generated(p));
        }
        if let (HwStage::Cs, Some(ud)) = (s.stage, &state.user_data) {
            let map: Vec<UserData> = ud.sgprs.iter().filter_map(|u| u.pal()).collect();
            user_maps.push((s.stage, map));
        }
        chain.parts.push(layout::ChainPart::main(s));
        chains.push(chain);
    }

    // Layout and relocations.
    let laid = layout::lay_out(target.gen, &chains, state)?;

    // Metadata.
    let mut tree = shaders[0].metadata.clone();
    for s in &shaders[1..] {
        merge_metadata(&mut tree, &s.metadata).map_err(|source| Error::Metadata { source })?;
    }
    for c in &chains {
        for p in &c.parts {
            if let Some(part) = &p.generated {
                merge_metadata(&mut tree, &part_metadata(part, c.stage))
                    .map_err(|source| Error::Metadata { source })?;
            }
        }
    }
    for (stage, map) in &user_maps {
        rewrite_user_data(&mut tree, *stage, map).map_err(|source| Error::Metadata { source })?;
    }
    if target.info().inst_pref {
        if let Some(cs) = laid
            .functions
            .iter()
            .find(|f| f.name == HwStage::Cs.entry_symbol())
        {
            set_inst_pref_size(&mut tree, target.info().inst_pref_size(cs.size))?;
        }
    }

    let object = CodeObject {
        gen: target.gen,
        text: laid.text,
        functions: laid.functions,
        relocations: Vec::new(),
        metadata: tree,
    };
    let elf = object
        .write()
        .map_err(|source| Error::Metadata { source })?;
    Ok(Linked {
        object,
        elf,
        placed: laid.placed,
    })
}

/// The PAL-tree fragment a generated part contributes: its SGPR/VGPR needs as RSRC1 fields
/// and hardware-stage counts (the merge takes maxima).
fn part_metadata(p: &Part, stage: HwStage) -> Value {
    let gfx9 = p.target.gen == crate::isa::Gen::Gfx9;
    // RSRC1.SGPRS = ceil(sgprs/8) - 1 on GFX9 (reserved, 0, on GFX10+); VGPRS stays 0.
    let sgprs_field = if gfx9 {
        (p.sgprs.max(1).div_ceil(8) - 1) << 6
    } else {
        0
    };
    let regs = Value::Map(
        [(Key::from(stage.rsrc1()), Value::from(sgprs_field))]
            .into_iter()
            .collect(),
    );
    let hw = Value::Map(
        [
            (Key::str(".sgpr_count"), Value::from(p.sgprs)),
            (Key::str(".vgpr_count"), Value::from(p.vgprs)),
        ]
        .into_iter()
        .collect(),
    );
    let pipe = Value::Map(
        [
            (Key::str(".registers"), regs),
            (
                Key::str(".hardware_stages"),
                Value::Map([(Key::Str(stage.key()), hw)].into_iter().collect()),
            ),
        ]
        .into_iter()
        .collect(),
    );
    Value::Map(
        [
            (
                Key::str(crate::binary::metadata::KEY_VERSION),
                Value::Array(vec![Value::from(2u32), Value::from(6u32)]),
            ),
            (
                Key::str(crate::binary::metadata::KEY_PIPELINES),
                Value::Array(vec![pipe]),
            ),
        ]
        .into_iter()
        .collect(),
    )
}

/// Sets GFX11 COMPUTE_PGM_RSRC3.INST_PREF_SIZE (bits 9:4) to `want`, the linked entry's
/// size in instruction-cache lines (`GenInfo::inst_pref_size`).
fn set_inst_pref_size(tree: &mut Value, want: u32) -> Result<()> {
    let regs = tree
        .get_mut(crate::binary::metadata::KEY_PIPELINES)
        .and_then(|p| match p {
            Value::Array(a) => a.first_mut(),
            _ => None,
        })
        .and_then(|p| p.get_mut(".registers"))
        .and_then(Value::as_map_mut);
    if let Some(regs) = regs {
        if let Some(Value::UInt(v)) = regs.get_mut(&Key::from(registers::COMPUTE_PGM_RSRC3)) {
            let old = (*v >> 4) & 0x3f;
            *v = (*v & !(0x3f << 4)) | (old.max(want as u64) << 4);
        }
    }
    Ok(())
}
