//! Machine IR: what instruction selection produces and every later stage rewrites.
//!
//! Design (after ACO's `aco_ir.h`):
//! - A [`Temp`] is a virtual register with a [`RegClass`]: SGPR or VGPR, a size in dwords,
//!   and the alignment the hardware needs for that size (SGPR pairs at even, quads and
//!   larger at multiples of four; VGPR tuples unaligned). Lane masks are SGPR tuples of
//!   the wave's mask size (1 dword in wave32, 2 in wave64).
//! - Physical registers use the ISA's single numbering (`isa::PhysReg`: s0..s105, vcc,
//!   m0, exec, then VGPRs at 256+).
//! - An [`MInst`] is either a real instruction (`isa::Opcode` + encoding `Format`) whose
//!   `defs` and `ops` are the table's explicit destination and source operands in table
//!   order, or a [`Pseudo`] (parallel copy, create/split vector, program start).
//! - Blocks carry both CFGs: the *logical* one (the shader's meaning, which VGPR values
//!   follow) and the *linear* one (the order the wave executes, which SGPR values and
//!   exec follow). Layout order is block index order; the linear CFG may fall through only
//!   to the next block.
//!
//! Invariants (checked by [`verify::verify`]): every temp has exactly one definition
//! except the temps listed in `Program::multi_def` (phi webs after phi elimination, each
//! defined only by parallel copies); operand classes match the instruction's table entry;
//! predecessor and successor lists are mutually consistent; after register allocation no
//! `Arg::Temp` remains.

pub mod print;
pub mod verify;

use crate::isa::{Format, Mods, Opcode, PhysReg, Reg, Target};
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};

/// Register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegType {
    Sgpr,
    Vgpr,
}

/// A register class: file and size in dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegClass {
    pub ty: RegType,
    pub dwords: u8,
}

impl RegClass {
    pub const S1: RegClass = RegClass::s(1);
    pub const S2: RegClass = RegClass::s(2);
    pub const S4: RegClass = RegClass::s(4);
    pub const V1: RegClass = RegClass::v(1);
    pub const V2: RegClass = RegClass::v(2);
    pub const fn s(dwords: u8) -> RegClass {
        RegClass {
            ty: RegType::Sgpr,
            dwords,
        }
    }
    pub const fn v(dwords: u8) -> RegClass {
        RegClass {
            ty: RegType::Vgpr,
            dwords,
        }
    }
    /// The class of a lane mask for `t`'s wave size.
    pub fn lane_mask(t: Target) -> RegClass {
        RegClass::s(t.wave.mask_dwords())
    }
    pub fn is_sgpr(self) -> bool {
        self.ty == RegType::Sgpr
    }
    /// Required alignment of the first register, in registers.
    pub fn align(self) -> u16 {
        match (self.ty, self.dwords) {
            (RegType::Vgpr, _) => 1,
            (RegType::Sgpr, 1) => 1,
            (RegType::Sgpr, 2 | 3) => 2,
            (RegType::Sgpr, _) => 4,
        }
    }
    /// Text form: `s1`, `v4`, ...
    pub fn name(self) -> String {
        format!("{}{}", if self.is_sgpr() { 's' } else { 'v' }, self.dwords)
    }
}

/// A virtual register (index into `Program::temps`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Temp(pub u32);

/// A block (index into `Program::blocks`; also its layout position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u32);

/// An operand or destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// A virtual register (before allocation).
    Temp(Temp),
    /// A physical register (fixed operands such as exec, and everything after allocation).
    Reg(Reg),
    /// A 32-bit constant for a source: encoded inline when it can be, else as the literal.
    Const(u32),
    /// A raw immediate field (SMEM offset, SOPP simm16, SOPK imm).
    Imm(u32),
    /// A branch target.
    Label(BlockId),
    /// A 32-bit literal the link stage fills in: index into `Program::symbols` (unlinked
    /// compiles, docs/link.md). Emitted as the instruction's literal with an
    /// `R_AMDGPU_ABS32_LO` relocation.
    Symbol(u32),
    /// An address operand the instruction does not use, printed `off` (FLAT/SCRATCH
    /// `vaddr` or `saddr`; GLOBAL `saddr` with a 64-bit `vaddr`).
    Off,
}

