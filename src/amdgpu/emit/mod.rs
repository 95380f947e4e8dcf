//! Emission: machine IR on physical registers → code bytes, statistics and a PAL ELF.
//!
//! Code goes into the one code buffer ([`isa::CodeBuffer`], shared with the parts and the
//! link layout):
//! - blocks are laid out in index order; each block's index is its label;
//! - an `s_branch` to the next block in layout is dropped (fallthrough);
//! - branches are patched by the buffer once every label is known; one that does not
//!   reach (±32 Ki dwords) takes the long form on an SGPR pair the allocation kept free
//!   (`encode`'s relaxation; without a pair it is `Error::BranchRange` and the driver
//!   allocates again with one);
//! - an `Arg::Symbol` operand (unlinked compiles, docs/link.md) becomes an
//!   `R_AMDGPU_ABS32_LO` relocation against the pre-link symbol with a zero literal;
//!   whole-state compiles reference no symbol;
//! - GFX10+ pads the text as LLVM does (docs/pal-elf.md §6) with the buffer's
//!   `s_code_end` tail;
//! - constant data (`Program::constant_data`) follows the padding, 16-byte aligned (the
//!   gap filled like the padding), bound to the label one past the last block; each
//!   `p_constaddr` becomes `s_getpc_b64` + `s_add_u32`/`s_addc_u32` of the distance to
//!   that label ([`CodeBuffer::pc_relative`], patched by the buffer), so the data's
//!   address never needs a relocation and stays right wherever the text is loaded.
//!   `Code::code_bytes` stays the end of the last instruction: statistics, the entry
//!   symbol and disassembly cover code only.
//!
//! Constants (`Arg::Const`) become inline constants where the operand type has one
//! (integers −16..64; ±0.5, ±1, ±2, ±4 as f32 bit patterns in 32-bit operands), else the
//! instruction's literal dword.
//!
//! Output is deterministic: it depends only on the program.

use crate::amdgpu::mir::{Arg, Op, Program, Pseudo};
use crate::amdgpu::Error;
use crate::isa::{self, tables, BufferError, CodeBuffer, Gen, Inst, Opcode, Operand, ValTy};
use std::collections::BTreeSet;

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
            if od.imm == Some(tables::ImmKind::Lit) {
                // a literal-only field (the K of fmaak/fmamk)
                Operand::Literal(c)
            } else if od.imm.is_some() {
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
    if i.op_y.is_some() {
        let (x, y) = i
            .vopd_halves(p.target.gen)
            .ok_or_else(|| Error::Verify("malformed VOPD pair".into()))?;
        let mut inst = to_inst(p, &x)?;
        let y = to_inst(p, &y)?;
        inst.operands.extend(y.operands);
        inst.op_y = Some(y.op);
        return Ok(inst);
    }
    let Op::Hw(op, fmt) = i.op else {
        return Err(Error::Verify("pseudo instruction at emission".into()));
    };
    let d = tables::form(p.target.gen, op, fmt)
        .ok_or_else(|| Error::Encode(format!("{} has no {fmt:?} form", op.name())))?;
    let mut di = i.defs.iter();
    let mut oi = i.ops.iter();
    // built in the instruction's own operand list (inline up to six: NSA images more)
    let mut inst = Inst::new(op, fmt, &[]);
    let layout = i.explicit_layout(d);
    inst.operands.reserve(layout.len());
    for od in layout {
        let a = if od.is_def() { di.next() } else { oi.next() }
            .ok_or_else(|| Error::Encode(format!("{}: missing operand", op.name())))?;
        inst.operands.push(operand(a, od)?);
    }
    inst.mods = i.mods;
    if fmt == crate::isa::Format::Mimg {
        // NSA only where the addresses are not already consecutive
        crate::isa::format::mimg::join_consecutive_addresses(&mut inst, d);
    }
    Ok(inst)
}

/// Encoded code plus what the ELF and statistics need.
pub struct Code {
    /// Text including padding.
    pub text: Vec<u8>,
    /// Bytes up to and including the last instruction.
    pub code_bytes: u32,
    /// Where the constant data starts in `text` (it runs to the end), if there is any.
    pub data_at: Option<u32>,
    pub instructions: u32,
    pub branches: u32,
    /// `R_AMDGPU_ABS32_LO` relocations of `Arg::Symbol` literals, in code order.
    pub relocations: Vec<crate::binary::Relocation>,
}

