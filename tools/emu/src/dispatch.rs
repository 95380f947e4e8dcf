//! Compute dispatch: builds the waves of every workgroup as docs/abi.md says, runs the
//! waves of a workgroup interleaved (one instruction each, round robin) so `s_barrier`
//! works, and workgroups one after another. Memory is the caller's `Memory`; after the
//! run it holds what the shader wrote.
//!
//! Wave setup (docs/abi.md): user SGPRs s0..s(n-1) = `user_sgprs`; then one SGPR per
//! enabled workgroup-id dimension (x, y, z); EXEC = the wave's live lanes; local ids in
//! v0/v1/v2 (GFX9, GFX10) or packed into v0 as x | y << 10 | z << 20 (GFX11); MODE =
//! `float_mode`. Scratch (`scratch_bytes` > 0): every lane gets a private zeroed window;
//! with `pal_scratch` (PAL ELFs) on GFX9/GFX10.3 the wave also gets its scratch wave offset in the SGPR after the
//! workgroup ids, and the run writes PAL's global table at `global_table` (the scratch
//! ring descriptor at byte 16, base `scratch_ring`) — the wave must then set FLAT_SCRATCH
//! to ring base + wave offset before its first scratch access (checked). Barrier rule: waves waiting at `s_barrier` are released when every wave
//! of the workgroup that has not ended is waiting.

use crate::error::{Error, ErrorKind, Result};
use crate::memory::{Lds, Memory};
use crate::wave::{Checks, Env, Program, Status, Wave};
use gcnc::isa::{Gen, Target};

/// Instructions a whole dispatch may execute, all waves together, unless the caller
/// chooses another budget: the overall bound on a run's time (the per-wave budget bounds
/// one wave, not how many there are).
pub const DEFAULT_DISPATCH_BUDGET: u64 = 100_000_000;

/// Flat-address aperture bases reported by src_shared_base / src_private_base.
pub const SHARED_BASE: u64 = 0x1_0000_0000_0000;
pub const PRIVATE_BASE: u64 = 0x2_0000_0000_0000;

/// Everything needed to run one compute dispatch.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub target: Target,
    /// The code object's text; `entry` is the byte offset of the shader in it.
    pub code: Vec<u8>,
    pub entry: u64,
    /// GPU address of `code[0]`.
    pub code_base: u64,
    pub user_sgprs: Vec<u32>,
    pub groups: [u32; 3],
    pub group_size: [u32; 3],
    pub tgid_en: [bool; 3],
    /// Local-id dimensions delivered (1..=3, PAL's TIDIG_COMP_CNT + 1).
    pub tid_dims: u32,
    pub lds_bytes: u32,
    /// Private memory per lane (scratch / spills).
    pub scratch_bytes: u64,
    /// GFX9/GFX10.3: GPU address of the scratch ring (what FLAT_SCRATCH is based on).
    pub scratch_ring: u64,
    /// GPU address of PAL's global table; in the code's 4 GiB (the shader forms it from
    /// `s_getpc_b64`'s high half and the `GlobalTable` user SGPR).
    pub global_table: u64,
    /// Apply the PAL ABI's GFX9/GFX10.3 scratch setup (wave offset SGPR, global table,
    /// FLAT_SCRATCH check). `from_elf` turns it on; hand-built dispatches of raw programs
    /// leave it off and address scratch without FLAT_SCRATCH.
    pub pal_scratch: bool,
    pub vgprs: usize,
    /// Initial MODE register (FLOAT_MODE byte: round [3:0], denorm [7:4]).
    pub float_mode: u32,
    /// Instruction budget per wave.
    pub budget: u64,
    /// Instruction budget of the whole dispatch (all waves together).
    pub dispatch_budget: u64,
    pub checks: Checks,
}

impl Dispatch {
    pub fn new(target: Target, code: Vec<u8>) -> Dispatch {
        Dispatch {
            target,
            code,
            entry: 0,
            code_base: 0x7000_0000_0000,
            user_sgprs: vec![],
            groups: [1, 1, 1],
            group_size: [target.wave.lanes(), 1, 1],
            tgid_en: [true, true, true],
            tid_dims: 3,
            lds_bytes: 0,
            scratch_bytes: 0,
            scratch_ring: 0x6000_0000_0000,
            global_table: 0x7000_1000_0000,
            pal_scratch: false,
            vgprs: 256,
            float_mode: 0xc0,
            budget: 1_000_000,
            dispatch_budget: DEFAULT_DISPATCH_BUDGET,
            checks: Checks::default(),
        }
    }

