//! Placing parts and resolving their relocations.
//!
//! A chain is one hardware stage's parts in execution order (`[prolog] main [epilog]`).
//! For each chain:
//! - a part whose last instruction is an `s_branch` with an `R_AMDGPU_REL16` relocation to
//!   the symbol of the part laid out right after it loses that branch (fall-through). It is
//!   the part's last dword, so no offset inside the part moves; later parts are placed
//!   after the shortened part;
//! - the chain starts 256-byte aligned (PAL's entry alignment) and `pad` bytes of padding
//!   precede the parts before the main part, `pad = (256 - size_before_main % 256) % 256`,
//!   so the main part starts on a 256-byte boundary as well (instruction-cache aligned as
//!   when it was compiled). Padding is `s_nop 0`; when it is longer than four dwords its
//!   first dword is an `s_branch` over the rest, so a wave never executes more than one
//!   padding instruction;
//! - the entry symbol `_amdgpu_<stage>_main` is the chain start; its size runs to the end
//!   of the chain's last part. Every part keeps its own FUNC symbol.
//!
//! Relocations: `R_AMDGPU_REL16` resolves against the laid-out symbols with PAL's formula
//! (`RelocKind::resolve`: ((S+A) − P − 4) / 4, range-checked); `R_AMDGPU_ABS32` /
//! `ABS32_LO` against the state's value of a `gcnc.*` symbol; `REL32`, `REL32_LO/HI` and
//! `REL64` (PC-relative, e.g. `s_getpc_b64` + `sym@rel32@lo`) against laid-out symbols. A code
//! address as an absolute literal cannot be resolved here (PAL chooses the load address
//! later) and is an error, as are the GOT kinds and `RELATIVE64`.
//!
//! After the last chain `.text` is padded like LLVM does (pal-abi §6): nothing on GFX9; on
//! GFX10+ `s_code_end` up to the instruction-cache line and three lines more
//! (`GenInfo::code_end_padding`, the rule emission follows too).

use super::error::{Error, Result};
use super::input::Input;
use super::state::PipelineState;
use crate::binary::prelink::PrelinkSymbol;
use crate::binary::{FuncSymbol, HwStage, RelocKind, Relocation};
use crate::isa::buffer::{code_end_word, nop_word};
use crate::isa::{CodeBuffer, Gen, Target};
use crate::parts::Part;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Entry alignment PAL requires, and the main part's alignment.
pub const ENTRY_ALIGN: u64 = 256;

/// One part of a chain.
#[derive(Clone, Debug)]
pub struct ChainPart {
    /// Its symbol.
    pub symbol: String,
    /// Code.
    pub code: Vec<u8>,
    /// Relocations (offsets into `code`).
    pub relocations: Vec<Relocation>,
    /// Input index, or `usize::MAX` for a generated part.
    pub input: usize,
    /// Whether this is the main part (aligned to 256 bytes).
    pub is_main: bool,
    /// The generated part, if it is one.
    pub generated: Option<Arc<Part>>,
}

impl ChainPart {
    /// A generated part.
    pub fn generated(p: Arc<Part>) -> ChainPart {
        ChainPart {
            symbol: p.symbol.clone(),
            code: p.code.clone(),
            relocations: p.relocations.clone(),
            input: usize::MAX,
            is_main: false,
            generated: Some(p),
        }
    }

    /// The main part of an input.
    pub fn main(s: &Input) -> ChainPart {
        ChainPart {
            symbol: s.main_symbol(),
            code: s.code.clone(),
            relocations: s.relocations.clone(),
            input: s.index,
            is_main: true,
            generated: None,
        }
    }
}

/// One stage's parts in execution order.
#[derive(Clone, Debug)]
pub struct Chain {
    /// Input index of the main part.
    pub input: usize,
    /// Hardware stage.
    pub stage: HwStage,
    /// Parts.
    pub parts: Vec<ChainPart>,
}

