//! Fewer exec-mask writes after register allocation (after `drop_short_exec_branches`,
//! before waits and hazards).
//!
//! Divergent control flow leaves lanes through `break`/`continue`/`return` by clearing
//! exec (`s_mov exec, 0`), and the join after it brings the other lanes back with
//! `s_or exec, exec, t`. Two rewrites take the redundant half of such pairs:
//! 1. **Known-empty exec.** A forward walk knows where exec is 0: after `s_mov exec, 0`
//!    (and an `s_and_saveexec` of an empty exec), on the taken edge of `s_cbranch_execz`
//!    and on the fall-through edge of `s_cbranch_execnz`; a block is entered with exec 0
//!    when every linear predecessor before it in layout order leaves it so (a back edge
//!    makes it unknown). There `s_or exec, exec, x` is `s_mov exec, x`, which no longer
//!    reads exec; it is rewritten when SCC (which `s_or` sets and `s_mov` does not) is not
//!    read before being written again.
//! 2. **Dead exec writes.** A backward walk over the linear CFG knows whether the exec
//!    value at a point is read before exec is wholly written again (VALU, memory, exports
//!    and everything that is not an SALU instruction read it, as do SALU instructions that
//!    name it or have the `r_exec` property; a block that ends the program with
//!    `s_endpgm` reads nothing after it; a back edge, or an end without `s_endpgm` — the
//!    jump to an epilog — reads it). An SALU instruction whose only destination is exec
//!    and whose value nobody reads is deleted (with SCC dead after it): the `s_mov exec,
//!    0` that rewrite 1 made unnecessary. This is the exec half of ACO's
//!    `eliminate_useless_exec_writes_in_block` (`aco_lower_branches.cpp`, Mesa 22.3+).
//!
//! Invariant: every instruction sees the exec value it saw before; rewrite 1 removes
//! only reads whose value is known, rewrite 2 only writes nobody reads.

use crate::amdgpu::mir::{Arg, MInst, Op, Program};
use crate::isa::{Format, Opcode, Props, Reg};

/// Rewrites `s_or exec, exec, x` under an empty exec and deletes unread exec writes;
/// returns how many instructions changed or went.
pub fn simplify_exec_writes(p: &mut Program) -> u32 {
    let exec = match p.exec() {
        Arg::Reg(r) => r,
        _ => unreachable!("exec is a register"),
    };
    let wave = p.target.wave;
    let gen = p.target.gen;
    let lane = |o: Opcode| o.for_wave(wave).and_then(|w| w.on(gen));
    let (Some(or), Some(mov), Some(and_saveexec)) = (
        lane(Opcode::SOrB32),
        lane(Opcode::SMovB32),
        lane(Opcode::SAndSaveexecB32),
    ) else {
        return 0;
    };
    let mut changed = 0;

    // 1. known-empty exec, blocks in layout order
    let n = p.blocks.len();
    let mut zero_out = vec![false; n];
    for b in 0..n {
        let mut zero = b != 0
            && !p.blocks[b].linear_preds.is_empty()
            && p.blocks[b].linear_preds.iter().all(|q| {
                (q.0 as usize) < b && edge_empty(p, q.0 as usize, b, zero_out[q.0 as usize])
            });
        for k in 0..p.blocks[b].insts.len() {
            let i = &p.blocks[b].insts[k];
            if !writes_exec(i, exec) {
                continue;
            }
            let o = i.opcode();
            if zero && o == Some(or) && i.defs.as_slice() == [Arg::Reg(exec)] {
                let other = match i.ops.as_slice() {
                    [Arg::Reg(r), x] | [x, Arg::Reg(r)] if *r == exec => Some(*x),
                    _ => None,
                };
                if let Some(x) = other.filter(|_| scc_dead_after(p, b, k)) {
                    p.blocks[b].insts[k] = MInst::hw(mov, Format::Sop1, &[Arg::Reg(exec)], &[x]);
                    changed += 1;
                    zero = x == Arg::Const(0);
                    continue;
                }
            }
            zero = if o == Some(mov) {
                i.ops.as_slice() == [Arg::Const(0)] && i.defs.as_slice() == [Arg::Reg(exec)]
            } else {
                zero && o == Some(and_saveexec)
            };
        }
        zero_out[b] = zero;
    }

    // 2. dead exec writes, blocks in reverse layout order
    let mut live_in = vec![true; n];
    for b in (0..n).rev() {
        let blk = &p.blocks[b];
        let mut live = if blk.linear_succs.is_empty() {
            !matches!(blk.insts.last().and_then(|i| i.opcode()), Some(o) if o.props().contains(Props::END_PGM))
        } else {
            blk.linear_succs
                .iter()
                .any(|s| s.0 as usize <= b || live_in[s.0 as usize])
        };
        let mut dead = Vec::new();
        for k in (0..blk.insts.len()).rev() {
            let i = &blk.insts[k];
            let full = writes_exec(i, exec) && covers(i, exec);
            if full
                && !live
                && i.defs.as_slice() == [Arg::Reg(exec)]
                && matches!(i.op, Op::Hw(o, _) if o.props_on(gen).contains(Props::SALU)
                    && !o.props_on(gen).contains(Props::READS_SCC))
                && !reads_exec(i, exec)
                && scc_dead_after(p, b, k)
            {
                dead.push(k);
                continue;
            }
            live = (live && !full) || reads_exec(i, exec);
        }
        live_in[b] = live;
        for k in dead {
            p.blocks[b].insts.remove(k);
            changed += 1;
        }
    }
    changed
}