    /// A dispatch from a PAL ELF: `.text`, the compute entry symbol, and the PAL metadata
    /// (workgroup size, workgroup-id enables, LDS size, FLOAT_MODE, VGPR count).
    /// `wave` forces a wave size; `None` takes the metadata's.
    pub fn from_elf(bytes: &[u8], wave: Option<gcnc::isa::Wave>) -> Result<Dispatch> {
        use gcnc::binary::{ComputeShaderInfo, ElfFile, HwStage};
        let elf = ElfFile::parse(bytes).map_err(|e| Error::setup(format!("ELF: {e}")))?;
        let text = elf
            .text()
            .ok_or_else(|| Error::setup("ELF has no .text"))?
            .to_vec();
        let gen = elf
            .gen()
            .ok_or_else(|| Error::setup("ELF target is not gfx900/gfx1030/gfx1100"))?;
        let entry = elf.entry(HwStage::Cs).map(|s| (s.value, s.size));
        let mut t = Target::new(gen);
        let mut d = Dispatch::new(t, text);
        d.pal_scratch = true;
        if let Some((off, _)) = entry {
            d.entry = off;
        }
        if let Ok(Some(md)) = elf.pal_metadata() {
            let size = entry.map(|e| e.1).unwrap_or(0);
            if let Ok(info) = ComputeShaderInfo::from_metadata(&md, gen, size) {
                d.group_size = info.workgroup_size;
                d.tgid_en = info.tgid_en;
                d.tid_dims = info.tidig_comp_cnt + 1;
                d.lds_bytes = info.lds_bytes;
                d.scratch_bytes = info.scratch_bytes_per_lane as u64;
                d.float_mode = info.float_mode.0 as u32;
                d.vgprs = (info.vgprs as usize).clamp(1, 256);
                t = info.target;
            }
        }
        if let Some(wave) = wave {
            t = Target::with_wave(gen, wave).map_err(|e| Error::setup(e.to_string()))?;
        }
        d.target = t;
        Ok(d)
    }
}

/// Byte offset of the scratch ring descriptor in the global table (compute).
pub const GIT_SCRATCH_RING_OFFSET: u64 = 16;

impl Dispatch {
    /// The value of the `GlobalTable` user SGPR: the table's low 32 bits.
    pub fn global_table_lo(&self) -> u32 {
        self.global_table as u32
    }

    /// Whether waves get the GFX9/GFX10.3 scratch setup (wave offset, global table).
    fn scratch_setup(&self) -> bool {
        self.pal_scratch && self.scratch_bytes > 0 && self.target.gen != Gen::Gfx11
    }

    /// The scratch wave offset of wave `wi` of workgroup `wg`: the bytes of scratch of
    /// every wave before it in the dispatch.
    pub fn scratch_wave_offset(&self, wg: [u32; 3], wi: u32) -> u64 {
        let lanes = self.target.wave.lanes() as u64;
        let threads: u32 = self.group_size.iter().product();
        let nwaves = threads.div_ceil(self.target.wave.lanes()) as u64;
        let [gx, gy, _] = self.groups;
        let g = wg[0] as u64 + gx as u64 * (wg[1] as u64 + gy as u64 * wg[2] as u64);
        (g * nwaves + wi as u64) * self.scratch_bytes * lanes
    }

    /// Writes the global table with the scratch ring descriptor (GFX9/GFX10.3 scratch).
    /// Maps the code at `code_base` as memory holding its bytes: the shader reads the
    /// constant data placed after its code through its own address (`s_getpc_b64`). A read
    /// past the code's end faults like any unmapped read.
    fn map_code(&self, mem: &mut Memory) -> Result<()> {
        let len = self.code.len() as u64;
        if !mem.is_mapped(self.code_base, len) {
            mem.map(self.code_base, len);
        }
        mem.write(self.code_base, &self.code)
    }

