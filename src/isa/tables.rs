//! The instruction tables generated from `isa_tables/` (see `build.rs`) and their types.
//!
//! `Opcode` names an instruction independent of generation and encoding; an `EncDesc` is
//! one encoding of it on one generation (format, opcode number, operands in print order,
//! allowed modifiers). Lookups are array indexing: by (format, opcode number) for the
//! decoder, by `Opcode` for the encoder and the parser. No opcode number is spelled
//! anywhere outside `isa_tables/`.
//!
//! Layering: this module sits below `format/` and knows nothing of it; every property,
//! including the per-generation rules of `Opcode::props_on`, comes from table flags.

use super::target::Gen;
use bitflags::bitflags;

/// An encoding format. The memory formats are added beside these (see docs/isa.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    Sop1,
    Sop2,
    Sopc,
    Sopk,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    /// VOP3 (VOP3a, and VOP3b when `EncDesc::vop3b`), including the VOP3 forms of VOP1/2/C.
    Vop3,
    Vop3p,
    /// SDWA forms of VOP1/VOP2/VOPC (GFX9, GFX10): src0 = 0xf9 and an SDWA dword.
    Vop1Sdwa,
    Vop2Sdwa,
    VopcSdwa,
    /// DPP16 forms (src0 = 0xfa and a DPP dword).
    Vop1Dpp,
    Vop2Dpp,
    VopcDpp,
    /// DPP8 forms (GFX10+; src0 = 0xe9, or 0xea with fi:1).
    Vop1Dpp8,
    Vop2Dpp8,
    VopcDpp8,
    /// GFX11 VOP3 with DPP16 / DPP8 (`_e64_dpp`).
    Vop3Dpp,
    Vop3Dpp8,
    /// LDS/GDS (`format/ds.rs`).
    Ds,
    /// Untyped buffer (`format/mubuf.rs`).
    Mubuf,
    /// Typed buffer (`format/mtbuf.rs`).
    Mtbuf,
    /// FLAT, GLOBAL and SCRATCH share one encoding (`format/flat.rs`); the segment is part
    /// of the format because each segment has its own opcode space.
    Flat,
    Global,
    Scratch,
    /// Image (`format/mimg.rs`), with the GFX10+ NSA forms.
    Mimg,
    /// Export (`format/exp.rs`).
    Exp,
    /// GFX9/GFX10 v_interp_p1/p2/mov_f32 (`format/vintrp.rs`).
    Vintrp,
    /// GFX11 lds_param_load / lds_direct_load (`format/ldsdir.rs`).
    Ldsdir,
    /// GFX11 v_interp_p10/p2 (`format/vinterp.rs`).
    Vinterp,
    /// GFX11 VOPD: the X and Y halves of a dual-issue instruction (an `Inst` in format
    /// `VopdX` carries the Y half in `op_y` and its operands after the X operands).
    VopdX,
    VopdY,
}

impl Format {
    /// The format whose word carries the opcode (VOP1 for VOP1-SDWA, ...).
    pub fn base(self) -> Format {
        use Format::*;
        match self {
            Vop1Sdwa | Vop1Dpp | Vop1Dpp8 => Vop1,
            Vop2Sdwa | Vop2Dpp | Vop2Dpp8 => Vop2,
            VopcSdwa | VopcDpp | VopcDpp8 => Vopc,
            Vop3Dpp | Vop3Dpp8 => Vop3,
            f => f,
        }
    }
    pub fn is_sdwa(self) -> bool {
        matches!(self, Format::Vop1Sdwa | Format::Vop2Sdwa | Format::VopcSdwa)
    }
    pub fn is_dpp16(self) -> bool {
        matches!(
            self,
            Format::Vop1Dpp | Format::Vop2Dpp | Format::VopcDpp | Format::Vop3Dpp
        )
    }
    pub fn is_dpp8(self) -> bool {
        matches!(
            self,
            Format::Vop1Dpp8 | Format::Vop2Dpp8 | Format::VopcDpp8 | Format::Vop3Dpp8
        )
    }
    /// VOP3-style source modifiers live in the VOP3 word.
    pub fn is_vop3(self) -> bool {
        matches!(self, Format::Vop3 | Format::Vop3Dpp | Format::Vop3Dpp8)
    }
    /// A VALU encoding.
    pub fn is_valu(self) -> bool {
        !matches!(
            self,
            Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk | Format::Sopp | Format::Smem
        ) && !self.is_mem()
    }
    /// The memory, export and interpolation formats (`format/mem.rs` prints and parses
    /// them; their operand sizes depend on modifiers).
    pub fn is_mem(self) -> bool {
        matches!(
            self,
            Format::Ds
                | Format::Mubuf
                | Format::Mtbuf
                | Format::Flat
                | Format::Global
                | Format::Scratch
                | Format::Mimg
                | Format::Exp
                | Format::Vintrp
                | Format::Ldsdir
                | Format::Vinterp
        )
    }
}

