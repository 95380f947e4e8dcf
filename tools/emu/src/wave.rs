//! One wave: its registers, program counter, MODE, counters and hazard history, and the
//! fetch–check–execute step.
//!
//! `Wave::step` fetches through the ISA decoder (`Program::fetch`, cached per offset),
//! charges the instruction budget, computes the registers the instruction reads and
//! writes (explicit operands from the table's operand list, implicit VCC from the
//! descriptor, M0/SCC from `Props`), checks them against the outstanding-memory tracker and
//! the hazard rules, then dispatches by format and `Opcode` to `salu`, `smem`, `valu`
//! (with `vopd` for dual issue), `ds`, `vmem` or `image`. Any error is decorated with the
//! wave id, pc, instruction text and a register dump.
//!
//! Invariant: a wave never executes past an error; the dispatcher stops the whole run.

use crate::error::{Error, ErrorKind, Result};
use crate::hazard::Hazards;
use crate::memory::{Lds, Memory};
use crate::regs::{reg_name, Regs};
use crate::track::{Range, Tracker};
use gcnc::isa::tables::Implicit;
use gcnc::isa::{self, EncDesc, Field, Format, Inst, Operand, Props, Target};

/// What to check beyond executing.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// Reads of never-written registers.
    pub uninit: bool,
    /// Missing `s_waitcnt` (RAW/WAW on pending destinations).
    pub waitcnt: bool,
    /// Also report overwriting a register a pending memory operation reads (WAR). Off by
    /// default: GFX9+ hardware reads VMEM/DS/SMEM operands at issue, and LLVM's and ACO's
    /// code relies on it (tests/compiled.rs shows LLVM reusing a DS address register
    /// while the DS op is pending). The SGPR cases that *are* hazards are the hazard
    /// checker's (SMEMtoVectorWrite, VMEMtoScalarWrite).
    pub war: bool,
    /// Per-generation hazards (docs/hazards.md).
    pub hazards: bool,
    /// Barriers not every invocation of the workgroup reaches: an `s_barrier` with EXEC
    /// short of the wave's lanes, waves released from different barriers, or released
    /// while a wave ended without the barrier. The hardware lets an ended wave drop out
    /// of the barrier, but Vulkan requires every invocation to execute it.
    pub barriers: bool,
    /// LDS accesses outside the workgroup's allocation (the hardware reads 0 and drops
    /// writes; Vulkan leaves them undefined).
    pub lds_bounds: bool,
}

impl Default for Checks {
    fn default() -> Checks {
        Checks {
            uninit: true,
            waitcnt: true,
            war: false,
            hazards: true,
            barriers: true,
            lds_bounds: true,
        }
    }
}

/// Decoded code, with a per-offset cache.
pub struct Program {
    pub t: Target,
    pub code: Vec<u8>,
    /// GPU virtual address of byte 0 of `code` (what `s_getpc_b64` sees).
    pub base: u64,
    cache: Vec<Option<(Inst, u64, String)>>,
}

impl Program {
    pub fn new(t: Target, code: Vec<u8>, base: u64) -> Program {
        let n = code.len() / 4 + 1;
        Program {
            t,
            code,
            base,
            cache: vec![None; n],
        }
    }