impl Arg {
    pub fn temp(self) -> Option<Temp> {
        match self {
            Arg::Temp(t) => Some(t),
            _ => None,
        }
    }
}

/// Pseudo instructions; `lower_to_hw` turns each into real instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pseudo {
    /// Defines the registers the hardware initialises (user SGPRs, workgroup ids, local
    /// ids); each def is precoloured (`Program::precolored`). Emits nothing.
    StartPgm,
    /// `defs[i] = ops[i]` for all i at once.
    ParallelCopy,
    /// `defs[0]` is the concatenation of `ops` (one dword or tuple each).
    CreateVector,
    /// `defs` are consecutive pieces of `ops[0]`.
    SplitVector,
    /// `defs[0]` is a VGPR that holds spilled SGPRs in its lanes ("linear": live on the
    /// linear CFG, written and read whatever exec is). Emits nothing.
    StartLinearVgpr,
    /// Stores `ops[1]` into spill slot `ops[2]` (`Arg::Imm`): for an SGPR value, one lane
    /// per dword of the linear VGPR `ops[0]` from lane `ops[2]` on (`v_writelane_b32`).
    Spill,
    /// `defs[0]` = spill slot `ops[1]` (`Arg::Imm`) of the linear VGPR `ops[0]`
    /// (`v_readlane_b32` per dword).
    Reload,
    /// `defs[0]` (an SGPR pair) = the address of the program's constant data
    /// (`Program::constant_data`, placed after the code): kept to emission, which writes
    /// `s_getpc_b64` and a 64-bit add of the distance to the data (ACO's `p_constaddr`).
    /// Clobbers SCC; selection puts it in the entry block right after p_startpgm, where
    /// SCC holds nothing.
    ConstDataAddr,
}

impl Pseudo {
    /// The name the MIR printer and error messages use (ACO's, where ACO has one).
    pub fn name(self) -> &'static str {
        match self {
            Pseudo::StartPgm => "p_startpgm",
            Pseudo::ParallelCopy => "p_parallelcopy",
            Pseudo::CreateVector => "p_create_vector",
            Pseudo::SplitVector => "p_split_vector",
            Pseudo::StartLinearVgpr => "p_start_linear_vgpr",
            Pseudo::Spill => "p_spill",
            Pseudo::Reload => "p_reload",
            Pseudo::ConstDataAddr => "p_constaddr",
        }
    }
}

/// What an instruction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Hw(Opcode, Format),
    Pseudo(Pseudo),
}

/// One machine instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct MInst {
    pub op: Op,
    pub defs: SmallVec<[Arg; 2]>,
    pub ops: SmallVec<[Arg; 4]>,
    pub mods: Mods,
    /// A GFX11 VOPD pair (`Op::Hw(x, Format::VopdX)`, formed by `passes::form_vopd`): the
    /// Y half's opcode. `defs` are then the X and the Y destination, `ops` the X sources
    /// followed by the Y sources, each half in its table order ([`MInst::vopd_halves`]).
    pub op_y: Option<Opcode>,
}

