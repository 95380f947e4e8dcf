//! Branch cleanup after register allocation and `lower_to_hw`: fewer `s_branch` and
//! `s_cbranch_*` in the laid-out program, the same execution.
//!
//! The selector lays out structured control flow with a branch at every arm's end and
//! empty blocks where an arm had nothing to do, so the text has branches to the very next
//! instruction, branches to a lone `s_branch`, and conditional branches over an
//! unconditional one. Labels are layout positions, so an empty block shares its address
//! with the next block, and falling through a block that holds only `s_branch X` lands at
//! `X`. With `dest(L)` the place a jump to `L` really continues (after empty blocks and
//! lone `s_branch`es, at most [`MAX_HOPS`] of them):
//! - every branch to `L` jumps to `dest(L)` instead;
//! - a trailing `s_branch L` with `dest(L) == dest(next block)` is deleted;
//! - `s_cbranch_c L1; s_branch L2` with `dest(L1) == dest(next block)` becomes
//!   `s_cbranch_!c L2`;
//! - a trailing `s_cbranch_c L` with `dest(L) == dest(next block)` is deleted;
//! - a trailing `s_cbranch_c L1` whose fallthrough is the very next block `F`, holding only
//!   `s_branch L2` and reached from nothing else, with `dest(L1)` the first non-empty
//!   block after `F` (reached by falling through, no lone `s_branch` on the way), becomes
//!   `s_cbranch_!c L2`, and `F` is emptied (the arm of a uniform `if` that only leaves the
//!   loop: `s_cmp; s_cbranch_scc0 ELSE; s_branch EXIT; ELSE:` → `s_cmp; s_cbranch_scc1
//!   EXIT; ELSE:`). `F`'s predecessors come from the linear CFG rebuilt after the
//!   previous round, so "reached from nothing else" holds for the whole program.
//!
//! Blocks are simplified last to first, so the blocks a fallthrough crosses are final.
//! After each round the linear CFG is rebuilt from the branches (a block's successors are
//! its branch targets, plus the next block when it falls through), so the passes after
//! this one (`insert_waitcnt`, `resolve_hazards`) join exactly the paths the wave takes,
//! and blocks the entry no longer reaches are emptied; that can leave a branch to the next
//! instruction, and a retargeted branch can leave a lone `s_branch` block reached from its
//! fallthrough only, so rounds repeat while they delete or retarget branches (at most
//! [`MAX_ROUNDS`]). The
//! logical CFG is left as it is: nothing after allocation reads it.

use crate::amdgpu::mir::{Arg, BlockId, MInst, Program};
use crate::isa::tables::Props;
use crate::isa::{Format, Opcode};

/// The longest chain of lone `s_branch` blocks followed to find where a jump lands.
pub const MAX_HOPS: usize = 8;

/// Simplifies branches; returns how many branch instructions were deleted.
pub fn thread_branches(p: &mut Program) -> u32 {
    let before = count_branches(p);
    rebuild_linear_cfg(p);
    // emptying an unreachable block can put a branch's target right after it: one more
    // round then (a round only deletes, so this ends)
    for _ in 0..MAX_ROUNDS {
        let n = count_branches(p);
        let retargeted = simplify(p);
        rebuild_linear_cfg(p);
        if count_branches(p) == n && !retargeted {
            break;
        }
    }
    before - count_branches(p)
}

/// Rounds of [`simplify`] at most (each is linear; real programs settle in two).
pub const MAX_ROUNDS: usize = 4;

/// One pass over the blocks, last to first; returns whether a branch got a new target
/// (which can leave a block reached from fewer places, for the next round).
fn simplify(p: &mut Program) -> bool {
    let mut retargeted = false;
    for a in (0..p.blocks.len()).rev() {
        if a != 0 && p.blocks[a].linear_preds.is_empty() {
            continue;
        }
        for k in 0..p.blocks[a].insts.len() {
            if let Some(Arg::Label(l)) = label_of(&p.blocks[a].insts[k]) {
                let d = dest(p, l.0 as usize);
                retargeted |= d != l.0 as usize;
                p.blocks[a].insts[k].ops[0] = Arg::Label(BlockId(d as u32));
            }
        }
        let next = dest(p, a + 1);
        loop {
            let insts = &p.blocks[a].insts;
            let n = insts.len();
            let branch = |k: usize| insts.get(k).and_then(|i| i.opcode().zip(label_of(i)));
            let last = n.checked_sub(1).and_then(branch);
            let prev = n.checked_sub(2).and_then(branch);
            let to_next = |l: Arg| matches!(l, Arg::Label(b) if dest(p, b.0 as usize) == next);
            let invert = match (prev, last) {
                (_, Some((Opcode::SBranch, l))) if to_next(l) => None,
                (Some((c, l1)), Some((Opcode::SBranch, l2))) if to_next(l1) => {
                    match c.inverse_branch() {
                        Some(inv) => Some((inv, l2)),
                        None => break,
                    }
                }
                (_, Some((c, l))) if c != Opcode::SBranch && to_next(l) => None,
                _ => break,
            };
            let insts = &mut p.blocks[a].insts;
            insts.pop();
            if let Some((inv, l2)) = invert {
                insts[n - 2] = MInst::hw(inv, Format::Sopp, &[], &[l2]);
            }
        }
        invert_over_lone_branch(p, a);
    }
    retargeted
}