/// The instruction field an operand lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    /// A 32-bit literal dword that is always present (s_setreg_imm32_b32).
    Imm32,
    Sdata,
    Sbase,
    Offset,
    Vdst,
    Src0,
    Vsrc1,
    Src1,
    Src2,
    /// The inline literal constant of v_madmk/v_madak/v_fmamk/v_fmaak.
    K,
    /// Not encoded: a fixed register LLVM prints (`vcc` of VOPC/VOP2 carries).
    Implicit,
    // memory formats
    /// DS address VGPR.
    Addr,
    Data0,
    Data1,
    /// VMEM address VGPR(s) (or `off`).
    Vaddr,
    /// VMEM data read by the instruction (stores, atomics).
    Vdata,
    /// Buffer / image resource descriptor SGPRs.
    Srsrc,
    Soffset,
    /// GLOBAL/SCRATCH scalar address (or `off`).
    Saddr,
    /// Sampler descriptor SGPRs.
    Ssamp,
    /// Export target (mrt0, pos0, ...), an immediate.
    Tgt,
    /// Export sources (the second is `Vsrc1`).
    Vsrc0,
    Vsrc2,
    Vsrc3,
    /// v_interp_mov source parameter (p10, p20, p0), an immediate.
    Param,
    /// Interpolation attribute and channel, `attr * 4 + chan`, an immediate.
    Attr,
}

/// How an immediate operand is printed and parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmKind {
    /// Hex (`0x5`).
    Hex,
    /// Unsigned decimal (branches print their 16-bit field this way).
    Udec,
    /// Signed decimal.
    Sdec,
    /// Unsigned decimal, omitted when zero (`s_endpgm`).
    Opt,
    Hwreg,
    Sendmsg,
    Waitcnt,
    Depctr,
    Delay,
    GprIdx,
    /// A plain immediate (SMEM offsets, s_atc_probe mode).
    Imm,
    /// A 32-bit literal.
    Lit,
}

/// Value type of a VALU source, as far as printing constants is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValTy {
    B32,
    F16,
    I16,
    B64,
}

/// Fixed registers that appear in LLVM's text without an encoding field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Implicit {
    Vcc,
    Exec,
    M0,
    Scc,
}

/// One operand of an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpDesc {
    pub field: Field,
    /// Dwords; 0 = a lane mask (1 in wave32, 2 in wave64).
    pub size: u8,
    /// Dwords in wave64 when it differs (WMMA accumulators); else equal to `size`.
    pub size64: u8,
    pub ty: ValTy,
    /// Set for immediates.
    pub imm: Option<ImmKind>,
    /// Set for `Field::Implicit`.
    pub implicit: Option<Implicit>,
    /// An 8-bit destination field that holds an SGPR (readlane, compare results).
    pub sgpr: bool,
    /// Operand kinds a source accepts: `ALLOW_VGPR | ALLOW_SGPR | ALLOW_INLINE | ALLOW_LITERAL`
    /// (further limited by the format, e.g. no VOP3 literal on GFX9).
    pub allow: u8,
    /// A VGPR here must be v0..v127 (GFX11 16-bit VOP1/VOP2/VOPC operands).
    pub lo128: bool,
    /// The kinds LLVM's assembler accepts (a subset of `allow`, which is what its
    /// disassembler accepts): `verify` uses this one, printing the other.
    pub allow_asm: u8,
}