    /// The instruction at byte offset `pc`, its length in bytes and its text.
    pub fn fetch(&mut self, pc: u64) -> Result<(Inst, u64, String)> {
        if !pc.is_multiple_of(4) || pc >= self.code.len() as u64 {
            return Err(Error::new(ErrorKind::RanOffEnd {
                pc,
                code_len: self.code.len() as u64,
            }));
        }
        let i = (pc / 4) as usize;
        if let Some(c) = &self.cache[i] {
            return Ok(c.clone());
        }
        let (inst, len) = isa::decode(&self.code, pc as usize, self.t)
            .map_err(|e| Error::new(ErrorKind::Decode(format!("{e:?}"))))?;
        let text = isa::print(&inst, self.t).unwrap_or_else(|_| format!("{:?}", inst.op));
        let v = (inst, len as u64, text);
        self.cache[i] = Some(v.clone());
        Ok(v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    AtBarrier,
    Ended,
}

/// Everything a wave touches outside itself.
pub struct Env<'a> {
    pub prog: &'a mut Program,
    pub mem: &'a mut Memory,
    pub lds: &'a mut Lds,
    pub checks: Checks,
    /// A graphics wave's export sink (`exp`, `s_sendmsg`); `None` in compute, where an
    /// export is an error.
    pub exports: Option<&'a mut crate::export::Exports>,
}

pub struct Wave {
    pub t: Target,
    pub regs: Regs,
    pub pc: u64,
    /// The MODE hardware register (FP_ROUND [3:0], FP_DENORM [7:4], ...).
    pub mode: u32,
    pub status: Status,
    pub track: Tracker,
    pub hz: Hazards,
    pub executed: u64,
    pub budget: u64,
    pub id: ([u32; 3], u32),
    /// Set by a taken branch / s_setpc during execution.
    pub(crate) next_pc: Option<u64>,
    pub(crate) cur_pc: u64,
    pub(crate) cur_text: String,
    /// Private (scratch) memory: `scratch_bytes` per lane, lane-major.
    pub scratch_bytes: u64,
    scratch: Vec<u8>,
    /// GFX10.3 FLAT_SCRATCH (`hwreg(HW_REG_FLAT_SCR_LO/HI)`), unwritten at wave start.
    pub flat_scr: [Option<u32>; 2],
    /// GFX9/GFX10.3: the FLAT_SCRATCH value this wave's scratch accesses need (the
    /// dispatch's scratch ring base plus the wave's offset); `None` = not checked.
    pub scratch_expect: Option<u64>,
    /// The lanes the wave was launched with (its invocations).
    pub launched: u64,
    /// `s_barrier`s executed, and the byte offset of the last one.
    pub barriers: u64,
    pub barrier_pc: u64,
    /// Pixel waves: bytes per primitive of the attribute data in the LDS (`interp.rs`);
    /// 0 for every other wave (interpolation is then an error).
    pub param_bytes: u32,
    /// Pixel waves: the helper lanes of the launch (quad lanes covering no sample). A
    /// memory store or atomic with one of them in EXEC is an error (`check_helpers`).
    pub helpers: u64,
}

impl std::fmt::Debug for Wave {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "Wave {{ id: {:?}, pc: {:#x}, status: {:?}, executed: {} }}",
            self.id, self.pc, self.status, self.executed
        )
    }
}

/// Registers an instruction reads and writes (PhysReg numbering, VGPRs from 256).
#[derive(Clone, Debug, Default)]
pub struct Uses {
    pub reads: Vec<Range>,
    pub writes: Vec<Range>,
}

impl Wave {
    pub fn new(t: Target, nvgpr: usize, budget: u64, checks: Checks) -> Wave {
        Wave {
            t,
            regs: Regs::new(t.gen, t.wave.lanes(), nvgpr),
            pc: 0,
            mode: 0,
            status: Status::Running,
            track: Tracker::new(checks.war, t.gen),
            hz: Hazards::default(),
            executed: 0,
            budget,
            id: ([0; 3], 0),
            next_pc: None,
            cur_pc: 0,
            cur_text: String::new(),
            scratch_bytes: 0,
            scratch: Vec::new(),
            flat_scr: [None; 2],
            scratch_expect: None,
            launched: 0,
            barriers: 0,
            barrier_pc: 0,
            param_bytes: 0,
            helpers: 0,
        }
    }