/// Encodes `p` (fully lowered) into bytes. A branch beyond the SOPP range takes the long
/// form ([`CodeBuffer::long_branch`]) on the SGPR pair `long_branch` — the allocation
/// must have left it free — or, with none, is [`Error::BranchRange`] (the caller
/// allocates again with a pair kept free). Relaxation: encode, turn every branch that
/// does not reach into the long form, encode again until all reach (a long form only
/// adds code, so the set only grows and the loop ends).
pub fn encode(p: &Program, long_branch: Option<u16>) -> Result<Code, Error> {
    let mut long: BTreeSet<(usize, usize)> = BTreeSet::new();
    loop {
        let (buf, far) = encode_with(p, &long, long_branch)?;
        if far.is_empty() {
            return finish(buf, p);
        }
        if long_branch.is_none() {
            return Err(Error::BranchRange {
                dwords: far.iter().map(|f| f.1).max_by_key(|d| d.abs()).unwrap_or(0),
            });
        }
        long.extend(far.into_iter().map(|f| f.0));
    }
}

/// One layout: the buffer, and the (block, instruction) of every short branch that does
/// not reach, with its distance in dwords.
#[allow(clippy::type_complexity)]
fn encode_with(
    p: &Program,
    long: &BTreeSet<(usize, usize)>,
    pair: Option<u16>,
) -> Result<(CodeBuffer, Vec<((usize, usize), i64)>), Error> {
    let mut buf = CodeBuffer::new(p.target);
    let symbol = |k: u32| p.symbols.get(k as usize).map(|s| s.name());
    let mut starts = vec![0usize; p.blocks.len()];
    let mut sites: Vec<((usize, usize), usize, usize)> = Vec::new();
    let buffer_error = |e: BufferError| Error::Encode(e.to_string());
    for (bi, b) in p.blocks.iter().enumerate() {
        buf.bind(bi as u32);
        starts[bi] = buf.len() / 4;
        for (ii, i) in b.insts.iter().enumerate() {
            if i.op == Op::Pseudo(Pseudo::ConstDataAddr) {
                let pair = match i.defs.first() {
                    Some(Arg::Reg(r)) if r.count == 2 && r.base.0 % 2 == 0 => r.base.0,
                    _ => {
                        return Err(Error::Verify(format!(
                            "BB{bi}: `{}` without an SGPR pair",
                            crate::amdgpu::mir::print::print_inst(p, i)
                        )))
                    }
                };
                buf.pc_relative(data_label(p), pair).map_err(buffer_error)?;
                continue;
            }
            let target = match (i.opcode(), i.ops.first()) {
                (Some(o), Some(Arg::Label(l))) => {
                    if o == Opcode::SBranch && l.0 as usize == bi + 1 {
                        continue;
                    }
                    Some((o, l.0 as usize))
                }
                _ => None,
            };
            if let (Some((o, to)), Some(pair), true) = (target, pair, long.contains(&(bi, ii))) {
                long_form(p, &mut buf, o, to, pair).map_err(buffer_error)?;
                continue;
            }
            if let Some((_, to)) = target {
                sites.push(((bi, ii), buf.len() / 4, to));
            }
            // an unlinked graphics main part ends in `s_branch` to the next part: the
            // symbol is its second operand (the VGPRs after it are the epilog's inputs)
            if let (Some(Opcode::SBranch), Some(Arg::Symbol(k))) = (i.opcode(), i.ops.get(1)) {
                let name = symbol(*k)
                    .ok_or_else(|| Error::Encode(format!("branch to unknown symbol {k}")))?;
                buf.branch_to_symbol(&name).map_err(buffer_error)?;
                continue;
            }
            let inst = to_inst(p, i)?;
            buf.inst(&inst, &symbol).map_err(|e| match e {
                BufferError::Encode { err, .. } => Error::Encode(format!(
                    "`{}`: {err}",
                    crate::amdgpu::mir::print::print_inst(p, i)
                )),
                other => Error::Encode(other.to_string()),
            })?;
        }
    }
    let far = sites
        .into_iter()
        .filter_map(|(site, at, to)| {
            let rel = starts[to] as i64 - (at as i64 + 1);
            (!(-32768..=32767).contains(&rel)).then_some((site, rel))
        })
        .collect();
    Ok((buf, far))
}