pub const ALLOW_VGPR: u8 = 1;
pub const ALLOW_SGPR: u8 = 2;
pub const ALLOW_INLINE: u8 = 4;
pub const ALLOW_LITERAL: u8 = 8;
/// The field must hold `null` (GFX11 s_waitcnt_*cnt destinations).
pub const NULL_ONLY: u8 = 16;

impl OpDesc {
    pub const fn ty(mut self, ty: ValTy) -> OpDesc {
        self.ty = ty;
        self
    }
    pub const fn asm(mut self, allow_asm: u8) -> OpDesc {
        self.allow_asm = allow_asm;
        self
    }
    /// Registers an immediate field also takes (`allow`, `allow_asm` bits; SMEM's offset
    /// is an immediate or one SGPR).
    pub const fn accepts(mut self, allow: u8, allow_asm: u8) -> OpDesc {
        self.allow = allow;
        self.allow_asm = allow_asm;
        self
    }
    pub const fn lo(mut self, lo128: bool) -> OpDesc {
        self.lo128 = lo128;
        self
    }
    pub const fn reg(
        field: Field,
        size: u8,
        size64: u8,
        ty: ValTy,
        sgpr: bool,
        allow: u8,
    ) -> OpDesc {
        OpDesc {
            field,
            size,
            size64,
            ty,
            imm: None,
            implicit: None,
            sgpr,
            allow,
            lo128: false,
            allow_asm: allow,
        }
    }
    pub const fn imm(field: Field, kind: ImmKind) -> OpDesc {
        OpDesc {
            field,
            size: 1,
            size64: 1,
            ty: ValTy::B32,
            imm: Some(kind),
            implicit: None,
            sgpr: false,
            allow: 0,
            lo128: false,
            allow_asm: 0,
        }
    }
    pub const fn implicit(r: Implicit) -> OpDesc {
        OpDesc {
            field: Field::Implicit,
            size: 0,
            size64: 0,
            ty: ValTy::B32,
            imm: None,
            implicit: Some(r),
            sgpr: false,
            allow: 0,
            lo128: false,
            allow_asm: 0,
        }
    }
    /// True for operands the `Inst` carries (everything but implicit registers).
    pub fn explicit(&self) -> bool {
        self.field != Field::Implicit
    }
    /// Size in dwords for the given wave size.
    pub fn dwords(&self, wave: super::Wave) -> u8 {
        match (self.size, wave) {
            (0, _) => wave.mask_dwords(),
            (_, super::Wave::W64) => self.size64,
            (n, _) => n,
        }
    }
    /// A destination field (written by the instruction).
    pub fn is_def(&self) -> bool {
        matches!(self.field, Field::Sdst | Field::Vdst | Field::Sdata)
    }
}

bitflags! {
    /// Modifiers an encoding accepts (found by probing LLVM).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ModSet: u16 {
        const ABS = 1;
        const NEG = 2;
        const NEG_HI = 4;
        const CLAMP = 8;
        const OMOD = 16;
        const OP_SEL = 32;
        /// SMEM cache bits.
        const GLC = 64;
        const DLC = 128;
        /// v_mad_mix/v_fma_mix: op_sel_hi defaults to 0, neg_lo/neg_hi print as -x / |x|.
        const MIX = 256;
    }
}