    /// Checks that FLAT_SCRATCH holds this wave's scratch base before a scratch access
    /// (GFX9: s102/s103; GFX10.3: the hardware register; GFX11 is architected).
    pub fn check_flat_scratch(&self) -> Result<()> {
        let Some(want) = self.scratch_expect else {
            return Ok(());
        };
        let have = match self.t.gen {
            gcnc::isa::Gen::Gfx9 => match (self.regs.s(102), self.regs.s(103)) {
                (Ok(lo), Ok(hi)) if self.regs.s_written(102) && self.regs.s_written(103) => {
                    Some(lo as u64 | (hi as u64) << 32)
                }
                _ => None,
            },
            gcnc::isa::Gen::Gfx10 => match self.flat_scr {
                [Some(lo), Some(hi)] => Some(lo as u64 | (hi as u64) << 32),
                _ => None,
            },
            gcnc::isa::Gen::Gfx11 => return Ok(()),
        };
        match have {
            Some(v) if v == want => Ok(()),
            Some(v) => Err(Error::new(crate::error::ErrorKind::ScratchSetup(format!(
                "FLAT_SCRATCH is {v:#x}, this wave's scratch base is {want:#x}"
            )))),
            None => Err(Error::new(crate::error::ErrorKind::ScratchSetup(
                "scratch access before FLAT_SCRATCH was initialised".into(),
            ))),
        }
    }

    /// A store or atomic to memory (not scratch) must not run in a helper lane: the
    /// hardware would perform it, so the code must switch to exact mode first (WQM).
    pub fn check_helpers(&self, what: &str) -> Result<()> {
        let h = self.regs.exec() & self.helpers;
        if h != 0 {
            return Err(Error::new(ErrorKind::Graphics(format!(
                "{what} with helper lanes {h:#x} in EXEC (a store in whole-quad mode)"
            ))));
        }
        Ok(())
    }

    /// Gives every lane `bytes` of zeroed private memory.
    pub fn set_scratch(&mut self, bytes: u64) {
        self.scratch_bytes = bytes;
        self.scratch = vec![0; (bytes * self.lanes() as u64) as usize];
    }

    fn scratch_index(&self, lane: u32, addr: u64) -> Result<usize> {
        if addr >= self.scratch_bytes {
            return Err(Error::new(ErrorKind::MemFault {
                // an address past the end of memory is reported at the end of memory
                addr: crate::dispatch::PRIVATE_BASE.saturating_add(addr),
                size: 1,
                write: false,
            }));
        }
        Ok((lane as u64 * self.scratch_bytes + addr) as usize)
    }

    pub fn scratch_byte(&self, lane: u32, addr: u64) -> Result<u8> {
        Ok(self.scratch[self.scratch_index(lane, addr)?])
    }

    pub fn set_scratch_byte(&mut self, lane: u32, addr: u64, v: u8) -> Result<()> {
        let i = self.scratch_index(lane, addr)?;
        self.scratch[i] = v;
        Ok(())
    }

    pub fn lanes(&self) -> u32 {
        self.t.wave.lanes()
    }

    pub fn mask_dwords(&self) -> u8 {
        self.t.wave.mask_dwords()
    }

    /// Executes one instruction.
    pub fn step(&mut self, env: &mut Env) -> Result<()> {
        let pc = self.pc;
        let fetched = env.prog.fetch(pc);
        let (inst, len, text) = match fetched {
            Ok(f) => f,
            Err(e) => return Err(self.locate(e, pc, None)),
        };
        if self.executed >= self.budget {
            return Err(self.locate(Error::new(ErrorKind::Budget(self.budget)), pc, Some(&text)));
        }
        self.executed += 1;
        self.cur_pc = pc;
        self.cur_text = text.clone();
        self.next_pc = None;
        let r = self.exec(&inst, env);
        if let Err(e) = r {
            return Err(self.locate(e, pc, Some(&text)));
        }
        self.pc = self.next_pc.unwrap_or(pc + len);
        Ok(())
    }

    pub fn locate(&self, mut e: Error, pc: u64, text: Option<&str>) -> Error {
        e.wave = Some(self.id);
        e.pc = Some(pc);
        e.inst = text.map(str::to_string);
        e.dump = Some(self.dump());
        e
    }

    pub fn dump(&self) -> String {
        let mut s = format!(
            "  wave {} of workgroup {:?}: pc {:#x}, {} instructions executed, mode {:#x}\n",
            self.id.1, self.id.0, self.pc, self.executed, self.mode
        );
        s.push_str(&self.regs.dump());
        s
    }