impl MInst {
    /// The explicit operand descriptors of `d` matched one for one with this instruction's
    /// defs and uses (in their order): `d.explicit()`, except that a MIMG instruction in a
    /// GFX10+ NSA form has one `Vaddr` use per address VGPR, so its `Vaddr` descriptor
    /// repeats for each (the uses beyond the fixed ones, not counting a TFE read's
    /// trailing use of its destination, `isel/image.rs`).
    /// On the stack up to 8 operands (every format but NSA images): encoding and the
    /// verifier ask for it once per instruction.
    pub fn explicit_layout(
        &self,
        d: &crate::isa::EncDesc,
    ) -> SmallVec<[&'static crate::isa::OpDesc; 8]> {
        let ex: SmallVec<[&'static crate::isa::OpDesc; 8]> = d.explicit().collect();
        if d.format != Format::Mimg {
            return ex;
        }
        let fixed = ex.iter().filter(|o| !o.is_def()).count();
        let tfe_use = (self.mods.mem.tfe && self.ops.last() == self.defs.first()) as usize;
        let k = (self.ops.len() + 1).saturating_sub(fixed + tfe_use).max(1);
        let mut out = SmallVec::with_capacity(ex.len() + k);
        for o in ex {
            let n = if o.field == crate::isa::Field::Vaddr {
                k
            } else {
                1
            };
            out.extend(std::iter::repeat_n(o, n));
        }
        out
    }

    pub fn hw(op: Opcode, format: Format, defs: &[Arg], ops: &[Arg]) -> MInst {
        let mut mods = Mods::default();
        if format == Format::Vop3p {
            mods.op_sel_hi = 7;
        }
        MInst {
            op: Op::Hw(op, format),
            defs: defs.into(),
            ops: ops.into(),
            mods,
            op_y: None,
        }
    }
    pub fn pseudo(p: Pseudo, defs: &[Arg], ops: &[Arg]) -> MInst {
        MInst {
            op: Op::Pseudo(p),
            defs: defs.into(),
            ops: ops.into(),
            mods: Mods::default(),
            op_y: None,
        }
    }
    pub fn opcode(&self) -> Option<Opcode> {
        match self.op {
            Op::Hw(o, _) => Some(o),
            Op::Pseudo(_) => None,
        }
    }
    /// The X and Y halves of a VOPD pair as instructions of formats `VopdX` and `VopdY`
    /// (None for anything else, or a pair whose X opcode has no VOPD X form on `gen`).
    pub fn vopd_halves(&self, gen: crate::isa::Gen) -> Option<(MInst, MInst)> {
        let (Op::Hw(x, Format::VopdX), Some(y)) = (self.op, self.op_y) else {
            return None;
        };
        let nx = crate::isa::tables::form(gen, x, Format::VopdX)?.n_explicit() - 1;
        if self.defs.len() != 2 || self.ops.len() < nx {
            return None;
        }
        let half = |op, format, def: Arg, ops: &[Arg]| MInst::hw(op, format, &[def], ops);
        Some((
            half(x, Format::VopdX, self.defs[0], &self.ops[..nx]),
            half(y, Format::VopdY, self.defs[1], &self.ops[nx..]),
        ))
    }
    pub fn is_copy(&self) -> bool {
        matches!(self.op, Op::Pseudo(Pseudo::ParallelCopy))
    }
}

/// A basic block with both CFGs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MBlock {
    pub insts: Vec<MInst>,
    pub logical_preds: Vec<BlockId>,
    pub logical_succs: Vec<BlockId>,
    pub linear_preds: Vec<BlockId>,
    pub linear_succs: Vec<BlockId>,
    /// Loop nesting depth (0 outside loops).
    pub loop_depth: u32,
}

/// How the hardware starts the shader: which registers it initialises and where the
/// ABI puts each input. Filled by isel, read by RA (precolouring) and the ELF writer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Abi {
    /// User data entry per user SGPR, from s0.
    pub user_sgprs: Vec<crate::binary::registers::UserData>,
    /// Workgroup id X/Y/Z enabled (system SGPRs after the user SGPRs).
    pub tgid_en: [bool; 3],
    /// Local invocation id components enabled: 0 = x, 1 = xy, 2 = xyz.
    pub tidig_comp_cnt: u32,
    /// Vertex and fragment stages: inputs, exports and modes for the metadata.
    pub graphics: crate::amdgpu::abi_graphics::GraphicsAbi,
}

