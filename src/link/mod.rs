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

use crate::binary::merge::{merge_metadata, merge_pal, rewrite_user_data, rewrite_user_data_pal};
use crate::binary::metadata::{HardwareStage, PipelineMetadata};
use crate::binary::msgpack::Key;
use crate::binary::registers::{self, UserData};
use crate::binary::{CodeObject, FuncSymbol, HwStage, PalMetadata, Value};
use crate::isa::Gen;
use crate::parts::{CsPrologKey, Part, PartCache, PartError, PartKey};
use layout::{Chain, PlacedPart};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the link produced.
#[derive(Clone, Debug)]
pub struct Linked {
    /// The pipeline code object.
    pub object: LinkedObject,
    /// Its ELF bytes.
    pub elf: Vec<u8>,
    /// Where each part went.
    pub placed: Vec<PlacedPart>,
}

/// A linked pipeline: its code, symbols and typed metadata (nothing is left to relocate).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkedObject {
    /// Generation.
    pub gen: Gen,
    /// `.text`, padded.
    pub text: Vec<u8>,
    /// Function symbols: each stage's entry, then each of its parts.
    pub functions: Vec<FuncSymbol>,
    /// The pipeline's metadata.
    pub metadata: PalMetadata,
    /// The metadata tree written instead of `metadata` when an input's tree is foreign
    /// (`Input::tree`): merged as trees, so its keys come out as they were.
    tree: Option<Value>,
}

impl LinkedObject {
    /// The entry symbol of a hardware stage (`_amdgpu_<stage>_main`).
    pub fn entry(&self, stage: HwStage) -> crate::binary::Result<&FuncSymbol> {
        let name = stage.entry_symbol_str();
        self.functions
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| {
                crate::binary::Error::invalid("code object", format!("no entry symbol {name}"))
            })
    }

    /// The ELF image (the metadata written straight from the typed model).
    pub fn write(&self) -> crate::binary::Result<Vec<u8>> {
        match self.tree {
            None => crate::binary::elf_write::write_typed(
                self.gen,
                &self.text,
                &self.functions,
                &self.metadata,
            ),
            Some(_) => self.to_code_object().write(),
        }
    }

    /// The generic code object of the same ELF (its metadata as a `Value` tree).
    pub fn to_code_object(&self) -> CodeObject {
        CodeObject {
            gen: self.gen,
            text: self.text.clone(),
            functions: self.functions.clone(),
            relocations: Vec::new(),
            metadata: match &self.tree {
                Some(t) => t.clone(),
                None => self.metadata.to_value(),
            },
        }
    }

    /// The object and its ELF, as a link returns them.
    fn finish(self, placed: Vec<PlacedPart>) -> Result<Linked> {
        let elf = self.write().map_err(|source| Error::Metadata { source })?;
        Ok(Linked {
            object: self,
            elf,
            placed,
        })
    }
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
        next: s.main_symbol().into(),
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
/// [`input::object_input`] / [`input::typed_input`] for a code object still in memory:
/// the whole-pipeline compile links its main part without writing and re-reading its ELF
/// or its metadata).
pub fn link_inputs(
    inputs: impl IntoIterator<Item = Result<input::Input>>,
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    let st = state.validated()?;
    let mut shaders = Vec::new();
    for s in inputs {
        let s = s?;
        check_next(&shaders, &s)?;
        shaders.push(s);
    }
    link_checked(&shaders, state, st, parts)
}

/// [`link`] of inputs read before ([`input::read_input`] once per unlinked ELF): a driver
/// that keeps the read [`input::Input`] beside its cached unlinked shader links from it
/// without parsing the ELF or its metadata again (the warm link of `benches/link.rs`).
pub fn link_read(
    shaders: &[input::Input],
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    let st = state.validated()?;
    for (k, s) in shaders.iter().enumerate() {
        check_next(&shaders[..k], s)?;
    }
    link_checked(shaders, state, st, parts)
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

/// The link of read inputs that passed [`check_next`] one by one, with `state` validated
/// (`st`: its graphics part converted).
fn link_checked(
    shaders: &[input::Input],
    state: &PipelineState,
    st: Option<crate::amdgpu::abi_graphics::GraphicsState>,
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
        return graphics::link_validated(shaders, state, st, parts);
    }

    // Parts: each shader's prolog, if it needs one (fetched first: the chains borrow them).
    let mut user_maps = Vec::new();
    let mut prologs: Vec<Option<Arc<Part>>> = Vec::with_capacity(shaders.len());
    for s in shaders {
        prologs.push(match cs_prolog_key(s, state)? {
            Some(key) => Some(parts.get(&PartKey::CsProlog(key)).map_err(part_err)?),
            None => None,
        });
        if let (HwStage::Cs, Some(ud)) = (s.stage, &state.user_data) {
            let map: Vec<UserData> = ud.sgprs.iter().filter_map(|u| u.pal()).collect();
            user_maps.push((s.stage, map));
        }
    }
    let chains: Vec<Chain> = shaders
        .iter()
        .zip(&prologs)
        .map(|(s, prolog)| Chain {
            input: s.index,
            stage: s.stage,
            parts: prolog
                .iter()
                .map(layout::ChainPart::generated)
                .chain([layout::ChainPart::main(s)])
                .collect(),
        })
        .collect();

    // Layout and relocations.
    let laid = layout::lay_out(target.gen, &chains, state)?;

    // Metadata, typed (as trees when an input's tree is foreign).
    let meta = |source| Error::Metadata { source };
    let inst_pref = laid
        .functions
        .iter()
        .find(|f| f.name == HwStage::Cs.entry_symbol_str())
        .filter(|_| target.info().inst_pref)
        .map(|cs| target.info().inst_pref_size(cs.size));
    if shaders.iter().any(|s| s.tree.is_some()) {
        let tree = merged_tree(shaders, &chains, &user_maps, inst_pref)?;
        return LinkedObject {
            gen: target.gen,
            text: laid.text,
            functions: laid.functions,
            metadata: PalMetadata::from_value(&tree).map_err(meta)?,
            tree: Some(tree),
        }
        .finish(laid.placed);
    }
    let mut md = shaders[0].metadata.clone();
    for s in &shaders[1..] {
        merge_pal(&mut md, &s.metadata).map_err(meta)?;
    }
    for c in &chains {
        for p in &c.parts {
            if let Some(part) = &p.generated {
                merge_pal(&mut md, &part_metadata(part, c.stage)).map_err(meta)?;
            }
        }
    }
    for (stage, map) in &user_maps {
        rewrite_user_data_pal(&mut md, *stage, map).map_err(meta)?;
    }
    if let Some(want) = inst_pref {
        if let Some(v) = md.pipeline.registers.get_mut(&registers::COMPUTE_PGM_RSRC3) {
            *v = with_inst_pref_size(*v as u64, want) as u32;
        }
    }
    LinkedObject {
        gen: target.gen,
        text: laid.text,
        functions: laid.functions,
        metadata: md,
        tree: None,
    }
    .finish(laid.placed)
}