    fn exec(&mut self, inst: &Inst, env: &mut Env) -> Result<()> {
        let d = inst
            .desc(self.t.gen)
            .map_err(|e| Error::new(ErrorKind::Decode(format!("{e:?}"))))?;
        let props = inst.op.props();
        let uses = self.uses(inst, d);
        if inst.format == Format::Vinterp {
            // VINTERP's wait_exp: wait for expcnt first (lds_param_load results)
            self.track
                .wait(crate::track::Counter::Exp, inst.mods.mem.wait as usize);
        }
        if env.checks.hazards {
            self.hz.check(self.t, inst, d, props, &uses, self.cur_pc)?;
        }
        if env.checks.waitcnt {
            let gen = self.t.gen;
            for &(b, c) in &uses.reads {
                self.track.check_read(b, c, || range_name(gen, b, c))?;
            }
            for &(b, c) in &uses.writes {
                self.track.check_write(b, c, || range_name(gen, b, c))?;
            }
        }
        if inst.format == Format::VopdX {
            crate::vopd::exec(self, inst, env)?;
        } else if inst.format == Format::Ds {
            crate::ds::exec(self, inst, d, env)?;
        } else if matches!(
            inst.format,
            Format::Mubuf | Format::Mtbuf | Format::Flat | Format::Global | Format::Scratch
        ) {
            crate::vmem::exec(self, inst, d, env)?;
        } else if inst.format == Format::Mimg {
            crate::image::exec(self, inst, d, env)?;
        } else if inst.format == Format::Exp {
            crate::export::exec(self, inst, env.exports.as_deref_mut())?;
        } else if matches!(
            inst.format,
            Format::Vintrp | Format::Ldsdir | Format::Vinterp
        ) {
            crate::interp::exec(self, inst, env)?;
        } else if props.contains(Props::SMEM) {
            crate::smem::exec(self, inst, d, env)?;
        } else if props.contains(Props::VALU) {
            crate::valu::exec(self, inst, d, env)?;
        } else if props.contains(Props::SALU) {
            crate::salu::exec(self, inst, d, env)?;
        } else {
            return Err(Error::unimpl(format!(
                "{} (no SALU/VALU/SMEM property)",
                inst.op.name()
            )));
        }
        self.hz
            .record(self.t, inst, d, props, &uses, self.cur_pc, &self.cur_text);
        Ok(())
    }