/// The long form of branch `o` to block `to`: a conditional branch becomes its inverse
/// over the six dwords of the long jump. The long jump writes SCC, so SCC must be dead
/// where it lands: the selection never keeps SCC live across a block boundary, and this
/// checks it on the target block.
fn long_form(
    p: &Program,
    buf: &mut CodeBuffer,
    o: Opcode,
    to: usize,
    pair: u16,
) -> Result<(), BufferError> {
    for i in p.blocks.get(to).map_or(&[][..], |b| &b.insts) {
        let props = i.opcode().map_or(tables::Props::empty(), |o| o.props());
        if props.contains(tables::Props::READS_SCC) {
            return Err(BufferError::Encode {
                op: o.name(),
                err: format!("a long branch to block {to} would clobber the SCC it reads"),
            });
        }
        if props.contains(tables::Props::WRITES_SCC) {
            break;
        }
    }
    if o != Opcode::SBranch {
        let inverse = o.inverse_branch().ok_or_else(|| BufferError::Encode {
            op: o.name(),
            err: "no inverse for a long form".into(),
        })?;
        buf.op(inverse, isa::Format::Sopp, &[Operand::Imm(6)])?;
    }
    buf.long_branch(to as u32, pair)
}

/// The label of the constant data: one past the last block's.
fn data_label(p: &Program) -> u32 {
    p.blocks.len() as u32
}

fn finish(mut buf: CodeBuffer, p: &Program) -> Result<Code, Error> {
    let code_bytes = buf.len() as u32;
    buf.pad_code_end();
    let mut data_at = None;
    if !p.constant_data.is_empty() {
        let gen = p.target.gen;
        buf.align(
            16,
            isa::buffer::code_end_word(gen).unwrap_or(isa::buffer::nop_word(gen)),
        );
        buf.bind(data_label(p));
        data_at = Some(buf.len() as u32);
        for c in p.constant_data.chunks(4) {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            buf.word(u32::from_le_bytes(w));
        }
    }
    let c = buf.finish().map_err(|e| Error::Encode(e.to_string()))?;
    Ok(Code {
        text: c.bytes,
        code_bytes,
        data_at,
        instructions: c.instructions,
        branches: c.branches,
        relocations: c.relocations,
    })
}

/// The PAL ELF for a compiled compute shader.
pub fn write_elf(p: &Program, code: &Code, sgprs: u32, vgprs: u32) -> Result<Vec<u8>, Error> {
    let code = Code {
        text: code.text.clone(),
        relocations: code.relocations.clone(),
        ..*code
    };
    code_object(p, code, sgprs, vgprs)?
        .write()
        .map_err(Error::Binary)
}

/// The PAL code object for a compiled compute shader, its metadata typed (its relocations
/// included; the caller adds a `gcnc.prelink` section for an unlinked shader). Takes the
/// code: its text and relocations move into the object.
pub fn code_object(
    p: &Program,
    code: Code,
    sgprs: u32,
    vgprs: u32,
) -> Result<crate::binary::TypedObject, Error> {
    use crate::binary::{self, ComputeShaderInfo};
    let mut info = ComputeShaderInfo::new(p.target);
    info.vgprs = vgprs.max(1);
    info.sgprs = sgprs.max(1);
    if p.target.gen == Gen::Gfx9 && p.scratch_bytes > 0 {
        // GFX9 places VCC, FLAT_SCRATCH and XNACK_MASK at the top of the wave's SGPR
        // allocation: the FLAT_SCRATCH setup (amdgpu::scratch) writes s102/s103, so the
        // granted count must include those six
        info.sgprs = sgprs + 6;
    }
    info.user_data = p.abi.user_sgprs.clone();
    info.tgid_en = p.abi.tgid_en;
    info.tidig_comp_cnt = p.abi.tidig_comp_cnt;
    info.workgroup_size = p.workgroup_size;
    info.lds_bytes = p.lds_bytes;
    info.scratch_bytes_per_lane = p.scratch_bytes;
    let text_len = code.text.len() as u64;
    let mut obj = binary::TypedObject::compute_typed(
        &info,
        code.text,
        code.code_bytes as u64,
        code.relocations,
    )
    .map_err(Error::Binary)?;
    if let Some(at) = code.data_at {
        obj.functions.push(binary::FuncSymbol {
            name: format!(
                "{}{}",
                binary::HwStage::Cs.entry_symbol(),
                binary::elf_write::CONST_DATA_SUFFIX
            ),
            offset: u64::from(at),
            size: text_len - u64::from(at),
        });
    }
    Ok(obj)
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