/// The metadata a generated part contributes: its SGPR/VGPR needs as RSRC1 fields and
/// hardware-stage counts (the merge takes maxima; everything else keeps the main part's).
fn part_metadata(p: &Part, stage: HwStage) -> PalMetadata {
    let gfx9 = p.target.gen == Gen::Gfx9;
    // RSRC1.SGPRS = ceil(sgprs/8) - 1 on GFX9 (reserved, 0, on GFX10+); VGPRS stays 0.
    let sgprs_field = if gfx9 {
        (p.sgprs.max(1).div_ceil(8) - 1) << 6
    } else {
        0
    };
    let hw = HardwareStage {
        entry_point: String::new(),
        scratch_memory_size: 0,
        lds_size: 0,
        sgpr_count: p.sgprs,
        vgpr_count: p.vgprs,
        wavefront_size: None,
        threadgroup_dimensions: None,
        extra: BTreeMap::new(),
    };
    PalMetadata {
        version: Some(crate::binary::metadata::PAL_METADATA_VERSION),
        pipeline: PipelineMetadata {
            name: None,
            pipeline_type: String::new(),
            api: String::new(),
            internal_pipeline_hash: [0, 0],
            shaders: BTreeMap::new(),
            hardware_stages: [(stage, hw)].into_iter().collect(),
            registers: [(stage.rsrc1(), sgprs_field)].into_iter().collect(),
            user_data_limit: 0,
            spill_threshold: 0xffff,
            extra: BTreeMap::new(),
        },
        prelink: None,
        extra: BTreeMap::new(),
    }
}

/// GFX11 COMPUTE_PGM_RSRC3 `v` with INST_PREF_SIZE (bits 9:4) raised to `want`, the linked
/// entry's size in instruction-cache lines (`GenInfo::inst_pref_size`).
fn with_inst_pref_size(v: u64, want: u32) -> u64 {
    let old = (v >> 4) & 0x3f;
    (v & !(0x3f << 4)) | (old.max(want as u64) << 4)
}

/// The link's metadata merged as trees ([`merge_metadata`]), for inputs whose trees the
/// typed model would not give back exactly: the same steps as the typed merge.
fn merged_tree(
    shaders: &[input::Input],
    chains: &[Chain],
    user_maps: &[(HwStage, Vec<UserData>)],
    inst_pref: Option<u32>,
) -> Result<Value> {
    let meta = |source| Error::Metadata { source };
    let tree_of = |s: &input::Input| s.tree.clone().unwrap_or_else(|| s.metadata.to_value());
    let mut tree = tree_of(&shaders[0]);
    for s in &shaders[1..] {
        merge_metadata(&mut tree, &tree_of(s)).map_err(meta)?;
    }
    for c in chains {
        for p in &c.parts {
            if let Some(part) = &p.generated {
                merge_metadata(&mut tree, &part_tree(part, c.stage)).map_err(meta)?;
            }
        }
    }
    for (stage, map) in user_maps {
        rewrite_user_data(&mut tree, *stage, map).map_err(meta)?;
    }
    if let Some(want) = inst_pref {
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
                *v = with_inst_pref_size(*v, want);
            }
        }
    }
    Ok(tree)
}

/// [`part_metadata`] as the tree fragment [`merged_tree`] merges (only the keys it sets).
fn part_tree(p: &Part, stage: HwStage) -> Value {
    let md = part_metadata(p, stage);
    let (reg, field) = md.pipeline.registers.into_iter().next().expect("RSRC1");
    let regs = Value::Map([(Key::from(reg), Value::from(field))].into_iter().collect());
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
    let (major, minor) = crate::binary::metadata::PAL_METADATA_VERSION;
    Value::Map(
        [
            (
                Key::str(crate::binary::metadata::KEY_VERSION),
                Value::Array(vec![Value::from(major), Value::from(minor)]),
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
