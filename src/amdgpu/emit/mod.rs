//! Emission: machine IR on physical registers → code bytes, statistics and a PAL ELF.
//!
//! The code buffer (after Cranelift's `MachBuffer`, much reduced):
//! - blocks are laid out in index order; each block's start is a label (its dword offset);
//! - an `s_branch` to the next block in layout is dropped (fallthrough);
//! - branches are encoded with a `Branch16` fixup and patched once every label is known:
//!   `simm16 = target − (branch + 1)` in dwords; a distance outside ±32 Ki dwords is an
//!   error (no long-branch fallback yet);
//! - relocations: an `Arg::Symbol` operand (unlinked compiles, docs/link.md) is encoded as
//!   the instruction's literal, left 0 (the REL implicit addend), with an
//!   `R_AMDGPU_ABS32_LO` relocation against the pre-link symbol; whole-state compiles
//!   reference no symbol;
//! - GFX10+ pads the text as LLVM does (docs/pal-elf.md §6): `s_code_end` up to the
//!   instruction-cache line, then three more lines (`GenInfo::code_end_padding`).
//!
//! Constants (`Arg::Const`) become inline constants where the operand type has one
//! (integers −16..64; ±0.5, ±1, ±2, ±4 as f32 bit patterns in 32-bit operands), else the
//! instruction's literal dword.
//!
//! Output is deterministic: it depends only on the program.

use crate::amdgpu::mir::{Arg, Op, Program};
use crate::amdgpu::Error;
use crate::isa::{self, tables, Fixup, FixupKind, Gen, Inst, Opcode, Operand, ValTy};

/// RADV-named statistics of one shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub instructions: u32,
    /// Bytes of code up to and including `s_endpgm` (no padding).
    pub code_size: u32,
    pub sgprs: u32,
    pub vgprs: u32,
    pub spilled_sgprs: u32,
    pub spilled_vgprs: u32,
    /// Scratch bytes per lane.
    pub scratch_size: u32,
    pub lds_size: u32,
    pub subgroups_per_simd: u32,
    pub copies: u32,
    pub branches: u32,
}

impl Stats {
    /// RADV's text form (`name: value` lines, in RADV's order).
    pub fn to_text(&self) -> String {
        format!(
            "Instructions: {}\nCode size: {}\nSGPRs: {}\nVGPRs: {}\nSpilled SGPRs: {}\nSpilled VGPRs: {}\nScratch size: {}\nLDS size: {}\nSubgroups per SIMD: {}\nCopies: {}\nBranches: {}\n",
            self.instructions,
            self.code_size,
            self.sgprs,
            self.vgprs,
            self.spilled_sgprs,
            self.spilled_vgprs,
            self.scratch_size,
            self.lds_size,
            self.subgroups_per_simd,
            self.copies,
            self.branches
        )
    }
}

fn operand(a: &Arg, od: &tables::OpDesc) -> Result<Operand, Error> {
    Ok(match *a {
        Arg::Reg(r) => Operand::Reg(r),
        Arg::Imm(v) => Operand::Imm(v),
        Arg::Label(b) => Operand::Label(b.0),
        Arg::Off => Operand::Off,
        Arg::Const(c) => {
            if od.imm.is_some() {
                Operand::Imm(c)
            } else if let Some(o) = Operand::int(c as i32) {
                o
            } else if od.ty == ValTy::B32 {
                const F32: [u32; 8] = [
                    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
                    0x40800000, 0xc0800000,
                ];
                match F32.iter().position(|&x| x == c) {
                    Some(k) => Operand::Inline(240 + k as u8),
                    None => Operand::Literal(c),
                }
            } else {
                Operand::Literal(c)
            }
        }
        Arg::Symbol(k) => Operand::Symbol(k),
        Arg::Temp(t) => return Err(Error::Verify(format!("temp %{} at emission", t.0))),
    })
}

/// The encoder's instruction for an MIR instruction.
pub fn to_inst(p: &Program, i: &crate::amdgpu::mir::MInst) -> Result<Inst, Error> {
    let Op::Hw(op, fmt) = i.op else {
        return Err(Error::Verify("pseudo instruction at emission".into()));
    };
    let d = tables::form(p.target.gen, op, fmt)
        .ok_or_else(|| Error::Encode(format!("{} has no {fmt:?} form", op.name())))?;
    let mut di = i.defs.iter();
    let mut oi = i.ops.iter();
    let mut ops = Vec::new();
    for od in d.explicit() {
        let a = if od.is_def() { di.next() } else { oi.next() }
            .ok_or_else(|| Error::Encode(format!("{}: missing operand", op.name())))?;
        ops.push(operand(a, od)?);
    }
    let mut inst = Inst::new(op, fmt, &ops);
    inst.mods = i.mods;
    Ok(inst)
}

/// Encoded code plus what the ELF and statistics need.
pub struct Code {
    /// Text including padding.
    pub text: Vec<u8>,
    /// Bytes up to and including the last instruction.
    pub code_bytes: u32,
    pub instructions: u32,
    pub branches: u32,
    /// `R_AMDGPU_ABS32_LO` relocations of `Arg::Symbol` literals, in code order.
    pub relocations: Vec<crate::binary::Relocation>,
}

