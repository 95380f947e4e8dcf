//! The one code buffer: what emission, the hand-written parts and the link layout all
//! write machine code into.
//!
//! Design (after Cranelift's `MachBuffer`, much reduced):
//! - code is a list of dwords; every offset the buffer hands out or takes is in bytes;
//! - labels are small integers the caller chooses (a block index, say). [`CodeBuffer::bind`]
//!   puts one at the current end; a branch to a label is encoded with its SOPP field 0 and
//!   patched by [`CodeBuffer::finish`], `simm16 = target − (branch + 1)` in dwords, range
//!   checked (±32 Ki dwords); [`CodeBuffer::long_branch`] reaches any distance
//!   (`s_getpc_b64`, a 64-bit add of the byte distance as two literals, `s_setpc_b64` on
//!   an SGPR pair the caller keeps free; the literals are patched by `finish`);
//!   [`CodeBuffer::pc_relative`] is the same address computation without the jump (the
//!   address of constant data placed after the code);
//! - a literal naming a symbol (`Operand::Symbol`, an `Abs32` fixup from the encoder) is
//!   left 0 — the REL implicit addend — and recorded as an `R_AMDGPU_ABS32_LO` relocation
//!   against the name the caller's resolver gives; [`CodeBuffer::branch_to_symbol`] emits
//!   an `s_branch` with an `R_AMDGPU_REL16` relocation (a branch into another part);
//! - code copied in from elsewhere ([`CodeBuffer::append`]) brings its relocations along,
//!   rebased; [`CodeBuffer::patch`] writes a resolved field;
//! - padding: [`CodeBuffer::align`] fills with one word up to an alignment,
//!   [`CodeBuffer::pad_nops`] fills a gap with `s_nop 0` (a gap longer than four dwords
//!   starts with an `s_branch` over the rest, so a wave executes at most one padding
//!   instruction), and [`CodeBuffer::pad_code_end`] appends the GFX10+ `s_code_end` tail
//!   that [`GenInfo::code_end_padding`](super::target::GenInfo::code_end_padding) states.
//!
//! Opcodes are typed and resolved for the generation with `Opcode::on`, so a caller names
//! an operation once; no opcode number or name appears outside `isa_tables/`.
//!
//! Invariants: the buffer's length is always a whole number of dwords; relocation and
//! branch offsets point inside the code; output depends only on what was written.

use super::encode::{encode_into, Fixup, FixupKind};
use super::error::Error as IsaError;
use super::inst::Inst;
use super::operand::Operand;
use super::simm16;
use super::tables::{Format, Opcode, Props};
use super::target::{Gen, Target};
use crate::binary::{RelocKind, Relocation};
use std::fmt;

/// What can go wrong while writing code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BufferError {
    /// The encoder rejected an instruction (a bug in whoever built it).
    Encode { op: &'static str, err: String },
    /// The generation has no such operation (not even under another name).
    NoOpcode { op: &'static str, gen: Gen },
    /// A branch whose target is too far for SOPP's 16-bit field.
    BranchRange { at: usize, dwords: i64 },
    /// A branch to a label that was never bound.
    UnboundLabel { at: usize, label: u32 },
    /// A symbol literal the resolver does not know.
    UnknownSymbol { at: usize, symbol: u32 },
}

impl fmt::Display for BufferError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BufferError::Encode { op, err } => write!(f, "`{op}`: {err}"),
            BufferError::NoOpcode { op, gen } => write!(f, "no {op} on {}", gen.mcpu()),
            BufferError::BranchRange { at, dwords } => write!(
                f,
                "branch at {at:#x}: distance {dwords} dwords is out of the SOPP range"
            ),
            BufferError::UnboundLabel { at, label } => {
                write!(
                    f,
                    "branch at {at:#x} to label {label}, which was never placed"
                )
            }
            BufferError::UnknownSymbol { at, symbol } => {
                write!(
                    f,
                    "literal at {at:#x} names symbol {symbol}, which is not defined"
                )
            }
        }
    }
}

impl std::error::Error for BufferError {}