/// The rule for a conditional branch over a next block that only holds `s_branch` (see
/// the module doc).
fn invert_over_lone_branch(p: &mut Program, a: usize) {
    let f = a + 1;
    let Some(last) = p.blocks[a].insts.last() else {
        return;
    };
    let (Some(c), Some(Arg::Label(l1))) = (last.opcode(), label_of(last)) else {
        return;
    };
    let Some(inv) = c.inverse_branch().filter(|_| c != Opcode::SBranch) else {
        return;
    };
    let lone = match p.blocks.get(f).map(|b| b.insts.as_slice()) {
        Some([i]) if i.opcode() == Some(Opcode::SBranch) => label_of(i),
        _ => None,
    };
    let Some(l2 @ Arg::Label(_)) = lone else {
        return;
    };
    // falling past `F` must land where `L1` leads without crossing a lone `s_branch`
    // (else that branch stays and nothing is saved)
    let mut after = f + 1;
    while after < p.blocks.len() && p.blocks[after].insts.is_empty() {
        after += 1;
    }
    if p.blocks[f].linear_preds.as_slice() != [BlockId(a as u32)] || dest(p, l1.0 as usize) != after
    {
        return;
    }
    let n = p.blocks[a].insts.len();
    p.blocks[a].insts[n - 1] = MInst::hw(inv, Format::Sopp, &[], &[l2]);
    p.blocks[f].insts.clear();
}

fn count_branches(p: &Program) -> u32 {
    p.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| label_of(i).is_some())
        .count() as u32
}

/// The target of a branch instruction.
fn label_of(i: &MInst) -> Option<Arg> {
    let o = i.opcode()?;
    if !o.props().contains(Props::BRANCH) {
        return None;
    }
    match i.ops.first() {
        Some(l @ Arg::Label(_)) => Some(*l),
        _ => None,
    }
}

/// Where execution continues after a jump to block `b` (or falling into it): the first
/// non-empty block from `b` on, through lone `s_branch`es.
fn dest(p: &Program, mut b: usize) -> usize {
    for _ in 0..MAX_HOPS {
        while b < p.blocks.len() && p.blocks[b].insts.is_empty() {
            b += 1;
        }
        match p.blocks.get(b).map(|x| x.insts.as_slice()) {
            Some([i]) if i.opcode() == Some(Opcode::SBranch) => match label_of(i) {
                Some(Arg::Label(l)) if l.0 as usize != b => b = l.0 as usize,
                _ => return b,
            },
            _ => return b,
        }
    }
    b
}

/// Whether control leaves block `b`'s end into the next block.
fn falls_through(b: &[MInst]) -> bool {
    !matches!(
        b.last().and_then(|i| i.opcode()),
        Some(Opcode::SBranch | Opcode::SEndpgm)
    )
}

/// Rebuilds the linear CFG from the branches and fallthroughs, and empties the blocks the
/// entry does not reach.
pub(super) fn rebuild_linear_cfg(p: &mut Program) {
    let n = p.blocks.len();
    let succs_of = |p: &Program, b: usize| {
        let mut s: Vec<BlockId> = p.blocks[b]
            .insts
            .iter()
            .filter_map(|i| match label_of(i) {
                Some(Arg::Label(l)) => Some(l),
                _ => None,
            })
            .collect();
        if falls_through(&p.blocks[b].insts) && b + 1 < n {
            s.push(BlockId(b as u32 + 1));
        }
        s.sort();
        s.dedup();
        s
    };
    let mut reached = vec![false; n];
    let mut work = vec![0usize];
    reached[0] = true;
    while let Some(b) = work.pop() {
        for s in succs_of(p, b) {
            if !reached[s.0 as usize] {
                reached[s.0 as usize] = true;
                work.push(s.0 as usize);
            }
        }
    }
    for b in 0..n {
        p.blocks[b].linear_preds.clear();
        p.blocks[b].linear_succs.clear();
        if !reached[b] {
            p.blocks[b].insts.clear();
        }
    }
    for b in (0..n).filter(|b| reached[*b]) {
        for s in succs_of(p, b) {
            p.blocks[b].linear_succs.push(s);
            p.blocks[s.0 as usize].linear_preds.push(BlockId(b as u32));
        }
    }
}
