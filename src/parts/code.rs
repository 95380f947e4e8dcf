//! The scalar instructions part encoders write, as methods on the one code buffer
//! ([`isa::CodeBuffer`], shared with emission and the link layout).
//!
//! Parts are short, straight-line SALU/SMEM sequences: no labels inside a part, one
//! relocation per symbol-referencing instruction (the final `s_branch` into the next part,
//! [`CodeBuffer::branch_to_symbol`]). Operations are typed opcodes resolved for the
//! generation by the buffer (`Opcode::on`: GFX11 renamed the SMEM loads), so an encoder
//! names one operation once and no opcode number or name appears here.

use crate::isa::{BufferError, CodeBuffer, Format, Opcode, Operand, Reg};

/// The part encoders' instructions.
pub trait PartCode {
    /// `s_mov_b32 s[dst], s[src]`.
    fn s_mov(&mut self, dst: u16, src: u16) -> Result<(), BufferError>;
    /// `s_getpc_b64 s[dst:dst+1]`.
    fn s_getpc(&mut self, dst: u16) -> Result<(), BufferError>;
    /// `s_load_dword s[dst], s[base:base+1], offset` (`s_load_b32` on GFX11).
    fn s_load_dword(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), BufferError>;
    /// `s_load_dwordx2 s[dst:dst+1], s[base:base+1], offset` (`s_load_b64` on GFX11);
    /// `dst` must be even.
    fn s_load_dwordx2(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), BufferError>;
    /// `s_waitcnt lgkmcnt(0)`.
    fn wait_lgkm(&mut self) -> Result<(), BufferError>;
}

fn s(n: u16, dwords: u8) -> Operand {
    Operand::Reg(Reg::s(n, dwords))
}

impl PartCode for CodeBuffer {
    fn s_mov(&mut self, dst: u16, src: u16) -> Result<(), BufferError> {
        self.op(Opcode::SMovB32, Format::Sop1, &[s(dst, 1), s(src, 1)])
    }

    fn s_getpc(&mut self, dst: u16) -> Result<(), BufferError> {
        self.op(Opcode::SGetpcB64, Format::Sop1, &[s(dst, 2)])
    }

    fn s_load_dword(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), BufferError> {
        let ops = [s(dst, 1), s(base, 2), Operand::Imm(offset)];
        self.op(Opcode::SLoadDword, Format::Smem, &ops)
    }

    fn s_load_dwordx2(&mut self, dst: u16, base: u16, offset: u32) -> Result<(), BufferError> {
        let ops = [s(dst, 2), s(base, 2), Operand::Imm(offset)];
        self.op(Opcode::SLoadDwordx2, Format::Smem, &ops)
    }

    fn wait_lgkm(&mut self) -> Result<(), BufferError> {
        self.waitcnt("lgkmcnt(0)")
    }
}

/// `v[n]`.
pub fn v(n: u16) -> Operand {
    Operand::Reg(Reg::v(n, 1))
}

/// `s[n:n+dwords-1]`.
pub fn sreg(n: u16, dwords: u8) -> Operand {
    s(n, dwords)
}

/// An integer constant: inline when it fits, else a literal.
pub fn int(x: u32) -> Operand {
    Operand::int(x as i32).unwrap_or(Operand::Literal(x))
}

/// Encodes `op` (or its rename on the buffer's generation `gen`) in `format` with `ops`
/// and the modifiers `mods` sets (exports, buffer accesses).
pub fn inst_with(
    buf: &mut CodeBuffer,
    gen: crate::isa::Gen,
    op: Opcode,
    format: Format,
    ops: &[Operand],
    mods: impl FnOnce(&mut crate::isa::Mods),
) -> Result<(), BufferError> {
    let o = op
        .on(gen)
        .ok_or(BufferError::NoOpcode { op: op.name(), gen })?;
    let mut i = crate::isa::Inst::new(o, format, ops);
    mods(&mut i.mods);
    buf.inst(&i, &|_| None)
}

/// One export: `exp <target> srcs` (`Operand::Off` for a disabled channel) with the
/// `done` / `vm` / `compr` bits.
pub fn export(
    buf: &mut CodeBuffer,
    gen: crate::isa::Gen,
    target: u32,
    srcs: [Operand; 4],
    done: bool,
    vm: bool,
    compr: bool,
) -> Result<(), BufferError> {
    let ops = [Operand::Imm(target), srcs[0], srcs[1], srcs[2], srcs[3]];
    inst_with(buf, gen, Opcode::Exp, Format::Exp, &ops, |m| {
        m.mem.done = done;
        m.mem.vm = vm;
        m.mem.compr = compr;
    })
}

pub use crate::amdgpu::isel::graphics::target;