bitflags! {
    /// Properties later passes (scheduler, waitcnt, hazards, emulator) query.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Props: u64 {
        const SALU = 1 << 0;
        const VALU = 1 << 1;
        const SMEM = 1 << 2;
        const VMEM = 1 << 3;
        const LDS = 1 << 4;
        const EXPORT = 1 << 5;
        const BRANCH = 1 << 6;
        const TRANS = 1 << 7;
        const NEEDS_WQM = 1 << 8;
        const LGKM_CNT = 1 << 9;
        const VM_CNT = 1 << 10;
        const EXP_CNT = 1 << 11;
        const VS_CNT = 1 << 12;
        const READS_SCC = 1 << 13;
        const WRITES_SCC = 1 << 14;
        const READS_VCC = 1 << 15;
        const WRITES_VCC = 1 << 16;
        const READS_EXEC = 1 << 17;
        const WRITES_EXEC = 1 << 18;
        const READS_M0 = 1 << 19;
        const WRITES_M0 = 1 << 20;
        const BARRIER = 1 << 21;
        const END_PGM = 1 << 22;
        const WAITCNT = 1 << 23;
        const CROSS_LANE = 1 << 24;
        /// VALU: src0 and src1 may be exchanged.
        const COMMUTATIVE = 1 << 25;
        /// VALU: the last source is a lane mask (v_cndmask select, carry-in).
        const MASK_SRC = 1 << 26;
        /// v_readlane/v_writelane: src1 is an SGPR lane index.
        const LANE_SELECT = 1 << 27;
        /// A cache invalidation (no data, no address).
        const CACHE_INV = 1 << 28;
        /// Writes a hardware register (`s_setreg*`: MODE and the like).
        const WRITES_HWREG = 1 << 29;
        /// Register indexing through M0 (`s_movrel*`, `v_movrel*`).
        const MOVREL = 1 << 30;
        /// A memory atomic (read-modify-write; returns data only with glc).
        const ATOMIC = 1 << 31;
        /// Reads M0 as the LDS size limit on GFX9 (every DS instruction but `ds_nop`);
        /// `Opcode::props_on(Gfx9)` adds `READS_M0` for it.
        const GFX9_LDS_M0 = 1 << 32;
    }
}

bitflags! {
    /// Modifiers and forms a memory/export/interpolation encoding accepts (found by
    /// probing LLVM, see scripts/isa-sweep-mem).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct MemFlags: u16 {
        /// DS: one 16-bit `offset:`.
        const OFFSET = 1 << 0;
        /// DS: `offset0:` / `offset1:` (two-address forms).
        const OFFSET01 = 1 << 1;
        const GDS = 1 << 2;
        /// DS: only valid with `gds`.
        const GDS_ONLY = 1 << 3;
        const LDS = 1 << 4;
        const TFE = 1 << 5;
        /// Atomic that returns the old value with `glc`.
        const RTN = 1 << 6;
        const DONE = 1 << 7;
        const COMPR = 1 << 8;
        const VM = 1 << 9;
        const ROW_EN = 1 << 10;
        const WAIT_VDST = 1 << 11;
        const WAIT_EXP = 1 << 12;
        /// ds_swizzle_b32: the offset is a swizzle pattern (`offset:swizzle(...)`).
        const SWIZZLE = 1 << 13;
    }
}

/// One encoding of one instruction on one generation.
#[derive(Debug)]
pub struct EncDesc {
    pub opcode: Opcode,
    pub format: Format,
    /// VOP3b: the VOP3 word holds an SGPR destination (carry-out) instead of abs/op_sel.
    pub vop3b: bool,
    /// Opcode number in the format's opcode field.
    pub op: u16,
    /// Mnemonic exactly as LLVM prints it (with `_e32`/`_e64` where LLVM adds one).
    pub mnemonic: &'static str,
    /// Operands in LLVM's print order.
    pub operands: &'static [OpDesc],
    pub mods: ModSet,
    /// Memory formats: accepted modifiers and forms.
    pub mem: MemFlags,
    /// MIMG (GFX10+): address VGPRs per dimension (SQ_RSRC_IMG_1D ..= 2D_MSAA_ARRAY),
    /// without and with a16, as LLVM decodes them.
    pub addr: Option<&'static [[u8; 8]; 2]>,
    /// VOP3: sources (bit i = src i) that take abs, neg (float), or neg printed as sext (int).
    pub abs_mask: u8,
    pub neg_mask: u8,
    pub sext_mask: u8,
    /// VOP3 op_sel bits the instruction has (bit 3 = destination); LLVM ignores the others.
    pub opsel_mask: u8,
    /// Bits LLVM sets in fields this instruction does not use (word 0, word 1), e.g. the
    /// exec_lo vdst of GFX10+ v_cmpx_*_e64. Encoders OR them in; decoders ignore them.
    pub fixed: [u32; 2],
}