/// Where a part went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedPart {
    /// Its symbol.
    pub symbol: String,
    /// Offset in the linked `.text`.
    pub offset: u64,
    /// Bytes after fall-through.
    pub size: u64,
    /// Its final branch was removed.
    pub fell_through: bool,
    /// Padding bytes placed right before it.
    pub padding_before: u64,
    /// A generated part's (VGPRs, SGPRs) used; `None` for a main part.
    pub registers: Option<(u32, u32)>,
}

/// The laid-out code.
#[derive(Clone, Debug)]
pub struct Laid {
    /// `.text`, padded.
    pub text: Vec<u8>,
    /// FUNC symbols.
    pub functions: Vec<FuncSymbol>,
    /// Placement report.
    pub placed: Vec<PlacedPart>,
}

/// Whether `p` ends in a REL16 `s_branch` to `next`; returns the relocation's index.
fn final_branch_to(p: &ChainPart, next: &str) -> Option<usize> {
    let last = (p.code.len() as u64).checked_sub(4)?;
    p.relocations
        .iter()
        .position(|r| r.offset == last && r.kind == RelocKind::Rel16 && r.symbol == next)
}

/// Lays out `chains` and resolves every relocation.
pub fn lay_out(gen: Gen, chains: &[Chain], state: &PipelineState) -> Result<Laid> {
    let filler = code_end_word(gen).unwrap_or_else(|| nop_word(gen));
    let mut text = CodeBuffer::new(Target::new(gen));
    let mut functions = Vec::new();
    let mut placed = Vec::new();
    let mut symbols: BTreeMap<String, u64> = BTreeMap::new();
    // (absolute offset of the part, part) for relocation resolution.
    let mut pending: Vec<(u64, usize, Vec<Relocation>, u64)> = Vec::new();
    for chain in chains {
        text.align(ENTRY_ALIGN as usize, filler);
        let start = text.len() as u64;
        // Fall-through and effective sizes.
        let mut parts: Vec<(ChainPart, bool)> = Vec::new();
        for (i, p) in chain.parts.iter().enumerate() {
            let mut p = p.clone();
            let mut fell = false;
            if let Some(next) = chain.parts.get(i + 1) {
                if let Some(ri) = final_branch_to(&p, &next.symbol) {
                    p.relocations.remove(ri);
                    p.code.truncate(p.code.len() - 4);
                    fell = true;
                }
            }
            parts.push((p, fell));
        }
        let before_main: u64 = parts
            .iter()
            .take_while(|(p, _)| !p.is_main)
            .map(|(p, _)| p.code.len() as u64)
            .sum();
        let pad = (ENTRY_ALIGN - before_main % ENTRY_ALIGN) % ENTRY_ALIGN;
        let mut pad_left = pad;
        for (p, fell) in parts {
            let mut padding_before = 0;
            if !p.is_main && pad_left > 0 {
                text.pad_nops(pad_left as usize);
                padding_before = pad_left;
                pad_left = 0;
            }
            let at = text.len() as u64;
            debug_assert!(!p.is_main || at.is_multiple_of(ENTRY_ALIGN));
            if symbols.insert(p.symbol.clone(), at).is_some() {
                return Err(Error::NotUnlinked {
                    input: p.input,
                    reason: format!("symbol {} defined twice", p.symbol),
                });
            }
            text.append(&p.code, &[]);
            functions.push(FuncSymbol {
                name: p.symbol.clone(),
                offset: at,
                size: p.code.len() as u64,
            });
            placed.push(PlacedPart {
                symbol: p.symbol.clone(),
                offset: at,
                size: p.code.len() as u64,
                fell_through: fell,
                padding_before,
                registers: p.generated.as_ref().map(|g| (g.vgprs, g.sgprs)),
            });
            pending.push((at, p.input, p.relocations, p.code.len() as u64));
        }
        let entry = chain.stage.entry_symbol();
        symbols.insert(entry.clone(), start);
        functions.insert(
            functions.len() - chain.parts.len(),
            FuncSymbol {
                name: entry,
                offset: start,
                size: text.len() as u64 - start,
            },
        );
    }
    // Shaders repeat symbols (one spec constant used many times): each name is parsed and
    // looked up once. `None`: not a pre-link symbol; `Some(None)`: the state lacks it.
    let mut memo: BTreeMap<String, Option<Option<u32>>> = BTreeMap::new();
    let mut state_value = |name: &str| -> Option<Option<u32>> {
        if let Some(&v) = memo.get(name) {
            return v;
        }
        let v = PrelinkSymbol::parse(name).map(|s| state.resolve(&s));
        memo.insert(name.to_string(), v);
        v
    };
    for (at, input, relocs, len) in pending {
        for r in relocs {
            let bad = |reason: String| Error::BadRelocation {
                input,
                offset: r.offset,
                reason,
            };
            let fsize = r.kind.field_size() as u64;
            if r.offset + fsize > len {
                return Err(bad(format!(
                    "{} field lies outside the part ({len:#x} bytes)",
                    r.kind.name()
                )));
            }
            let p = at + r.offset;
            let value = match r.kind {
                RelocKind::Rel16 => match symbols.get(&r.symbol) {
                    Some(&s) => r
                        .kind
                        .resolve(s, r.addend, p)
                        .map_err(|e| bad(e.to_string()))?,
                    None if PrelinkSymbol::parse(&r.symbol).is_some() => {
                        return Err(bad(format!(
                            "R_AMDGPU_REL16 to `{}`, which is a state value, not code",
                            r.symbol
                        )))
                    }
                    None => {
                        return Err(Error::MissingSymbol {
                            input,
                            offset: r.offset,
                            symbol: r.symbol.clone(),
                        })
                    }
                },
                RelocKind::Abs32 | RelocKind::Abs32Lo => match state_value(&r.symbol) {
                    Some(val) => match val {
                        Some(v) => r
                            .kind
                            .resolve(v as u64, r.addend, p)
                            .map_err(|e| bad(e.to_string()))?,
                        None => {
                            return Err(Error::MissingSymbol {
                                input,
                                offset: r.offset,
                                symbol: r.symbol.clone(),
                            })
                        }
                    },
                    None if symbols.contains_key(&r.symbol) => {
                        return Err(bad(format!(
                            "{} of code symbol `{}`: the load address is chosen by PAL \
                                 after linking",
                            r.kind.name(),
                            r.symbol
                        )))
                    }
                    None => {
                        return Err(Error::MissingSymbol {
                            input,
                            offset: r.offset,
                            symbol: r.symbol.clone(),
                        })
                    }
                },
                RelocKind::Rel32 | RelocKind::Rel32Lo | RelocKind::Rel32Hi | RelocKind::Rel64 => {
                    match symbols.get(&r.symbol) {
                        Some(&s) => r
                            .kind
                            .resolve(s, r.addend, p)
                            .map_err(|e| bad(e.to_string()))?,
                        None if PrelinkSymbol::parse(&r.symbol).is_some() => {
                            return Err(bad(format!(
                                "{} to `{}`: PC-relative to a state value",
                                r.kind.name(),
                                r.symbol
                            )))
                        }
                        None => {
                            return Err(Error::MissingSymbol {
                                input,
                                offset: r.offset,
                                symbol: r.symbol.clone(),
                            })
                        }
                    }
                }
                other => {
                    return Err(bad(format!(
                        "{} is not a relocation the link stage resolves",
                        other.name()
                    )))
                }
            };
            text.patch(p as usize, &value);
        }
    }
    // s_code_end padding (pal-abi §6).
    text.pad_code_end();
    Ok(Laid {
        // the layout places code and padding only: it binds and branches to no label
        text: text.finish().expect("no label branches in a layout").bytes,
        functions,
        placed,
    })
}