    /// The registers `inst` reads and writes.
    pub fn uses(&self, inst: &Inst, d: &EncDesc) -> Uses {
        let mut u = Uses::default();
        if inst.format == Format::VopdX && inst.op_y.is_some() {
            if let Ok((x, y)) = inst.vopd_halves(self.t.gen) {
                for h in [x, y] {
                    if let Ok(dh) = h.desc(self.t.gen) {
                        let hu = self.uses(&h, dh);
                        u.reads.extend(hu.reads);
                        u.writes.extend(hu.writes);
                    }
                }
            }
            return u;
        }
        if is_mem_format(inst.format) {
            let lay = isa::format::mem::layout(inst, d);
            for (od, o) in lay.iter().zip(inst.operands.iter()) {
                let Operand::Reg(r) = o else { continue };
                if (235..=254).contains(&r.base.0) || r.base.0 == 125 {
                    continue;
                }
                let range = (r.base.0, r.count as u16);
                match od.field {
                    Field::Vdst => u.writes.push(range),
                    Field::Vdata => {
                        u.reads.push(range);
                        if inst.format == Format::Mubuf
                            && inst.mods.glc
                            && inst.op.props().contains(Props::ATOMIC)
                        {
                            u.writes.push(range);
                        }
                    }
                    _ => u.reads.push(range),
                }
            }
            let props = inst.op.props();
            if props.contains(Props::READS_M0) {
                u.reads.push((124, 1));
            }
            return u;
        }
        let name = inst.op.name();
        let store = name.starts_with("s_store") || name.starts_with("s_buffer_store");
        let atomic = inst.op.props().contains(Props::ATOMIC);
        let mut seen_src = false;
        let mut explicit = inst.operands.iter();
        for od in d.operands {
            if let Some(imp) = od.implicit {
                let r = match imp {
                    Implicit::Vcc => (106, self.mask_dwords() as u16),
                    Implicit::Exec => (126, self.mask_dwords() as u16),
                    Implicit::M0 => (124, 1),
                    Implicit::Scc => continue,
                };
                if seen_src {
                    u.reads.push(r);
                } else {
                    u.writes.push(r);
                }
                continue;
            }
            let Some(o) = explicit.next() else { break };
            if matches!(od.field, Field::Src0 | Field::Ssrc0 | Field::Sbase) {
                seen_src = true;
            }
            let Operand::Reg(r) = o else { continue };
            if (235..=254).contains(&r.base.0) || r.base.0 == 125 {
                continue;
            }
            let range = (r.base.0, r.count as u16);
            // SOPK compares, s_setreg and the SOPK waits name a source in `sdst`
            let sdst_is_src = od.field == Field::Sdst
                && (name.starts_with("s_cmpk")
                    || name.starts_with("s_setreg")
                    || name.starts_with("s_waitcnt"));
            let is_def = od.is_def() && !sdst_is_src;
            if od.field == Field::Sdata {
                if store || atomic {
                    u.reads.push(range);
                }
                if !store {
                    u.writes.push(range);
                }
            } else if is_def {
                u.writes.push(range);
                // read-modify-write destinations
                if matches!(
                    inst.op,
                    isa::Opcode::SBitset0B32
                        | isa::Opcode::SBitset0B64
                        | isa::Opcode::SBitset1B32
                        | isa::Opcode::SBitset1B64
                        | isa::Opcode::SAddkI32
                        | isa::Opcode::SMulkI32
                        | isa::Opcode::SCmovkI32
                        | isa::Opcode::VWritelaneB32
                ) || name.starts_with("v_mac_")
                    || name.starts_with("v_fmac_")
                    || name.starts_with("s_cmovk")
                {
                    u.reads.push(range);
                }
            } else {
                u.reads.push(range);
            }
        }
        let props = inst.op.props();
        if props.contains(Props::READS_M0) {
            u.reads.push((124, 1));
        }
        if props.contains(Props::WRITES_M0) {
            u.writes.push((124, 1));
        }
        u
    }

    // ----- shared operand access -----

    /// A scalar source: register (1 or 2 dwords), inline constant or literal.
    /// `f64` says how 64-bit constants are formed (float: literal is the high dword).
    pub fn s_read(&self, o: &Operand, dwords: u8, f64: bool, signed: bool) -> Result<u64> {
        match *o {
            Operand::Reg(r) => {
                let n = r.base.0;
                match n {
                    235..=238 => Ok(self.aperture(n)),
                    251 => Ok((self.vcc() == 0) as u64),
                    252 => Ok((self.regs.exec() == 0) as u64),
                    253 => Ok(self.regs.scc()? as u64),
                    254 => Err(Error::unsupported("src_lds_direct")),
                    _ => {
                        let lo = self.regs.s(n)? as u64;
                        if dwords == 2 {
                            Ok(lo | (self.regs.s(n + 1)? as u64) << 32)
                        } else {
                            Ok(lo)
                        }
                    }
                }
            }
            Operand::Inline(c) => Ok(inline_value(c, dwords, f64, false)),
            Operand::Literal(v) => Ok(literal_value(v, dwords, f64, signed)),
            Operand::Imm(v) => Ok(v as u64),
            Operand::Label(_) | Operand::Symbol(_) => {
                Err(Error::unsupported("unresolved label or symbol operand"))
            }
            Operand::Off => Ok(0),
        }
    }