impl EncDesc {
    /// Operands the `Inst` carries, in order.
    pub fn explicit(&self) -> impl Iterator<Item = &'static OpDesc> {
        self.operands.iter().filter(|o| o.explicit())
    }
    pub fn n_explicit(&self) -> usize {
        self.explicit().count()
    }
    /// Index of the first explicit operand in `field`.
    pub fn slot(&self, field: Field) -> Option<usize> {
        self.explicit().position(|o| o.field == field)
    }
}

include!(concat!(env!("OUT_DIR"), "/isa_tables.rs"));

impl Opcode {
    /// The mnemonic without `_e32`/`_e64`.
    pub fn name(self) -> &'static str {
        OPCODE_NAMES[self as usize]
    }
    /// Look an instruction up by mnemonic (without encoding suffix).
    pub fn from_name(name: &str) -> Option<Opcode> {
        OPCODE_NAMES.binary_search(&name).ok().map(|i| OPCODES[i])
    }
    /// v_mad_mix/v_fma_mix (op_sel_hi defaults to 0; neg_lo/neg_hi are -x / |x|).
    pub fn is_mix(self) -> bool {
        MIX[self as usize]
    }
    /// Properties from `isa_tables/properties.txt`.
    pub fn props(self) -> Props {
        PROPS[self as usize]
    }
    /// The opcode performing this operation on `gen`: itself when `gen` has it, else its
    /// rename for `gen` (`isa_tables/renames.txt`: `V_ADD_U32.on(Gfx10)` is
    /// `v_add_nc_u32`), else None.
    pub fn on(self, gen: Gen) -> Option<Opcode> {
        let g = match gen {
            Gen::Gfx9 => 0,
            Gen::Gfx10 => 1,
            Gen::Gfx11 => 2,
        };
        let k = ON_GEN[self as usize][g];
        (k != u16::MAX).then(|| OPCODES[k as usize])
    }
    /// The conditional branch taken exactly when this one is not (`s_cbranch_scc0` ↔
    /// `s_cbranch_scc1`, `vccz` ↔ `vccnz`, `execz` ↔ `execnz`); None for anything else.
    pub fn inverse_branch(self) -> Option<Opcode> {
        use Opcode::*;
        Some(match self {
            SCbranchScc0 => SCbranchScc1,
            SCbranchScc1 => SCbranchScc0,
            SCbranchVccz => SCbranchVccnz,
            SCbranchVccnz => SCbranchVccz,
            SCbranchExecz => SCbranchExecnz,
            SCbranchExecnz => SCbranchExecz,
            _ => return None,
        })
    }
    /// The 64-bit twin of a 32-bit scalar opcode (`s_and_b32` → `s_and_b64`,
    /// `s_cmp_lg_u32` → `s_cmp_lg_u64`), if there is one.
    pub fn wide(self) -> Option<Opcode> {
        let k = WIDE[self as usize];
        (k != u16::MAX).then(|| OPCODES[k as usize])
    }
    /// A lane-mask operation for `wave`: the 32-bit scalar opcode itself in wave32, its
    /// 64-bit twin in wave64 (None when it has none).
    pub fn for_wave(self, wave: super::Wave) -> Option<Opcode> {
        match wave {
            super::Wave::W32 => Some(self),
            super::Wave::W64 => self.wide(),
        }
    }
    /// Properties on one generation: `props()` plus the per-generation rules the
    /// opcode-level table cannot state: GFX9 LDS instructions read M0 (the LDS bound);
    /// `VS_CNT` (stores, atomics) exists from GFX10 on, before that those count in vmcnt
    /// only. (A returning atomic counts in vmcnt on GFX10+ too; that depends on `glc`, so
    /// the waitcnt pass decides per instruction.)
    pub fn props_on(self, gen: Gen) -> Props {
        let mut p = self.props();
        if gen == Gen::Gfx9 && p.contains(Props::GFX9_LDS_M0) {
            p |= Props::READS_M0;
        }
        if gen == Gen::Gfx9 {
            p.remove(Props::VS_CNT);
        } else if p.contains(Props::VS_CNT) && !p.contains(Props::ATOMIC) {
            // stores count in vscnt only
            p.remove(Props::VM_CNT);
        }
        p
    }
}