/// Whether exec is 0 on every way from block `q` (whose end leaves exec 0 when
/// `q_zero`) into block `b`.
fn edge_empty(p: &Program, q: usize, b: usize, q_zero: bool) -> bool {
    if q_zero {
        return true;
    }
    let insts = &p.blocks[q].insts;
    let mut any = false;
    for i in insts.iter().rev() {
        let Some(o) = i.opcode().filter(|o| o.props().contains(Props::BRANCH)) else {
            break;
        };
        if i.ops.first() == Some(&Arg::Label(crate::amdgpu::mir::BlockId(b as u32))) {
            if o != Opcode::SCbranchExecz {
                return false;
            }
            any = true;
        }
    }
    if q + 1 == b && falls_through(insts) {
        // falling through past `s_cbranch_execnz` means exec is 0
        if insts.last().and_then(|i| i.opcode()) != Some(Opcode::SCbranchExecnz) {
            return false;
        }
        any = true;
    }
    any
}

fn falls_through(insts: &[MInst]) -> bool {
    !matches!(
        insts.last().and_then(|i| i.opcode()),
        Some(Opcode::SBranch | Opcode::SEndpgm)
    )
}

fn overlaps(a: &Arg, r: Reg) -> bool {
    match a {
        Arg::Reg(x) => x.base.0 < r.base.0 + r.count as u16 && r.base.0 < x.base.0 + x.count as u16,
        _ => false,
    }
}

fn writes_exec(i: &MInst, exec: Reg) -> bool {
    i.defs.iter().any(|d| overlaps(d, exec))
        || i.opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
}

/// Whether the instruction writes every dword of exec (an explicit destination that is
/// exec, or an implicit exec write: saveexec, `v_cmpx`).
fn covers(i: &MInst, exec: Reg) -> bool {
    i.defs.iter().any(|d| *d == Arg::Reg(exec))
        || i.opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
}

fn reads_exec(i: &MInst, exec: Reg) -> bool {
    let Op::Hw(o, _) = i.op else {
        return true;
    };
    let pr = o.props();
    !pr.contains(Props::SALU)
        || pr.contains(Props::READS_EXEC)
        || i.ops.iter().any(|a| overlaps(a, exec))
}

/// Whether SCC after instruction `k` of block `b` is written before it is read (in the
/// block, or at the start of each linear successor; a pseudo counts as a read).
fn scc_dead_after(p: &Program, b: usize, k: usize) -> bool {
    match first_scc_event(&p.blocks[b].insts[k + 1..]) {
        Some(read) => !read,
        // SCC is dead across block boundaries (selection, `lower_to_hw` and the long
        // branch form rely on it); a successor that reads it first is still respected
        None => p.blocks[b]
            .linear_succs
            .iter()
            .all(|s| first_scc_event(&p.blocks[s.0 as usize].insts) != Some(true)),
    }
}

/// Some(true) when the first instruction touching SCC reads it, Some(false) when it only
/// writes it, None when none touches it.
fn first_scc_event(insts: &[MInst]) -> Option<bool> {
    for i in insts {
        let Op::Hw(o, _) = i.op else {
            return Some(true);
        };
        let pr = o.props();
        if pr.contains(Props::READS_SCC) {
            return Some(true);
        }
        if pr.contains(Props::WRITES_SCC) {
            return Some(false);
        }
    }
    None
}