/// Encodes `p` (fully lowered) into bytes.
pub fn encode(p: &Program) -> Result<Code, Error> {
    let t = p.target;
    let mut words: Vec<u32> = Vec::new();
    let mut labels = vec![0u32; p.blocks.len()];
    let mut fixups: Vec<(usize, Fixup)> = Vec::new();
    let mut instructions = 0;
    let mut branches = 0;
    for (bi, b) in p.blocks.iter().enumerate() {
        labels[bi] = words.len() as u32;
        for i in &b.insts {
            if let (Some(o), Some(Arg::Label(l))) = (i.opcode(), i.ops.first()) {
                if o == Opcode::SBranch && l.0 as usize == bi + 1 {
                    continue;
                }
            }
            let inst = to_inst(p, i)?;
            let start = words.len();
            let mut f = Vec::new();
            isa::encode_into(&inst, t, &mut words, &mut f).map_err(|error| Error::Isa {
                inst: crate::amdgpu::mir::print::print_inst(p, i),
                error,
            })?;
            instructions += 1;
            if inst.op.props().contains(isa::Props::BRANCH) {
                branches += 1;
            }
            for x in f {
                fixups.push((start, x));
            }
        }
    }
    let mut relocations = Vec::new();
    for (start, f) in fixups {
        let at = start * 4 + f.offset;
        match f.kind {
            FixupKind::Branch16 => {
                let target = labels[f.target as usize] as i64;
                let rel = target - (start as i64 + 1);
                if !(-32768..=32767).contains(&rel) {
                    return Err(Error::Encode(format!(
                        "branch distance {rel} dwords is out of the SOPP range (long branches are not implemented)"
                    )));
                }
                let w = &mut words[at / 4];
                *w = (*w & 0xffff_0000) | (rel as i16 as u16 as u32);
            }
            FixupKind::Abs32 => {
                let sym = p.symbols.get(f.target as usize).ok_or_else(|| {
                    Error::Encode(format!("symbol {} is not in the program", f.target))
                })?;
                words[at / 4] = 0;
                relocations.push(crate::binary::Relocation {
                    offset: at as u64,
                    kind: crate::binary::RelocKind::Abs32Lo,
                    symbol: sym.name(),
                    addend: 0,
                });
            }
        }
    }
    let code_bytes = (words.len() * 4) as u32;
    if let Some(code_end) = isa::code_end_word(t.gen) {
        let pad = t.info().code_end_padding(code_bytes as usize) / 4;
        words.extend(std::iter::repeat_n(code_end, pad));
    }
    Ok(Code {
        text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        code_bytes,
        instructions,
        branches,
        relocations,
    })
}

/// The PAL ELF for a compiled compute shader.
pub fn write_elf(p: &Program, code: &Code, sgprs: u32, vgprs: u32) -> Result<Vec<u8>, Error> {
    code_object(p, code, sgprs, vgprs)?
        .write()
        .map_err(Error::Binary)
}

/// The PAL code object for a compiled compute shader (its relocations included; the
/// caller adds a `gcnc.prelink` section for an unlinked shader).
pub fn code_object(
    p: &Program,
    code: &Code,
    sgprs: u32,
    vgprs: u32,
) -> Result<crate::binary::CodeObject, Error> {
    use crate::binary::{self, ComputeShaderInfo};
    let mut info = ComputeShaderInfo::new(p.target);
    info.vgprs = vgprs.max(1);
    info.sgprs = sgprs.max(1);
    if p.target.gen == Gen::Gfx9 && p.scratch_bytes > 0 {
        // GFX9 places VCC, FLAT_SCRATCH and XNACK_MASK at the top of the wave's SGPR
        // allocation: the FLAT_SCRATCH setup (isel::scratch) writes s102/s103, so the
        // granted count must include those six
        info.sgprs = sgprs + 6;
    }
    info.user_data = p.abi.user_sgprs.clone();
    info.tgid_en = p.abi.tgid_en;
    info.tidig_comp_cnt = p.abi.tidig_comp_cnt;
    info.workgroup_size = p.workgroup_size;
    info.lds_bytes = p.lds_bytes;
    info.scratch_bytes_per_lane = p.scratch_bytes;
    binary::CodeObject::compute(
        &info,
        code.text.clone(),
        code.code_bytes as u64,
        code.relocations.clone(),
    )
    .map_err(Error::Binary)
}

/// Our disassembly of `text[start..end]`, one instruction per line with its byte offset.
/// An instruction the printer cannot spell yet (some depctr immediates) falls back to
/// its raw words.
pub fn disassemble_range(
    t: crate::isa::Target,
    text: &[u8],
    start: usize,
    end: usize,
) -> Result<String, Error> {
    let mut out = String::new();
    let mut off = start;
    while off < end.min(text.len()) {
        let (inst, len) = isa::decode(text, off, t).map_err(|error| Error::Isa {
            inst: String::new(),
            error,
        })?;
        let line = isa::print(&inst, t).unwrap_or_else(|_| {
            let ws: Vec<String> = text[off..off + len]
                .chunks(4)
                .map(|c| format!("0x{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect();
            format!("{} ; .long {}", inst.op.name(), ws.join(", "))
        });
        out.push_str(&format!(
            "  {line}  ; {off:04x}
"
        ));
        off += len;
    }
    Ok(out)
}
