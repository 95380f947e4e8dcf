//! Scalar loads move up in their block, next to each other, so that one `s_waitcnt
//! lgkmcnt(0)` covers them all (machine SSA, before register allocation).
//!
//! The selector emits a descriptor load (`s_load_dwordx4` from a set pointer) or a push
//! constant load right before its first user. SMEM returns out of order, so every user
//! waits for `lgkmcnt(0)`: three buffers read one after another cost three waits. Issued
//! together at the top of the block, the loads are waited for once, at the first user.
//!
//! What moves: every SMEM load (`Props::SMEM` with a result and an address, not an
//! atomic). A load moves up to just after the last instruction of its block that it may
//! not pass: the definition of a temp it reads, an instruction that may write memory or orders memory
//! (a VMEM/LDS/SMEM instruction without a result or atomic, a barrier, a waitcnt, a cache
//! invalidation), a branch, a pseudo other than the vector copies (`p_startpgm` among
//! them), and the loads already moved (the loads keep their order). Passing only reads
//! and register-to-register work keeps the value every load returns.
//!
//! Invariants: the program stays in SSA (a load never passes a definition of what it
//! reads, and it moves up, so it still precedes its readers); a load is never placed
//! where SCC is live (between an SCC writer and its reader): register allocation may put
//! copies before an instruction that starts a temp, and an SGPR swap writes SCC, so the
//! landing point moves down to the first point where SCC is dead, or the load stays.
//! Pressure: each moved load's SGPRs live longer; at most [`MAX_DWORDS`] dwords move per
//! block.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo};
use crate::isa::tables::Props;

/// The most SGPR dwords moved in one block.
pub const MAX_DWORDS: u32 = 32;

/// Moves scalar loads up in their blocks; returns how many moved.
pub fn cluster_scalar_loads(p: &mut Program) -> u32 {
    let mut moved = 0;
    for b in 0..p.blocks.len() {
        let mut insts = std::mem::take(&mut p.blocks[b].insts);
        moved += cluster_block(p, &mut insts);
        p.blocks[b].insts = insts;
    }
    moved
}

fn props(i: &MInst) -> Props {
    i.opcode().map_or(Props::empty(), |o| o.props())
}

fn is_smem_load(i: &MInst) -> bool {
    let pr = props(i);
    // a load has an address; `s_memtime` and the like (clock reads) have none
    pr.contains(Props::SMEM)
        && !pr.contains(Props::ATOMIC)
        && !i.defs.is_empty()
        && !i.ops.is_empty()
}

/// Whether a load may not move above `i`: `i` may write or order memory, or changes
/// control flow, or is a pseudo other than a vector copy.
fn fence(i: &MInst) -> bool {
    match i.op {
        Op::Pseudo(Pseudo::ParallelCopy | Pseudo::CreateVector | Pseudo::SplitVector) => false,
        Op::Pseudo(_) => true,
        Op::Hw(o, _) => {
            let pr = o.props();
            let mem = Props::VMEM | Props::LDS | Props::SMEM;
            (pr.intersects(mem) && (i.defs.is_empty() || pr.contains(Props::ATOMIC)))
                || pr.intersects(
                    Props::BARRIER
                        | Props::WAITCNT
                        | Props::CACHE_INV
                        | Props::BRANCH
                        | Props::END_PGM
                        | Props::EXPORT,
                )
        }
    }
}

fn cluster_block(p: &Program, insts: &mut Vec<MInst>) -> u32 {
    let mut moved = 0;
    let mut dwords = 0u32;
    // the lowest position a load may land at: after the last fence or moved load
    let mut floor = 0usize;
    let mut scc_live = scc_live_before(insts);
    let mut k = 0;
    while k < insts.len() {
        let i = &insts[k];
        if !is_smem_load(i) {
            if fence(i) {
                floor = k + 1;
            }
            k += 1;
            continue;
        }
        let size: u32 = i
            .defs
            .iter()
            .filter_map(|d| d.temp())
            .map(|t| p.rc(t).dwords as u32)
            .sum();
        // after the last definition of an operand in this block
        let mut lo = floor;
        for j in (floor..k).rev() {
            let reads_def = insts[j]
                .defs
                .iter()
                .any(|d| matches!(d, Arg::Temp(_)) && i.ops.contains(d));
            if reads_def {
                lo = j + 1;
                break;
            }
        }
        let at = (lo..k).find(|&j| !scc_live[j]);
        match at {
            Some(at) if at < k && dwords + size <= MAX_DWORDS => {
                let l = insts.remove(k);
                insts.insert(at, l);
                // the load neither reads nor writes SCC
                scc_live.remove(k);
                scc_live.insert(at, false);
                dwords += size;
                moved += 1;
                floor = at + 1;
            }
            _ => floor = k + 1,
        }
        k += 1;
    }
    moved
}

/// `live[j]`: whether SCC holds a value some instruction at or after `j` reads (a
/// block starts and ends with SCC dead: the selector keeps it dead across blocks).
fn scc_live_before(insts: &[MInst]) -> Vec<bool> {
    let mut live = vec![false; insts.len() + 1];
    for j in (0..insts.len()).rev() {
        let pr = props(&insts[j]);
        live[j] = if pr.contains(Props::READS_SCC) {
            true
        } else if pr.contains(Props::WRITES_SCC) {
            false
        } else {
            live[j + 1]
        };
    }
    live
}
