//! Drops an `s_cbranch_execz` that only skips a few cheap instructions (after
//! `thread_branches`, before waits and hazards).
//!
//! A divergent `if` skips each arm with `s_cbranch_execz` when no lane takes it. Over a
//! short arm the branch costs more than running the arm with an empty exec mask, so the
//! branch goes when everything it skips is safe and cheap to run with exec = 0. The rule
//! is ACO's (`aco_lower_branches.cpp`, `can_remove_branch`, Mesa 22.3 and later):
//! - the branch jumps forward and the code it skips (the blocks between it and its
//!   target, in layout order) holds no SOPP instruction (no branch, wait, barrier,
//!   message or `s_endpgm`), so that code falls through to the target;
//! - nothing skipped is a memory access (SMEM, VMEM, FLAT, LDS), an export or a barrier:
//!   those are costly or unsafe with no lane active;
//! - nothing skipped reads or writes lanes it does not own (`v_readlane`/`v_writelane`/
//!   `v_readfirstlane`, permlanes: the `lane` property; `v_writelane` writes an inactive
//!   lane, a readfirstlane of an empty exec reads lane 0);
//! - the estimated cost stays within 16 cycles: GFX10+ `2 · SALU + VALU` (a VALU that
//!   writes an SGPR counts as an SALU too, it runs whatever exec is), GFX9 `4 · (SALU +
//!   VALU)`.
//!
//! Why running the skipped code with exec = 0 is the same program: register allocation
//! works on the linear CFG, in which the skipped blocks are on a path from the branch to
//! its target, so they clobber nothing the target needs; VALU writes no VGPR lane with
//! exec = 0, and an SALU result computed there is only read on that linear path (an
//! `s_and_saveexec` of an empty exec saves and leaves 0, an `s_or` into a break mask adds
//! nothing). The linear CFG is rebuilt afterwards (`thread_branches`), so the later
//! passes see the paths the wave takes.

use super::thread_branches::rebuild_linear_cfg;
use crate::amdgpu::mir::{Arg, Op, Program};
use crate::isa::{Format, Gen, Opcode, Props};

/// The estimated cycles of skipped code above which the branch stays (ACO's limit).
pub const MAX_SKIPPED_CYCLES: u32 = 16;

/// Deletes short `s_cbranch_execz` skips; returns how many.
pub fn drop_short_exec_branches(p: &mut Program) -> u32 {
    let mut dropped = 0;
    for b in 0..p.blocks.len() {
        let Some(last) = p.blocks[b].insts.last() else {
            continue;
        };
        if last.opcode() != Some(Opcode::SCbranchExecz) {
            continue;
        }
        let Some(Arg::Label(target)) = last.ops.first() else {
            continue;
        };
        let target = target.0 as usize;
        if target <= b || !cheap_with_empty_exec(p, b + 1..target) {
            continue;
        }
        p.blocks[b].insts.pop();
        dropped += 1;
    }
    if dropped > 0 {
        rebuild_linear_cfg(p);
    }
    dropped
}

/// Whether the instructions of `blocks` fall through to the block after them, and are
/// safe and cheap to run with an empty exec mask (the module doc's rule).
fn cheap_with_empty_exec(p: &Program, blocks: std::ops::Range<usize>) -> bool {
    let gen = p.target.gen;
    let (mut salu, mut valu) = (0u32, 0u32);
    for i in blocks.flat_map(|b| &p.blocks[b].insts) {
        let Op::Hw(o, fmt) = i.op else {
            return false;
        };
        let pr = o.props_on(gen);
        let unsafe_here = Props::SMEM
            | Props::VMEM
            | Props::LDS
            | Props::EXPORT
            | Props::BARRIER
            | Props::BRANCH
            | Props::END_PGM
            | Props::WAITCNT
            | Props::CROSS_LANE
            | Props::LGKM_CNT
            | Props::VM_CNT
            | Props::EXP_CNT
            | Props::VS_CNT;
        if fmt == Format::Sopp || pr.intersects(unsafe_here) {
            return false;
        }
        if pr.contains(Props::VALU) {
            valu += 1;
            if gen != Gen::Gfx9 {
                salu += i
                    .defs
                    .iter()
                    .filter(|d| matches!(d, Arg::Reg(r) if !r.base.is_vgpr()))
                    .count() as u32
                    + pr.contains(Props::WRITES_VCC) as u32;
            }
        } else if pr.contains(Props::SALU) {
            salu += 1;
        } else {
            return false;
        }
        let cycles = match gen {
            Gen::Gfx9 => 4 * (salu + valu),
            _ => 2 * salu + valu,
        };
        if cycles > MAX_SKIPPED_CYCLES {
            return false;
        }
    }
    true
}
