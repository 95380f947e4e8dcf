//! The little code buffer part encoders write into: instructions built from typed opcodes
//! on the ISA layer's encoder, plus `binary::Relocation`s for fields that name another part.
//!
//! Parts are short, straight-line SALU/SMEM sequences, so this is all they need: no labels
//! inside a part, one relocation per symbol-referencing instruction. An opcode is resolved
//! for the generation with `Opcode::on` (GFX11 renamed the SMEM loads), so encoders name
//! one operation once and no opcode number appears here.

use crate::binary::{RelocKind, Relocation};
use crate::isa::{self, simm16, Format, Gen, Inst, Opcode, Operand, Reg, Target};

/// Code of one part under construction.
pub struct Code {
    /// Target (generation and wave size).
    pub t: Target,
    /// Instruction bytes.
    pub bytes: Vec<u8>,
    /// Relocations, offsets relative to `bytes`.
    pub relocs: Vec<Relocation>,
}

/// An encoder error is a bug in a part generator (it builds only instructions it knows to
/// be valid), so it is reported as the ISA layer's error text.
pub type EncodeError = String;


impl Code {
    /// An empty buffer.
    pub fn new(t: Target) -> Code {
        Code {
            t,
            bytes: Vec::new(),
            relocs: Vec::new(),
        }
    }

    /// Encodes one instruction (`op` or its rename on the generation).
    pub fn inst(&mut self, op: Opcode, format: Format, ops: &[Operand]) -> Result<(), EncodeError> {
        let gen = self.t.gen;
        let o = op
            .on(gen)
            .ok_or_else(|| format!("no {} on {}", op.name(), gen.mcpu()))?;
        let inst = Inst::new(o, format, ops);
        let b = isa::encode(&inst, self.t).map_err(|e| format!("{}: {e:?}", o.name()))?;
        self.bytes.extend(b);
        Ok(())
    }

    /// `s_mov_b32 s[dst], s[src]`.
    pub fn s_mov(&mut self, dst: u16, src: u16) -> Result<(), EncodeError> {
        self.inst(
            Opcode::SMovB32,
            Format::Sop1,
            &[Operand::Reg(Reg::s(dst, 1)), Operand::Reg(Reg::s(src, 1))],
        )
    }

    /// `s_getpc_b64 s[dst:dst+1]`.
    pub fn s_getpc(&mut self, dst: u16) -> Result<(), EncodeError> {
        self.inst(Opcode::SGetpcB64, Format::Sop1, &[Operand::Reg(Reg::s(dst, 2))])
    }

    /// `s_load_dword s[dst], s[base:base+1], offset` (`s_load_b32` on GFX11).
    pub fn s_load_dword(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), EncodeError> {
        self.inst(
            Opcode::SLoadDword,
            Format::Smem,
            &[
                Operand::Reg(Reg::s(dst, 1)),
                Operand::Reg(Reg::s(base, 2)),
                Operand::Imm(offset),
            ],
        )
    }

    /// `s_load_dwordx2 s[dst:dst+1], s[base:base+1], offset` (`s_load_b64` on GFX11);
    /// `dst` must be even.
    pub fn s_load_dwordx2(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), EncodeError> {
        self.inst(
            Opcode::SLoadDwordx2,
            Format::Smem,
            &[
                Operand::Reg(Reg::s(dst, 2)),
                Operand::Reg(Reg::s(base, 2)),
                Operand::Imm(offset),
            ],
        )
    }

    /// `s_waitcnt lgkmcnt(0)`.
    pub fn wait_lgkm(&mut self) -> Result<(), EncodeError> {
        let v = simm16::parse_waitcnt(self.t.gen, "lgkmcnt(0)").ok_or("waitcnt")?;
        self.inst(Opcode::SWaitcnt, Format::Sopp, &[Operand::Imm(v)])
    }

    /// `s_nop 0`.
    pub fn s_nop(&mut self) -> Result<(), EncodeError> {
        self.inst(Opcode::SNop, Format::Sopp, &[Operand::Imm(0)])
    }

    /// `s_branch` to `symbol`, with an `R_AMDGPU_REL16` relocation at the instruction and
    /// a zero field (PAL reads the REL16 field as the addend, pal-abi.md §5.3).
    pub fn s_branch_to(&mut self, symbol: &str) -> Result<(), EncodeError> {
        let at = self.bytes.len() as u64;
        self.inst(Opcode::SBranch, Format::Sopp, &[Operand::Imm(0)])?;
        self.relocs.push(Relocation {
            offset: at,
            kind: RelocKind::Rel16,
            symbol: symbol.to_string(),
            addend: 0,
        });
        Ok(())
    }
}

/// The encoding of `s_nop 0` for `gen` (padding).
pub fn nop_word(gen: Gen) -> u32 {
    let mut c = Code::new(Target::new(gen));
    c.s_nop().expect("a nop encodes on every generation");
    u32::from_le_bytes(c.bytes[..4].try_into().unwrap())
}

/// The encoding of `s_branch` skipping `dwords` dwords after itself.
pub fn branch_word(gen: Gen, dwords: u16) -> u32 {
    let mut c = Code::new(Target::new(gen));
    c.inst(Opcode::SBranch, Format::Sopp, &[Operand::Imm(dwords as u32)])
        .expect("a short branch encodes on every generation");
    u32::from_le_bytes(c.bytes[..4].try_into().unwrap())
}

/// The `s_code_end` word (GFX10+; padding after the last part); GFX9 has none.
pub fn code_end_word(gen: Gen) -> Option<u32> {
    isa::code_end_word(gen)
}