/// A machine function.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub target: Target,
    pub temps: Vec<RegClass>,
    pub blocks: Vec<MBlock>,
    /// Temps defined by the hardware in a fixed register.
    pub precolored: BTreeMap<Temp, PhysReg>,
    /// Temps with several definitions (phi webs).
    pub multi_def: BTreeSet<Temp>,
    /// Phi webs that an instruction reads and redefines only because
    /// `passes::coalesce_phi_copies` made it write the web directly: the read and the
    /// write need not share a register (the spiller may give them different temps),
    /// unlike the tied operands of atomics.
    pub untied: BTreeSet<Temp>,
    pub abi: Abi,
    pub workgroup_size: [u32; 3],
    pub lds_bytes: u32,
    /// Pre-link symbols referenced by `Arg::Symbol` (unlinked compiles only).
    pub symbols: Vec<crate::binary::prelink::PrelinkSymbol>,
    /// Per-lane scratch bytes the program addresses (`amdgpu::scratch`).
    pub scratch_bytes: u32,
    /// The live mask and whole-quad-mode needs of a fragment shader with derivatives,
    /// implicit-LOD sampling or demote (`passes::insert_wqm`); `None` otherwise.
    pub wqm: Option<Wqm>,
    /// Read-only data emitted after the code (the IR's `Module::constant_data`), addressed
    /// through `Pseudo::ConstDataAddr`.
    pub constant_data: Vec<u8>,
}

/// What instruction selection tells the whole-quad-mode pass (`passes::insert_wqm`).
#[derive(Clone, Debug, PartialEq)]
pub struct Wqm {
    /// The live mask: the lanes neither discarded nor demoted. Defined from exec at the
    /// top of the entry block, redefined by every discard and demote (so it is listed in
    /// `Program::multi_def`).
    pub live: Temp,
    /// Helper lanes must run: the shader reads values across a quad (derivatives,
    /// implicit-LOD sampling). Without it the live mask only serves demote and
    /// `gl_HelperInvocation`, and exec never leaves exact mode.
    pub helpers: bool,
    /// Temps helper lanes must compute: the results of the instructions that read other
    /// lanes of their quad (the pass adds everything they depend on).
    pub seeds: Vec<Temp>,
    /// The block the exports are in (the end of the program).
    pub end: BlockId,
}

impl Program {
    pub fn new(target: Target) -> Program {
        Program {
            target,
            temps: Vec::new(),
            blocks: Vec::new(),
            precolored: BTreeMap::new(),
            multi_def: BTreeSet::new(),
            untied: BTreeSet::new(),
            abi: Abi::default(),
            workgroup_size: [1, 1, 1],
            lds_bytes: 0,
            symbols: Vec::new(),
            scratch_bytes: 0,
            wqm: None,
            constant_data: Vec::new(),
        }
    }
    /// The `Arg::Symbol` of `s` (interned).
    pub fn symbol(&mut self, s: crate::binary::prelink::PrelinkSymbol) -> Arg {
        match self.symbols.iter().position(|x| *x == s) {
            Some(i) => Arg::Symbol(i as u32),
            None => {
                self.symbols.push(s);
                Arg::Symbol(self.symbols.len() as u32 - 1)
            }
        }
    }
    pub fn new_temp(&mut self, rc: RegClass) -> Temp {
        self.temps.push(rc);
        Temp(self.temps.len() as u32 - 1)
    }
    pub fn rc(&self, t: Temp) -> RegClass {
        self.temps[t.0 as usize]
    }
    pub fn new_block(&mut self, loop_depth: u32) -> BlockId {
        self.blocks.push(MBlock {
            loop_depth,
            ..MBlock::default()
        });
        BlockId(self.blocks.len() as u32 - 1)
    }
    pub fn block(&self, b: BlockId) -> &MBlock {
        &self.blocks[b.0 as usize]
    }
    pub fn block_mut(&mut self, b: BlockId) -> &mut MBlock {
        &mut self.blocks[b.0 as usize]
    }
    /// Adds a linear edge, and a logical one when `logical`.
    pub fn add_edge(&mut self, from: BlockId, to: BlockId, logical: bool) {
        self.block_mut(from).linear_succs.push(to);
        self.block_mut(to).linear_preds.push(from);
        if logical {
            self.block_mut(from).logical_succs.push(to);
            self.block_mut(to).logical_preds.push(from);
        }
    }
    /// The exec register for the wave size.
    pub fn exec(&self) -> Arg {
        Arg::Reg(Reg::exec(self.target.wave))
    }
    pub fn wave64(&self) -> bool {
        self.target.wave == crate::isa::Wave::W64
    }
}