/// Machine code under construction.
#[derive(Clone, Debug)]
pub struct CodeBuffer {
    /// Target (generation and wave size).
    pub t: Target,
    words: Vec<u32>,
    relocs: Vec<Relocation>,
    /// Label → dword offset, once bound.
    labels: Vec<Option<u32>>,
    /// (dword index of the branch, label).
    branches: Vec<(usize, u32)>,
    /// PC-relative label addresses (long branches, constant data): (dword after the
    /// `s_getpc_b64`, the two literal dwords, label).
    long_branches: Vec<(usize, usize, usize, u32)>,
    /// Instructions written with [`CodeBuffer::inst`] (not copied code or padding).
    instructions: u32,
    /// Of them, branches (Props::BRANCH).
    branch_insts: u32,
}

/// A finished buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code {
    /// The code bytes, padding included.
    pub bytes: Vec<u8>,
    /// Relocations, offsets into `bytes`, in the order they were made.
    pub relocations: Vec<Relocation>,
    /// Instructions written (padding and copied code not counted).
    pub instructions: u32,
    /// Of them, branches.
    pub branches: u32,
}

impl CodeBuffer {
    /// An empty buffer.
    pub fn new(t: Target) -> CodeBuffer {
        CodeBuffer {
            t,
            words: Vec::new(),
            relocs: Vec::new(),
            labels: Vec::new(),
            branches: Vec::new(),
            long_branches: Vec::new(),
            instructions: 0,
            branch_insts: 0,
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.words.len() * 4
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Places `label` at the current end.
    pub fn bind(&mut self, label: u32) {
        let l = label as usize;
        if self.labels.len() <= l {
            self.labels.resize(l + 1, None);
        }
        self.labels[l] = Some(self.words.len() as u32);
    }

    /// Encodes `inst`. A branch operand (`Operand::Label`) is a label of this buffer; a
    /// symbol operand (`Operand::Symbol(k)`) becomes an `ABS32_LO` relocation against
    /// `symbol(k)`.
    pub fn inst(
        &mut self,
        inst: &Inst,
        symbol: &dyn Fn(u32) -> Option<String>,
    ) -> Result<(), BufferError> {
        let start = self.words.len();
        let mut fixups: Vec<Fixup> = Vec::new();
        encode_into(inst, self.t, &mut self.words, &mut fixups).map_err(|e: IsaError| {
            self.words.truncate(start);
            BufferError::Encode {
                op: inst.op.name(),
                err: e.to_string(),
            }
        })?;
        self.instructions += 1;
        if inst.op.props().contains(Props::BRANCH) {
            self.branch_insts += 1;
        }
        for f in fixups {
            let at = start * 4 + f.offset;
            match f.kind {
                FixupKind::Branch16 => self.branches.push((start, f.target)),
                FixupKind::Abs32 => {
                    let name = symbol(f.target).ok_or(BufferError::UnknownSymbol {
                        at,
                        symbol: f.target,
                    })?;
                    self.words[at / 4] = 0;
                    self.relocs.push(Relocation {
                        offset: at as u64,
                        kind: RelocKind::Abs32Lo,
                        symbol: name,
                        addend: 0,
                    });
                }
            }
        }
        Ok(())
    }

    /// Encodes `op` (or its rename on the generation) in `format` with `ops`; for code
    /// without labels or symbols (the hand-written parts).
    pub fn op(&mut self, op: Opcode, format: Format, ops: &[Operand]) -> Result<(), BufferError> {
        let gen = self.t.gen;
        let o = op
            .on(gen)
            .ok_or(BufferError::NoOpcode { op: op.name(), gen })?;
        self.inst(&Inst::new(o, format, ops), &|_| None)
    }

    /// A branch to `label` at any distance: [`CodeBuffer::pc_relative`] of the label, then
    /// `s_setpc_b64`. Six dwords; clobbers the pair and SCC. `pair` must be even.
    pub fn long_branch(&mut self, label: u32, pair: u16) -> Result<(), BufferError> {
        self.pc_relative(label, pair)?;
        let s = |n: u16, dwords: u8| Operand::Reg(super::Reg::s(n, dwords));
        self.op(Opcode::SSetpcB64, Format::Sop1, &[s(pair, 2)])
    }

    /// The address of `label` into `s[pair:pair+1]`: `s_getpc_b64`, then `s_add_u32` /
    /// `s_addc_u32` of the byte distance from the address after the `s_getpc_b64` (two
    /// literals, patched by [`CodeBuffer::finish`]; ACO's `p_constaddr`). Five dwords;
    /// clobbers SCC. `pair` must be even. Returns the byte offsets of the two literals
    /// (for a caller that leaves them to relocations instead: `R_AMDGPU_REL32_LO` with
    /// addend 4 and `R_AMDGPU_REL32_HI` with addend 12 give the same values).
    pub fn pc_relative(&mut self, label: u32, pair: u16) -> Result<(usize, usize), BufferError> {
        let s = |n: u16, dwords: u8| Operand::Reg(super::Reg::s(n, dwords));
        self.op(Opcode::SGetpcB64, Format::Sop1, &[s(pair, 2)])?;
        let after = self.words.len();
        // a literal of 0 keeps its literal dword (it is patched, never an inline constant)
        let add = [s(pair, 1), s(pair, 1), Operand::Literal(0)];
        self.op(Opcode::SAddU32, Format::Sop2, &add)?;
        let lo = self.words.len() - 1;
        let addc = [s(pair + 1, 1), s(pair + 1, 1), Operand::Literal(0)];
        self.op(Opcode::SAddcU32, Format::Sop2, &addc)?;
        let hi = self.words.len() - 1;
        self.long_branches.push((after, lo, hi, label));
        Ok((lo * 4, hi * 4))
    }

    /// `s_waitcnt` with the counters named in LLVM's syntax (e.g. `lgkmcnt(0)`).
    pub fn waitcnt(&mut self, counters: &str) -> Result<(), BufferError> {
        let v = simm16::parse_waitcnt(self.t.gen, counters).ok_or(BufferError::Encode {
            op: "s_waitcnt",
            err: format!("bad counters `{counters}`"),
        })?;
        self.op(Opcode::SWaitcnt, Format::Sopp, &[Operand::Imm(v)])
    }

    /// `s_branch` to `symbol` (another part), with an `R_AMDGPU_REL16` relocation at the
    /// instruction and a zero field (PAL reads the REL16 field as the addend, pal-abi.md
    /// §5.3).
    pub fn branch_to_symbol(&mut self, symbol: &str) -> Result<(), BufferError> {
        let at = self.len() as u64;
        self.op(Opcode::SBranch, Format::Sopp, &[Operand::Imm(0)])?;
        self.relocs.push(Relocation {
            offset: at,
            kind: RelocKind::Rel16,
            symbol: symbol.to_string(),
            addend: 0,
        });
        Ok(())
    }

    /// Appends one raw dword.
    pub fn word(&mut self, w: u32) {
        self.words.push(w);
    }

    /// Appends code made elsewhere (whole dwords) with its relocations, rebased; returns
    /// the byte offset it starts at.
    pub fn append(&mut self, code: &[u8], relocations: &[Relocation]) -> usize {
        debug_assert!(code.len() % 4 == 0, "code is whole dwords");
        let at = self.len();
        self.words.extend(
            code.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        self.relocs.extend(relocations.iter().map(|r| Relocation {
            offset: r.offset + at as u64,
            ..r.clone()
        }));
        at
    }

    /// Overwrites the bytes at `at` (a resolved relocation field).
    pub fn patch(&mut self, at: usize, value: &[u8]) {
        for (k, b) in value.iter().enumerate() {
            let (w, s) = ((at + k) / 4, (at + k) % 4 * 8);
            self.words[w] = (self.words[w] & !(0xff << s)) | (*b as u32) << s;
        }
    }

    /// Fills with `fill` up to a multiple of `align` bytes.
    pub fn align(&mut self, align: usize, fill: u32) {
        while !self.len().is_multiple_of(align) {
            self.words.push(fill);
        }
    }

    /// Fills `bytes` (whole dwords) with padding a wave may run into: `s_nop 0`, or, when
    /// longer than four dwords, an `s_branch` over nops.
    pub fn pad_nops(&mut self, bytes: usize) {
        let words = bytes / 4;
        let gen = self.t.gen;
        if words > 4 {
            self.words.push(branch_word(gen, (words - 1) as u16));
            self.words
                .extend(std::iter::repeat_n(nop_word(gen), words - 1));
        } else {
            self.words.extend(std::iter::repeat_n(nop_word(gen), words));
        }
    }

    /// Appends the `s_code_end` tail the generation wants after the last instruction
    /// (nothing on GFX9).
    pub fn pad_code_end(&mut self) {
        if let Some(end) = code_end_word(self.t.gen) {
            let n = self.t.gen.info().code_end_padding(self.len()) / 4;
            self.words.extend(std::iter::repeat_n(end, n));
        }
    }

    /// Patches every branch to a label and returns the code.
    pub fn finish(mut self) -> Result<Code, BufferError> {
        for &(at, label) in &self.branches {
            let target = self
                .labels
                .get(label as usize)
                .copied()
                .flatten()
                .ok_or(BufferError::UnboundLabel { at: at * 4, label })?;
            let rel = target as i64 - (at as i64 + 1);
            if !(-32768..=32767).contains(&rel) {
                return Err(BufferError::BranchRange {
                    at: at * 4,
                    dwords: rel,
                });
            }
            let w = &mut self.words[at];
            *w = (*w & 0xffff_0000) | (rel as i16 as u16 as u32);
        }
        for &(after, lo, hi, label) in &self.long_branches {
            let target = self.labels.get(label as usize).copied().flatten().ok_or(
                BufferError::UnboundLabel {
                    at: after * 4 - 4,
                    label,
                },
            )?;
            let bytes = 4 * (target as i64 - after as i64);
            self.words[lo] = bytes as u32;
            self.words[hi] = (bytes >> 32) as u32;
        }
        Ok(Code {
            bytes: self.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            relocations: self.relocs,
            instructions: self.instructions,
            branches: self.branch_insts,
        })
    }
}

/// One instruction's single dword on `gen` (padding words).
fn single_word(gen: Gen, op: Opcode, ops: &[Operand]) -> Option<u32> {
    let mut words = Vec::with_capacity(1);
    let inst = Inst::new(op.on(gen)?, Format::Sopp, ops);
    encode_into(&inst, Target::new(gen), &mut words, &mut Vec::new()).ok()?;
    (words.len() == 1).then(|| words[0])
}

/// The encoding of `s_nop 0` for `gen`.
pub fn nop_word(gen: Gen) -> u32 {
    single_word(gen, Opcode::SNop, &[Operand::Imm(0)]).expect("s_nop encodes on every generation")
}

/// The encoding of `s_branch` skipping `dwords` dwords after itself.
pub fn branch_word(gen: Gen, dwords: u16) -> u32 {
    single_word(gen, Opcode::SBranch, &[Operand::Imm(dwords as u32)])
        .expect("a short branch encodes on every generation")
}

/// The `s_code_end` word that pads `.text` after the last instruction on GFX10+ (PAL's
/// instruction prefetch must only ever see it); `None` on GFX9, which has no such
/// instruction.
pub fn code_end_word(gen: Gen) -> Option<u32> {
    single_word(gen, Opcode::SCodeEnd, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Reg;

    fn t() -> Target {
        Target::new(Gen::Gfx10)
    }

    #[test]
    fn a_branch_is_patched_to_its_label_forward_and_backward() {
        let mut b = CodeBuffer::new(t());
        let br = |l| Inst::new(Opcode::SBranch, Format::Sopp, &[Operand::Label(l)]);
        b.bind(0);
        b.inst(&br(1), &|_| None).unwrap(); // dword 0 -> label 1 at dword 2: +1
        b.op(Opcode::SNop, Format::Sopp, &[Operand::Imm(0)])
            .unwrap();
        b.bind(1);
        b.inst(&br(0), &|_| None).unwrap(); // dword 2 -> label 0 at dword 0: -3
        let c = b.finish().unwrap();
        assert_eq!(c.instructions, 3);
        assert_eq!(c.branches, 2);
        let w = |k: usize| u32::from_le_bytes(c.bytes[4 * k..4 * k + 4].try_into().unwrap());
        assert_eq!(w(0), branch_word(Gen::Gfx10, 1));
        assert_eq!(w(2) & 0xffff, (-3i16) as u16 as u32);
    }

    #[test]
    fn an_unbound_label_and_a_far_branch_are_errors() {
        let mut b = CodeBuffer::new(t());
        b.inst(
            &Inst::new(Opcode::SBranch, Format::Sopp, &[Operand::Label(7)]),
            &|_| None,
        )
        .unwrap();
        assert_eq!(
            b.clone().finish().unwrap_err(),
            BufferError::UnboundLabel { at: 0, label: 7 }
        );
        for _ in 0..40000 {
            b.word(nop_word(Gen::Gfx10));
        }
        b.bind(7);
        assert!(matches!(
            b.finish().unwrap_err(),
            BufferError::BranchRange {
                at: 0,
                dwords: 40000
            }
        ));
    }

    #[test]
    fn a_symbol_literal_becomes_a_relocation_with_a_zero_field() {
        let mut b = CodeBuffer::new(t());
        let mov = Inst::new(
            Opcode::SMovB32,
            Format::Sop1,
            &[Operand::Reg(Reg::s(4, 1)), Operand::Symbol(3)],
        );
        b.inst(&mov, &|k| (k == 3).then(|| "gcnc.spec.1".to_string()))
            .unwrap();
        let c = b.finish().unwrap();
        assert_eq!(c.bytes.len(), 8);
        assert_eq!(&c.bytes[4..8], &[0, 0, 0, 0]);
        assert_eq!(
            c.relocations,
            vec![Relocation {
                offset: 4,
                kind: RelocKind::Abs32Lo,
                symbol: "gcnc.spec.1".into(),
                addend: 0
            }]
        );
        let mut b = CodeBuffer::new(t());
        assert_eq!(
            b.inst(&mov, &|_| None).unwrap_err(),
            BufferError::UnknownSymbol { at: 4, symbol: 3 }
        );
    }

    #[test]
    fn appended_code_keeps_its_relocations_and_padding_follows_the_rules() {
        let mut part = CodeBuffer::new(t());
        part.branch_to_symbol("next").unwrap();
        let part = part.finish().unwrap();
        let mut b = CodeBuffer::new(t());
        b.pad_nops(24); // six dwords: a branch over five nops
        assert_eq!(b.append(&part.bytes, &part.relocations), 24);
        b.pad_code_end();
        let c = b.finish().unwrap();
        let w = |k: usize| u32::from_le_bytes(c.bytes[4 * k..4 * k + 4].try_into().unwrap());
        assert_eq!(w(0), branch_word(Gen::Gfx10, 5));
        assert_eq!(w(1), nop_word(Gen::Gfx10));
        assert_eq!(c.relocations[0].offset, 24);
        assert_eq!(c.relocations[0].kind, RelocKind::Rel16);
        // 28 bytes of code: up to the 64-byte line, then three more lines
        assert_eq!(c.bytes.len(), 64 + 192);
        assert_eq!(w(7), code_end_word(Gen::Gfx10).unwrap());
        let mut g9 = CodeBuffer::new(Target::new(Gen::Gfx9));
        g9.pad_nops(8);
        g9.pad_code_end();
        assert_eq!(g9.len(), 8);
        assert_eq!(code_end_word(Gen::Gfx9), None);
    }

    #[test]
    fn patch_writes_bytes_inside_words() {
        let mut b = CodeBuffer::new(t());
        b.word(0x1122_3344);
        b.word(0x5566_7788);
        b.patch(2, &[0xaa, 0xbb, 0xcc]);
        let c = b.finish().unwrap();
        assert_eq!(
            c.bytes,
            vec![0x44, 0x33, 0xaa, 0xbb, 0xcc, 0x77, 0x66, 0x55]
        );
    }
}