    /// Writes a scalar destination of `count` dwords.
    pub fn s_write(&mut self, o: &Operand, v: u64) -> Result<()> {
        let Operand::Reg(r) = *o else {
            return Err(Error::unsupported("scalar destination is not a register"));
        };
        if r.base.is_vgpr() {
            return Err(Error::unsupported("VGPR as scalar destination"));
        }
        self.regs.set_s(r.base.0, v as u32)?;
        if r.count >= 2 {
            self.regs.set_s(r.base.0 + 1, (v >> 32) as u32)?;
        }
        Ok(())
    }

    pub fn vcc(&self) -> u64 {
        let lo = self.regs.s_raw(106) as u64;
        let hi = self.regs.s_raw(107) as u64;
        (lo | hi << 32) & self.regs.lane_mask()
    }

    /// Reads a lane mask from SGPRs starting at `n` (checks written).
    pub fn read_mask(&self, n: u16) -> Result<u64> {
        let lo = self.regs.s(n)? as u64;
        let v = if self.mask_dwords() == 2 {
            lo | (self.regs.s(n + 1)? as u64) << 32
        } else {
            lo
        };
        Ok(v & self.regs.lane_mask())
    }

    pub fn write_mask(&mut self, n: u16, v: u64) -> Result<()> {
        self.regs.set_s(n, v as u32)?;
        if self.mask_dwords() == 2 {
            self.regs.set_s(n + 1, (v >> 32) as u32)?;
        }
        Ok(())
    }

    /// Shared/private aperture registers (flat address space windows).
    fn aperture(&self, n: u16) -> u64 {
        match n {
            235 => crate::dispatch::SHARED_BASE,
            236 => crate::dispatch::SHARED_BASE + 0xffff_ffff,
            237 => crate::dispatch::PRIVATE_BASE,
            _ => crate::dispatch::PRIVATE_BASE + 0xffff_ffff,
        }
    }

    /// Sets the next pc to a SOPP branch target.
    pub fn branch_rel(&mut self, simm16: u32) {
        let off = simm16 as u16 as i16 as i64;
        self.next_pc = Some((self.cur_pc as i64 + 4 + off * 4) as u64);
    }
}

/// The memory, export and interpolation formats (operands laid out by `mem::layout`).
pub fn is_mem_format(f: Format) -> bool {
    matches!(
        f,
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

pub fn range_name(gen: isa::Gen, base: u16, count: u16) -> String {
    reg_name(gen, base, count as u8)
}

const F32_INL: [u32; 9] = [
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
    0x3e22f983,
];
const F16_INL: [u32; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
const F64_INL: [u64; 9] = [
    0x3fe0000000000000,
    0xbfe0000000000000,
    0x3ff0000000000000,
    0xbff0000000000000,
    0x4000000000000000,
    0xc000000000000000,
    0x4010000000000000,
    0xc010000000000000,
    0x3fc45f306dc9c882,
];

/// The value of an inline constant code as an operand of `dwords` dwords; `float` picks
/// f64 (2 dwords) / f16 (`half`) / f32 bit patterns for the float codes.
pub fn inline_value(c: u8, dwords: u8, float: bool, half: bool) -> u64 {
    if let Some(i) = isa::operand::inline_int(c) {
        return if dwords == 2 {
            i as i64 as u64
        } else if half {
            (i as u32 & 0xffff) as u64
        } else {
            i as u32 as u64
        };
    }
    let k = (c.saturating_sub(240) as usize).min(8);
    if dwords == 2 {
        // 64-bit operands always see the f64 pattern for float codes
        let _ = float;
        F64_INL[k]
    } else if half {
        F16_INL[k] as u64
    } else {
        F32_INL[k] as u64
    }
}

/// A 32-bit literal as an operand of `dwords` dwords: 64-bit floats take it as the high
/// dword, signed 64-bit integers sign-extend it, unsigned ones zero-extend it.
pub fn literal_value(v: u32, dwords: u8, f64: bool, signed: bool) -> u64 {
    if dwords < 2 {
        v as u64
    } else if f64 {
        (v as u64) << 32
    } else if signed {
        v as i32 as i64 as u64
    } else {
        v as u64
    }
}