    fn write_global_table(&self, mem: &mut Memory) -> Result<()> {
        if !self.scratch_setup() {
            return Ok(());
        }
        if self.global_table >> 32 != self.code_base >> 32 {
            return Err(Error::setup(
                "the global table must be in the code's 4 GiB (s_getpc_b64 high half)",
            ));
        }
        let len = GIT_SCRATCH_RING_OFFSET + 16;
        if !mem.is_mapped(self.global_table, len) {
            mem.map(self.global_table, len);
        }
        // base 47:0 plus a non-zero stride above it, which the shader must mask off
        let words = [
            self.scratch_ring as u32,
            (self.scratch_ring >> 32) as u32 & 0xffff | 4 << 16,
            u32::MAX,
            0,
        ];
        for (k, v) in words.iter().enumerate() {
            mem.write_u32(
                self.global_table + GIT_SCRATCH_RING_OFFSET + 4 * k as u64,
                *v,
            )?;
        }
        Ok(())
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub workgroups: u64,
    pub waves: u64,
    pub instructions: u64,
}

fn check_setup(d: &Dispatch) -> Result<()> {
    // At most 1024 threads: a dimension is at most 1024, so a local id is at most 1023
    // and fits GFX11's 10-bit fields of v0.
    let threads = d.group_size.iter().map(|&x| x as u64).product::<u64>();
    if threads == 0 || threads > 1024 {
        return Err(Error::setup(format!(
            "workgroup of {threads} threads (1..=1024)"
        )));
    }
    if d.groups.contains(&0) {
        return Err(Error::setup("a workgroup count is 0"));
    }
    if d.tid_dims == 0 || d.tid_dims > 3 {
        return Err(Error::setup("tid_dims must be 1..=3"));
    }
    let tg = d.tgid_en.iter().filter(|&&b| b).count();
    if d.user_sgprs.len() + tg > 106 {
        return Err(Error::setup("too many user + system SGPRs"));
    }
    if d.lds_bytes > 65536 {
        return Err(Error::setup("LDS above 64 KiB"));
    }
    // GFX11 packs the local id into v0 whatever the dimension count
    let id_vgprs = if d.target.gen == Gen::Gfx11 {
        1
    } else {
        d.tid_dims as usize
    };
    if d.vgprs < id_vgprs {
        return Err(Error::setup("fewer VGPRs than local-id registers"));
    }
    Ok(())
}

/// Runs every workgroup of `d` against `mem`.
pub fn run(d: &Dispatch, mem: &mut Memory) -> Result<Stats> {
    check_setup(d)?;
    // every wave executes at least one instruction
    let threads: u64 = d.group_size.iter().map(|&x| x as u64).product();
    let groups: u64 = d.groups.iter().map(|&x| x as u64).product();
    let waves = groups.saturating_mul(threads.div_ceil(d.target.wave.lanes() as u64));
    if waves > d.dispatch_budget {
        return Err(Error::setup(format!(
            "{} workgroups make {waves} waves, more than the dispatch budget of {} instructions can run",
            groups, d.dispatch_budget
        )));
    }
    d.write_global_table(mem)?;
    d.map_code(mem)?;
    let mut prog = Program::new(d.target, d.code.clone(), d.code_base);
    let mut stats = Stats::default();
    for gz in 0..d.groups[2] {
        for gy in 0..d.groups[1] {
            for gx in 0..d.groups[0] {
                run_group(d, &mut prog, mem, [gx, gy, gz], &mut stats)?;
            }
        }
    }
    Ok(stats)
}

/// The waves of one workgroup, set up per the ABI.
pub fn make_waves(d: &Dispatch, wg: [u32; 3]) -> Result<Vec<Wave>> {
    let lanes = d.target.wave.lanes();
    let [sx, sy, _] = d.group_size;
    let threads: u32 = d.group_size.iter().product();
    let nwaves = threads.div_ceil(lanes);
    let mut waves = Vec::new();
    for wi in 0..nwaves {
        let mut w = Wave::new(d.target, d.vgprs, d.budget, d.checks);
        w.id = (wg, wi);
        w.pc = d.entry;
        w.mode = d.float_mode;
        w.set_scratch(d.scratch_bytes);
        let mut s = 0u16;
        for &v in &d.user_sgprs {
            w.regs.set_s(s, v)?;
            s += 1;
        }
        for (&en, &id) in d.tgid_en.iter().zip(wg.iter()) {
            if en {
                w.regs.set_s(s, id)?;
                s += 1;
            }
        }
        if d.scratch_setup() {
            let off = d.scratch_wave_offset(wg, wi);
            w.regs.set_s(s, off as u32)?;
            w.scratch_expect = Some(d.scratch_ring + off);
        }
        let mut exec = 0u64;
        for lane in 0..lanes {
            let t = wi * lanes + lane;
            if t >= threads {
                break;
            }
            exec |= 1 << lane;
            let (x, y, z) = (t % sx, (t / sx) % sy, t / (sx * sy));
            if d.target.gen == Gen::Gfx11 {
                let mut v = x;
                if d.tid_dims >= 2 {
                    v |= y << 10;
                }
                if d.tid_dims >= 3 {
                    v |= z << 20;
                }
                w.regs.set_v(0, lane, v)?;
            } else {
                for (k, val) in [x, y, z].into_iter().enumerate().take(d.tid_dims as usize) {
                    w.regs.set_v(k as u16, lane, val)?;
                }
            }
        }
        w.regs.set_exec(exec);
        w.launched = exec;
        waves.push(w);
    }
    Ok(waves)
}

/// Runs one workgroup and returns its waves in their final state (tests, debugging).
pub fn run_workgroup(d: &Dispatch, mem: &mut Memory, wg: [u32; 3]) -> Result<Vec<Wave>> {
    check_setup(d)?;
    d.write_global_table(mem)?;
    d.map_code(mem)?;
    let mut prog = Program::new(d.target, d.code.clone(), d.code_base);
    let mut stats = Stats::default();
    let waves = make_waves(d, wg)?;
    run_waves(d, &mut prog, mem, waves, &mut stats)
}

fn run_group(
    d: &Dispatch,
    prog: &mut Program,
    mem: &mut Memory,
    wg: [u32; 3],
    stats: &mut Stats,
) -> Result<()> {
    let waves = make_waves(d, wg)?;
    run_waves(d, prog, mem, waves, stats).map(|_| ())
}

/// Every wave released from a barrier waits at the same `s_barrier` for the same time,
/// and no wave ended without it (`Checks::barriers`): otherwise some invocations of the
/// workgroup did not execute the barrier the others did.
fn check_release(waves: &[Wave]) -> Result<()> {
    let Some(first) = waves.iter().find(|w| w.status == Status::AtBarrier) else {
        return Ok(());
    };
    let at = |w: &Wave| {
        format!(
            "wave {} at the s_barrier at {:#x} (its barrier #{})",
            w.id.1, w.barrier_pc, w.barriers
        )
    };
    for w in waves {
        let what = match w.status {
            Status::AtBarrier
                if (w.barrier_pc, w.barriers) != (first.barrier_pc, first.barriers) =>
            {
                format!("{} and {} are released together", at(first), at(w))
            }
            Status::Ended if w.barriers < first.barriers => format!(
                "wave {} ended without reaching it after {} barrier(s), while {}",
                w.id.1,
                w.barriers,
                at(first)
            ),
            _ => continue,
        };
        return Err(first.locate(
            Error::new(ErrorKind::DivergentBarrier(what)),
            first.barrier_pc,
            Some("s_barrier"),
        ));
    }
    Ok(())
}

fn run_waves(
    d: &Dispatch,
    prog: &mut Program,
    mem: &mut Memory,
    mut waves: Vec<Wave>,
    stats: &mut Stats,
) -> Result<Vec<Wave>> {
    let mut lds = Lds::new(d.lds_bytes as usize);
    stats.workgroups += 1;
    stats.waves += waves.len() as u64;
    loop {
        let mut progressed = false;
        for w in waves.iter_mut() {
            if w.status != Status::Running {
                continue;
            }
            let mut env = Env {
                prog,
                mem,
                lds: &mut lds,
                checks: d.checks,
                exports: None,
            };
            if stats.instructions >= d.dispatch_budget {
                return Err(w.locate(
                    Error::new(ErrorKind::DispatchBudget(d.dispatch_budget)),
                    w.pc,
                    None,
                ));
            }
            w.step(&mut env)?;
            stats.instructions += 1;
            progressed = true;
        }
        let live: Vec<&Wave> = waves.iter().filter(|w| w.status != Status::Ended).collect();
        if live.is_empty() {
            return Ok(waves);
        }
        if live.iter().all(|w| w.status == Status::AtBarrier) {
            if d.checks.barriers {
                check_release(&waves)?;
            }
            for w in waves.iter_mut() {
                if w.status == Status::AtBarrier {
                    w.status = Status::Running;
                }
            }
            continue;
        }
        if !progressed {
            let w = live[0];
            return Err(w.locate(
                Error::new(ErrorKind::BarrierDeadlock(
                    "no wave can make progress".into(),
                )),
                w.pc,
                None,
            ));
        }
    }
}