/// All encodings of a generation, sorted by (format, opcode number).
pub fn encodings(gen: Gen) -> &'static [EncDesc] {
    match gen {
        Gen::Gfx9 => &ENC_GFX9,
        Gen::Gfx10 => &ENC_GFX10,
        Gen::Gfx11 => &ENC_GFX11,
    }
}

/// The encoding with this opcode number in this format, if any.
pub fn lookup(gen: Gen, format: Format, op: u32) -> Option<&'static EncDesc> {
    let t = match gen {
        Gen::Gfx9 => decode_table_gfx9(format),
        Gen::Gfx10 => decode_table_gfx10(format),
        Gen::Gfx11 => decode_table_gfx11(format),
    };
    let i = *t.get(op as usize)?;
    (i != u16::MAX).then(|| &encodings(gen)[i as usize])
}

/// Every encoding of `opcode` on `gen` (empty when the generation lacks it).
pub fn forms(gen: Gen, opcode: Opcode) -> impl Iterator<Item = &'static EncDesc> {
    let (by, flat): (&[(u16, u16)], &[u16]) = match gen {
        Gen::Gfx9 => (&BY_OPCODE_GFX9, &BY_OPCODE_FLAT_GFX9),
        Gen::Gfx10 => (&BY_OPCODE_GFX10, &BY_OPCODE_FLAT_GFX10),
        Gen::Gfx11 => (&BY_OPCODE_GFX11, &BY_OPCODE_FLAT_GFX11),
    };
    let (start, n) = by[opcode as usize];
    let enc = encodings(gen);
    flat[start as usize..(start + n) as usize]
        .iter()
        .map(move |&i| &enc[i as usize])
}

/// The encoding of `opcode` in `format` on `gen`.
pub fn form(gen: Gen, opcode: Opcode, format: Format) -> Option<&'static EncDesc> {
    forms(gen, opcode).find(|d| d.format == format)
}

/// Hardware register names for `hwreg(...)`, sorted by id.
pub fn hwreg_names(gen: Gen) -> &'static [(u16, &'static str)] {
    match gen {
        Gen::Gfx9 => &HWREG_GFX9,
        Gen::Gfx10 => &HWREG_GFX10,
        Gen::Gfx11 => &HWREG_GFX11,
    }
}

