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
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Entry alignment PAL requires, and the main part's alignment.
pub const ENTRY_ALIGN: u64 = 256;

/// One part of a chain (borrowed from the input or the part cache where it can be).
#[derive(Clone, Debug)]
pub struct ChainPart<'a> {
    /// Its symbol.
    pub symbol: Cow<'a, str>,
    /// Code.
    pub code: Cow<'a, [u8]>,
    /// Relocations (offsets into `code`).
    pub relocations: Cow<'a, [Relocation]>,
    /// Input index, or `usize::MAX` for a generated part.
    pub input: usize,
    /// Whether this is the main part (aligned to 256 bytes).
    pub is_main: bool,
    /// The generated part, if it is one.
    pub generated: Option<Arc<Part>>,
    /// Where the part's constant data starts in `code` (it runs to the end): laid out
    /// with the part, under an `STT_OBJECT` symbol `<part symbol>.const_data`.
    pub data_at: Option<u64>,
}

impl<'a> ChainPart<'a> {
    /// A generated part.
    pub fn generated(p: &'a Arc<Part>) -> ChainPart<'a> {
        ChainPart {
            symbol: Cow::Borrowed(&p.symbol),
            code: Cow::Borrowed(&p.code),
            relocations: Cow::Borrowed(&p.relocations),
            input: usize::MAX,
            is_main: false,
            generated: Some(p.clone()),
            data_at: None,
        }
    }

    /// The main part of an input.
    pub fn main(s: &'a Input) -> ChainPart<'a> {
        ChainPart {
            symbol: Cow::Borrowed(s.main_symbol()),
            code: Cow::Borrowed(&s.code),
            relocations: Cow::Borrowed(&s.relocations),
            input: s.index,
            is_main: true,
            generated: None,
            data_at: s.data_at,
        }
    }
}

/// One stage's parts in execution order.
#[derive(Clone, Debug)]
pub struct Chain<'a> {
    /// Input index of the main part.
    pub input: usize,
    /// Hardware stage.
    pub stage: HwStage,
    /// Parts.
    pub parts: Vec<ChainPart<'a>>,
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
    /// Where its constant data starts, from `offset` (the instructions end there).
    pub data_at: Option<u64>,
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
    let n_parts: usize = chains.iter().map(|c| c.parts.len()).sum();
    let mut functions = Vec::with_capacity(n_parts + chains.len());
    let mut placed = Vec::with_capacity(n_parts);
    // Laid-out symbols (a few per pipeline: a scan is cheaper than a map).
    let mut symbols: Vec<(&str, u64)> = Vec::with_capacity(n_parts + chains.len());
    // (absolute offset, the part, bytes kept, the relocation its fall-through removed)
    let mut pending: Vec<(u64, &ChainPart, u64, Option<usize>)> = Vec::with_capacity(n_parts);
    for chain in chains {
        text.align(ENTRY_ALIGN as usize, filler);
        let start = text.len() as u64;
        // Fall-through: (bytes kept, the final branch's relocation removed).
        let kept = |i: usize| -> (u64, Option<usize>) {
            let p = &chain.parts[i];
            let fell = chain
                .parts
                .get(i + 1)
                .and_then(|next| final_branch_to(p, &next.symbol));
            (p.code.len() as u64 - 4 * fell.is_some() as u64, fell)
        };
        let before_main: u64 = (0..chain.parts.len())
            .take_while(|&i| !chain.parts[i].is_main)
            .map(|i| kept(i).0)
            .sum();
        let pad = (ENTRY_ALIGN - before_main % ENTRY_ALIGN) % ENTRY_ALIGN;
        let mut pad_left = pad;
        let first_function = functions.len();
        for (i, p) in chain.parts.iter().enumerate() {
            let (len, fell) = kept(i);
            let mut padding_before = 0;
            if !p.is_main && pad_left > 0 {
                text.pad_nops(pad_left as usize);
                padding_before = pad_left;
                pad_left = 0;
            }
            let at = text.len() as u64;
            debug_assert!(!p.is_main || at.is_multiple_of(ENTRY_ALIGN));
            if symbols.iter().any(|s| s.0 == p.symbol) {
                return Err(Error::NotUnlinked {
                    input: p.input,
                    reason: format!("symbol {} defined twice", p.symbol),
                });
            }
            symbols.push((&p.symbol, at));
            text.append(&p.code[..len as usize], &[]);
            functions.push(FuncSymbol {
                name: p.symbol.to_string(),
                offset: at,
                size: p.data_at.map_or(len, |d| d.min(len)),
            });
            if let Some(d) = p.data_at.filter(|&d| d < len) {
                functions.push(FuncSymbol {
                    name: format!(
                        "{}{}",
                        p.symbol,
                        crate::binary::elf_write::CONST_DATA_SUFFIX
                    ),
                    offset: at + d,
                    size: len - d,
                });
            }
            placed.push(PlacedPart {
                symbol: p.symbol.to_string(),
                offset: at,
                size: len,
                fell_through: fell.is_some(),
                padding_before,
                registers: p.generated.as_ref().map(|g| (g.vgprs, g.sgprs)),
                data_at: p.data_at.filter(|&d| d < len),
            });
            pending.push((at, p, len, fell));
        }
        let entry = chain.stage.entry_symbol_str();
        // a part named like the entry symbol: lookups find the entry (searched from the end)
        symbols.push((entry, start));
        functions.insert(
            first_function,
            FuncSymbol {
                name: entry.to_string(),
                offset: start,
                size: text.len() as u64 - start,
            },
        );
    }
    let symbol_at = |name: &str| symbols.iter().rev().find(|s| s.0 == name).map(|s| s.1);
    // Shaders repeat symbols (one spec constant used many times): each name is parsed and
    // looked up once. `None`: not a pre-link symbol; `Some(None)`: the state lacks it.
    let mut memo: BTreeMap<&str, Option<Option<u32>>> = BTreeMap::new();
    for (at, part, len, fell) in pending {
        let input = part.input;
        for (ri, r) in part.relocations.iter().enumerate() {
            if Some(ri) == fell {
                continue;
            }
            let bad = |reason: String| Error::BadRelocation {
                input,
                offset: r.offset,
                reason,
            };
            let missing = || Error::MissingSymbol {
                input,
                offset: r.offset,
                symbol: r.symbol.clone(),
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
                RelocKind::Rel16 => match symbol_at(&r.symbol) {
                    Some(s) => r
                        .kind
                        .resolve(s, r.addend, p)
                        .map_err(|e| bad(e.to_string()))?,
                    None if PrelinkSymbol::parse(&r.symbol).is_some() => {
                        return Err(bad(format!(
                            "R_AMDGPU_REL16 to `{}`, which is a state value, not code",
                            r.symbol
                        )))
                    }
                    None => return Err(missing()),
                },
                RelocKind::Abs32 | RelocKind::Abs32Lo => match *memo
                    .entry(r.symbol.as_str())
                    .or_insert_with(|| PrelinkSymbol::parse(&r.symbol).map(|s| state.resolve(&s)))
                {
                    Some(Some(v)) => r
                        .kind
                        .resolve(v as u64, r.addend, p)
                        .map_err(|e| bad(e.to_string()))?,
                    Some(None) => return Err(missing()),
                    None if symbol_at(&r.symbol).is_some() => {
                        return Err(bad(format!(
                            "{} of code symbol `{}`: the load address is chosen by PAL \
                                 after linking",
                            r.kind.name(),
                            r.symbol
                        )))
                    }
                    None => return Err(missing()),
                },
                RelocKind::Rel32 | RelocKind::Rel32Lo | RelocKind::Rel32Hi | RelocKind::Rel64 => {
                    match symbol_at(&r.symbol) {
                        Some(s) => r
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
                        None => return Err(missing()),
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