/// `s_sendmsg` immediates LLVM prints symbolically, sorted by value.
pub fn sendmsg_texts(gen: Gen) -> &'static [(u16, &'static str)] {
    match gen {
        Gen::Gfx9 => &SENDMSG_GFX9,
        Gen::Gfx10 => &SENDMSG_GFX10,
        Gen::Gfx11 => &SENDMSG_GFX11,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Wave;

    #[test]
    fn an_opcode_resolves_to_its_rename_on_a_generation_that_lacks_it() {
        assert_eq!(Opcode::VAddU32.on(Gen::Gfx9), Some(Opcode::VAddU32));
        assert_eq!(Opcode::VAddU32.on(Gen::Gfx10), Some(Opcode::VAddNcU32));
        assert_eq!(Opcode::VAddNcU32.on(Gen::Gfx9), Some(Opcode::VAddU32));
        assert_eq!(Opcode::SAndn2B32.on(Gen::Gfx11), Some(Opcode::SAndNot1B32));
        assert_eq!(Opcode::SAndNot1B32.on(Gen::Gfx10), Some(Opcode::SAndn2B32));
        assert_eq!(Opcode::DsReadB32.on(Gen::Gfx11), Some(Opcode::DsLoadB32));
        assert_eq!(Opcode::VPermlane64B32.on(Gen::Gfx10), None);
        assert_eq!(Opcode::SWaitcntVscnt.on(Gen::Gfx9), None);
    }

    #[test]
    fn every_resolved_opcode_has_an_encoding_on_its_generation() {
        for gen in Gen::ALL {
            for o in OPCODES {
                if let Some(r) = o.on(gen) {
                    assert!(forms(gen, r).next().is_some(), "{} on {gen}", o.name());
                }
            }
        }
    }

    #[test]
    fn lane_mask_opcodes_follow_the_wave_size() {
        assert_eq!(Opcode::SAndB32.for_wave(Wave::W32), Some(Opcode::SAndB32));
        assert_eq!(Opcode::SAndB32.for_wave(Wave::W64), Some(Opcode::SAndB64));
        assert_eq!(Opcode::SCmpLgU32.wide(), Some(Opcode::SCmpLgU64));
        assert_eq!(Opcode::SOrSaveexecB32.wide(), Some(Opcode::SOrSaveexecB64));
        assert_eq!(Opcode::SAndNot1B32.wide(), Some(Opcode::SAndNot1B64));
        assert_eq!(Opcode::SBcnt1I32B32.wide(), Some(Opcode::SBcnt1I32B64));
        assert_eq!(Opcode::SMulI32.wide(), None);
        assert_eq!(Opcode::VAndB32.wide(), None);
    }

    #[test]
    fn selector_properties_come_from_the_table() {
        assert!(Opcode::VAddF32.props().contains(Props::COMMUTATIVE));
        assert!(Opcode::VAddCoU32.props().contains(Props::COMMUTATIVE));
        assert!(!Opcode::VAddCoCiU32.props().contains(Props::COMMUTATIVE));
        assert!(!Opcode::VSubF32.props().contains(Props::COMMUTATIVE));
        assert!(Opcode::VCndmaskB32.props().contains(Props::MASK_SRC));
        assert!(Opcode::VAddcCoU32.props().contains(Props::MASK_SRC));
        assert!(Opcode::VReadlaneB32.props().contains(Props::LANE_SELECT));
        assert!(Opcode::BufferGl0Inv.props().contains(Props::CACHE_INV));
        assert!(Opcode::SSetregB32.props().contains(Props::WRITES_HWREG));
    }

    #[test]
    fn typed_hwregs_and_messages_are_the_values_their_names_parse_to() {
        use crate::isa::simm16::{hwreg_whole, parse_hwreg, parse_sendmsg};
        for gen in Gen::ALL {
            for (reg, name) in [
                (Hwreg::FlatScrLo, "HW_REG_FLAT_SCR_LO"),
                (Hwreg::FlatScrHi, "HW_REG_FLAT_SCR_HI"),
                (Hwreg::Mode, "HW_REG_MODE"),
            ] {
                let text = format!("hwreg({name})");
                assert_eq!(
                    hwreg_whole(gen, reg),
                    parse_hwreg(gen, &text),
                    "{gen:?} {text}"
                );
            }
            for (msg, name) in [
                (SendMsg::GsAllocReq, "sendmsg(MSG_GS_ALLOC_REQ)"),
                (SendMsg::Interrupt, "sendmsg(MSG_INTERRUPT)"),
            ] {
                let want = parse_sendmsg(gen, name).map(|v| v as u16);
                assert_eq!(msg.value(gen), want, "{gen:?} {name}");
                assert!(want.is_some(), "{gen:?} {name}");
            }
        }
        // FLAT_SCRATCH is a hardware register from GFX10 on only
        assert_eq!(Hwreg::FlatScrLo.value(Gen::Gfx9), None);
    }
}
